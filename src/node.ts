/**
 * Node-only entry point: the file-system adapter for `PackageFs`. Importing it also makes identity
 * hashing use node:crypto's native SHA-256 (same digests as the portable default, several times faster).
 */
import { installNodeSha256 } from "./canonical/node-hash.js";

installNodeSha256();

export { NodeFs } from "./fs/node-fs.js";
export { installNodeSha256 } from "./canonical/node-hash.js";
