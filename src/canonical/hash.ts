/** SHA-256 content identities (`sha256:<lowercase hex>`), computed with @noble/hashes. */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";

const encoder = new TextEncoder();

export function sha256Hex(data: string | Uint8Array): string {
  return bytesToHex(sha256(typeof data === "string" ? encoder.encode(data) : data));
}

/** `sha256:` + lowercase hex of SHA-256 over the UTF-8 bytes of `text`. */
export function contentHash(text: string): string {
  return `sha256:${sha256Hex(text)}`;
}
