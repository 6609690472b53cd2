/**
 * Node-only entry point: the file-system adapter for `PackageFs`. Importing it also makes identity
 * hashing use node:crypto's native SHA-256 (same digests as the portable default, several times faster)
 * and large sources decode with Node's UTF-8 validation and transcoding (the same text, about twice
 * as fast: syntax/node-decoder.ts).
 */
import { installNodeSha256 } from "./canonical/node-hash.js";
import { installNodeUtf8 } from "./syntax/node-decoder.js";

installNodeSha256();
installNodeUtf8();

export { NodeFs } from "./fs/node-fs.js";
export { installNodeSha256 } from "./canonical/node-hash.js";
export { installNodeUtf8 } from "./syntax/node-decoder.js";
