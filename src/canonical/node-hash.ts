/**
 * The Node adapter of SHA-256: node:crypto's native implementation (OpenSSL), installed for every
 * identity hash by `installNodeSha256()`. Core code never imports this file (it would break the
 * browser build); Node entry points do.
 */
import { createHash } from "node:crypto";
import { useSha256, type Sha256 } from "./hash.js";

const asBytes = (d: Buffer): Uint8Array => new Uint8Array(d.buffer, d.byteOffset, d.byteLength);

export const nodeSha256: Sha256 = Object.assign(
  (bytes: Uint8Array) => asBytes(createHash("sha256").update(bytes).digest()),
  {
    ofParts(parts: readonly string[]): Uint8Array {
      const h = createHash("sha256");
      // A string is hashed as its UTF-8 bytes (lone surrogates as U+FFFD, as TextEncoder does).
      for (const part of parts) h.update(part, "utf8");
      return asBytes(h.digest());
    },
  },
);

export function installNodeSha256(): void {
  useSha256(nodeSha256);
}
