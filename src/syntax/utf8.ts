/** UTF-8 helpers shared by the reader and the loaders. */

const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export type DecodeResult = { ok: true; text: string } | { ok: false; byteOffset: number };

/** Decode strictly; on failure report the offset of the first byte that is not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): DecodeResult {
  try {
    return { ok: true, text: strictDecoder.decode(bytes) };
  } catch {
    return { ok: false, byteOffset: firstInvalidUtf8Offset(bytes) };
  }
}

/** Offset of the first ill-formed sequence (per the Unicode standard's well-formed table), or -1. */
export function firstInvalidUtf8Offset(b: Uint8Array): number {
  let i = 0;
  const n = b.length;
  while (i < n) {
    // ASCII is checked inline: it is most of every text, and the call would dominate it.
    if (b[i]! < 0x80) {
      i++;
      continue;
    }
    const length = utf8SequenceAt(b, i);
    if (length <= 0) return i;
    i += length;
  }
  return -1;
}

/**
 * The sequence starting at byte `i` (`i` < `b.length`), judged by the Unicode standard's table of
 * well-formed UTF-8 byte sequences (the one copy of that table in the tree):
 * - a positive number: the sequence is well formed and this many bytes long;
 * - 0: the input ends inside the sequence (incomplete);
 * - `-n`: the sequence is ill formed and its first `n` bytes are the invalid part (Rust's
 *   `Utf8Error::error_len`): 1 for a byte that cannot start a sequence, k for a lead byte followed
 *   by k-1 good continuation bytes and then a byte out of range.
 * A number rather than an object so the scan of a long non-ASCII text allocates nothing.
 */
export function utf8SequenceAt(b: Uint8Array, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  let need: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (c >= 0xc2 && c <= 0xdf) need = 1;
  else if (c >= 0xe0 && c <= 0xef) {
    need = 2;
    if (c === 0xe0) lo = 0xa0;
    if (c === 0xed) hi = 0x9f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    need = 3;
    if (c === 0xf0) lo = 0x90;
    if (c === 0xf4) hi = 0x8f;
  } else return -1;
  for (let k = 1; k <= need; k++) {
    const d = b[i + k];
    if (d === undefined) return 0;
    if (d < (k === 1 ? lo : 0x80) || d > (k === 1 ? hi : 0xbf)) return -k;
  }
  return need + 1;
}

const NON_ASCII = /[^\x00-\x7f]/;

/** UTF-8 length of a JS string without allocating (lone surrogates count as U+FFFD, 3 bytes). */
export function utf8Length(s: string): number {
  // The ASCII prefix is found by the regex engine, several times faster than a charCodeAt loop;
  // canonical texts are mostly ASCII, and the module limit measures every one of them.
  const first = s.search(NON_ASCII);
  if (first < 0) return s.length;
  let n = first;
  for (let i = first; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}
