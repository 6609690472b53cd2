/**
 * SHA-256 content identities (`sha256:<lowercase hex>`) through one function. The core stays free of
 * `node:` imports, so the default is @noble/hashes (browsers); a Node process installs node:crypto's
 * native SHA-256 (about 9× faster on this repo's bench, figure e) through `useSha256`, which the
 * Node entry points do (src/node.ts, the CLI's bin.ts and check worker; see node-hash.ts). Both
 * give the same digest for the same bytes (test/canonical/sha256-impl.test.ts).
 */
import { sha256 as nobleSha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";

/** A SHA-256 implementation. */
export interface Sha256 {
  /** The 32-byte digest of `bytes`. */
  (bytes: Uint8Array): Uint8Array;
  /**
   * The digest of the UTF-8 bytes of `parts` one after another, fed piece by piece: a package's
   * canonical text is never built just to be hashed (at 256 KiB, building and encoding it cost more
   * than hashing it). Pieces never split a surrogate pair, so piecewise encoding equals whole.
   */
  ofParts(parts: readonly string[]): Uint8Array;
}

const encoder = new TextEncoder();

/** The portable implementation (@noble/hashes), the default everywhere. */
export const portableSha256: Sha256 = Object.assign((bytes: Uint8Array) => nobleSha256(bytes), {
  ofParts(parts: readonly string[]): Uint8Array {
    const h = nobleSha256.create();
    for (const part of parts) h.update(encoder.encode(part));
    return h.digest();
  },
});

let current: Sha256 = portableSha256;

/** Make every identity hash use `impl` (it must compute SHA-256; a faster native one in Node). */
export function useSha256(impl: Sha256): void {
  current = impl;
}

/** The SHA-256 digest of `data` (a string is hashed as its UTF-8 bytes) through the installed implementation. */
export function sha256Digest(data: string | Uint8Array): Uint8Array {
  return current(typeof data === "string" ? encoder.encode(data) : data);
}

export function sha256Hex(data: string | Uint8Array): string {
  return bytesToHex(sha256Digest(data));
}

/** `sha256:` + lowercase hex of SHA-256 over the UTF-8 bytes of `text`. */
export function contentHash(text: string): string {
  return `sha256:${sha256Hex(text)}`;
}

/** `contentHash(parts.join(""))` without building the joined text. */
export function contentHashOfParts(parts: readonly string[]): string {
  return `sha256:${bytesToHex(current.ofParts(parts))}`;
}

/** Scratch space for `contentHashOfMeasuredParts`, kept between calls up to KEEP_BYTES. */
let scratch = new Uint8Array(0);
const KEEP_BYTES = 1 << 20;

/**
 * `contentHashOfParts`, and the UTF-8 length of each part: the parts are encoded once, one after
 * another into scratch space, and the bytes hashed, so a caller that also needs their byte counts
 * (the loader, for the analyzer's module source limit) does not encode them a second time. Pieces
 * never split a surrogate pair, so piecewise encoding equals whole (lone surrogates as U+FFFD).
 */
export function contentHashOfMeasuredParts(parts: readonly string[]): {
  readonly hash: string;
  readonly byteLengths: readonly number[];
} {
  let units = 0;
  for (const part of parts) units += part.length;
  // At most 3 bytes per UTF-16 unit (a pair is 4 bytes for 2 units).
  if (scratch.length < 3 * units) scratch = new Uint8Array(3 * units);
  const buffer = scratch;
  const byteLengths: number[] = [];
  let at = 0;
  for (const part of parts) {
    const written = encoder.encodeInto(part, at === 0 ? buffer : buffer.subarray(at)).written;
    byteLengths.push(written);
    at += written;
  }
  const hash = `sha256:${bytesToHex(current(buffer.subarray(0, at)))}`;
  if (scratch.length > KEEP_BYTES) scratch = new Uint8Array(0);
  return { hash, byteLengths };
}
