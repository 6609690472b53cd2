/**
 * The Node adapter of SHA-256: node:crypto's native implementation (OpenSSL), installed for every
 * identity hash by `installNodeSha256()`. Core code never imports this file (it would break the
 * browser build); Node entry points do.
 */
import { createHash } from "node:crypto";
import { useSha256, type Sha256 } from "./hash.js";

export const nodeSha256: Sha256 = (bytes) => {
  const d = createHash("sha256").update(bytes).digest();
  return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
};

export function installNodeSha256(): void {
  useSha256(nodeSha256);
}
