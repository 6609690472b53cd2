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
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
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
    } else return i;
    for (let k = 1; k <= need; k++) {
      const d = b[i + k];
      if (d === undefined) return i;
      const min = k === 1 ? lo : 0x80;
      const max = k === 1 ? hi : 0xbf;
      if (d < min || d > max) return i;
    }
    i += need + 1;
  }
  return -1;
}

/** UTF-8 length of a JS string without allocating (lone surrogates count as U+FFFD, 3 bytes). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
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
