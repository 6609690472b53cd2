/**
 * Directory entry names as the core sees them. File systems store names as bytes; most are UTF-8,
 * but nothing forces it. Decoding lossily (U+FFFD for every bad byte, as Node's default `readdir`
 * does) would give `\xff.sh` and `\xfe.sh` the same name, so two different trees could share an
 * identity. Instead every byte that is not part of a valid UTF-8 sequence becomes a lone low
 * surrogate U+DC80..U+DCFF ("surrogate escape"). Valid UTF-8 never decodes to a lone surrogate, so
 * the mapping is injective and reversible (`encodeName`), and `undecodableName` can tell every
 * frontend that a name has no UTF-8 spelling: such a package is invalid, never silently skipped.
 */

const ESCAPE_BASE = 0xdc00;

/** Decode raw name bytes; invalid bytes become U+DC80..U+DCFF, one per byte. */
export function decodeName(bytes: Uint8Array): string {
  let out = "";
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const len = sequenceLength(bytes, i);
    if (len === 0) {
      out += String.fromCharCode(ESCAPE_BASE + b);
      i++;
      continue;
    }
    let cp: number;
    if (len === 1) cp = b;
    else if (len === 2) cp = ((b & 0x1f) << 6) | (bytes[i + 1]! & 0x3f);
    else if (len === 3) cp = ((b & 0x0f) << 12) | ((bytes[i + 1]! & 0x3f) << 6) | (bytes[i + 2]! & 0x3f);
    else
      cp = ((b & 0x07) << 18) | ((bytes[i + 1]! & 0x3f) << 12) | ((bytes[i + 2]! & 0x3f) << 6) | (bytes[i + 3]! & 0x3f);
    out += String.fromCodePoint(cp);
    i += len;
  }
  return out;
}

/** Length of the valid UTF-8 sequence starting at `i`, or 0 when the byte there starts none. */
function sequenceLength(b: Uint8Array, i: number): number {
  const c = b[i]!;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => i + k < b.length && b[i + k]! >= lo && b[i + k]! <= hi;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if (c === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0; // no UTF-16 surrogates
  if (c >= 0xe1 && c <= 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (c === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xf1 && c <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

/** True when `name` holds an escaped byte (or any lone surrogate): it has no UTF-8 spelling. */
export function isUndecodableName(name: string): boolean {
  // With the `u` flag a surrogate range matches only unpaired surrogates.
  return /[\ud800-\udfff]/u.test(name);
}

/** The raw bytes a decoded name stands for (inverse of `decodeName`). */
export function encodeName(name: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 0xdc80 && c <= 0xdcff) {
      out.push(c - ESCAPE_BASE);
      continue;
    }
    const cp = name.codePointAt(i)!;
    if (cp > 0xffff) i++;
    if (cp < 0x80) out.push(cp);
    else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
    else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
    else out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
  }
  return Uint8Array.from(out);
}

/**
 * A printable spelling of a path that may hold escaped bytes: each escaped byte is written `\xNN`
 * (so diagnostics name the entry unambiguously).
 */
export function displayName(name: string): string {
  let out = "";
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 0xdc80 && c <= 0xdcff) out += `\\x${(c - ESCAPE_BASE).toString(16).padStart(2, "0")}`;
    else if (c >= 0xd800 && c <= 0xdfff && !(c <= 0xdbff && (name.charCodeAt(i + 1) & 0xfc00) === 0xdc00))
      out += `\\u${c.toString(16)}`;
    else out += name[i];
  }
  return out;
}

/** The message every frontend uses for an entry whose name is not valid UTF-8. */
export function undecodableNameMessage(relPath: string): string {
  return `the entry name '${displayName(relPath)}' is not valid UTF-8, so it cannot be represented in the package identity`;
}

export const UNDECODABLE_NAME_HINT =
  "rename the entry to valid UTF-8 (or remove it); yaoc never skips an entry it cannot name";
