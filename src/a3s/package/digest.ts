/**
 * The "expanded" digests of reference §3.5/§5.3: SHA-256 over a domain string, then for each file
 * in ascending UTF-8 byte order of its path: u64be(len(path)) ‖ path ‖ u64be(len(bytes)) ‖ bytes.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { byteCompare } from "../manifest/schema.js";

export const PACKAGE_DOMAIN = "a3s-use-expanded-package-v1\0";
export const OKF_DOMAIN = "a3s-use-okf-expanded-bundle-v1\0";

export interface DigestFile {
  readonly path: string;
  readonly bytes: Uint8Array;
}

function u64be(n: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(n));
  return out;
}

export function hex(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += b.toString(16).padStart(2, "0");
  return s;
}

export function expandedDigest(domain: string, files: readonly DigestFile[]): string {
  const enc = new TextEncoder();
  const h = sha256.create();
  h.update(enc.encode(domain));
  for (const f of [...files].sort((a, b) => byteCompare(a.path, b.path))) {
    const p = enc.encode(f.path);
    h.update(u64be(p.length));
    h.update(p);
    h.update(u64be(f.bytes.length));
    h.update(f.bytes);
  }
  return `sha256:${hex(h.digest())}`;
}

export function rawDigest(bytes: Uint8Array): string {
  return `sha256:${hex(sha256(bytes))}`;
}
