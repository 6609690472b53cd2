/**
 * The pack digest: the identity `yaoc check` reports for a pack.
 *
 * Only the three protocol files are hashed, because other files carry no protocol meaning (§2.1.3).
 * The hashed bytes are, with no separators other than those shown:
 *
 *     "hcp-pack-digest/1\n"
 *     then for each of HARNESS.md, policy.json, surface.json (this order: bytewise sorted names):
 *       <name as UTF-8> "\n" <byte length in ASCII decimal> "\n" <the file's raw bytes>
 *
 * Raw bytes, not re-serialised JSON: the digest identifies exactly what the runtime will read, and
 * the length prefix makes the framing unambiguous. A change to this layout must bump the tag.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";

export const DIGEST_TAG = "hcp-pack-digest/1\n";
export const DIGEST_ORDER = ["HARNESS.md", "policy.json", "surface.json"] as const;

export function packDigest(files: ReadonlyMap<string, Uint8Array>): string | null {
  const encoder = new TextEncoder();
  const h = sha256.create();
  h.update(encoder.encode(DIGEST_TAG));
  for (const name of DIGEST_ORDER) {
    const bytes = files.get(name);
    if (bytes === undefined) return null;
    h.update(encoder.encode(`${name}\n${bytes.length}\n`));
    h.update(bytes);
  }
  return `sha256:${bytesToHex(h.digest())}`;
}
