/**
 * Reader spans count UTF-8 bytes; JavaScript strings and editors index UTF-16 units. This maps one to
 * the other in one linear pass, for tools that slice source text by span (the formatter, the
 * language server).
 */

/** `map[b]` is the UTF-16 index of UTF-8 byte offset `b`, for every offset that starts a scalar (and the end). */
export function utf16IndexOfByte(text: string): Uint32Array {
  // At most 3 bytes per UTF-16 unit (a surrogate pair is 4 bytes for 2 units).
  const map = new Uint32Array(text.length * 3 + 1);
  let b = 0;
  for (let i = 0; i < text.length; i++) {
    map[b] = i;
    const c = text.charCodeAt(i);
    if (c < 0x80) b += 1;
    else if (c < 0x800) b += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) {
      b += 4;
      i++;
    } else b += 3;
  }
  map[b] = text.length;
  return map;
}

export function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
