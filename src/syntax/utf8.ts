/** UTF-8 helpers shared by the reader and the loaders. */

const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export type DecodeResult = { ok: true; text: string } | { ok: false; byteOffset: number };

/**
 * A platform's own strict decoder of large inputs: the text, or `undefined` when `bytes` are not
 * well-formed UTF-8 (the portable path then finds and reports the first bad byte).
 */
export type Utf8Decoder = (bytes: Uint8Array) => string | undefined;

/** The portable transcoder below, the default everywhere; Node installs its own (node-decoder.ts). */
let largeDecoder: Utf8Decoder = transcode;

/** Decode inputs of TRANSCODE_FROM bytes or more with `decoder` (it must decode strictly, keeping a BOM). */
export function useUtf8Decoder(decoder: Utf8Decoder): void {
  largeDecoder = decoder;
}

/** Decode strictly; on failure report the offset of the first byte that is not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): DecodeResult {
  const text = bytes.length >= TRANSCODE_FROM ? largeDecoder(bytes) : undefined;
  if (text !== undefined) return { ok: true, text };
  try {
    return { ok: true, text: strictDecoder.decode(bytes) };
  } catch {
    return { ok: false, byteOffset: firstInvalidUtf8Offset(bytes) };
  }
}

/**
 * Below this many bytes the platform decoder is used as it is (a call into it costs little there).
 * Above it, `transcode` first: V8's UTF-8 decoder walks non-ASCII text byte by byte twice (once to
 * size the string, once to fill it), and on a 251 KiB package with CJK prose that was a fifth of a
 * warm check (issue 29, figure n); this loop and the UTF-16 decoder's copy cost about half as much.
 */
const TRANSCODE_FROM = 4096;
/** Grown to the largest input seen, dropped past KEEP_UNITS so one huge input does not pin memory. */
let units = new Uint16Array(0);
const KEEP_UNITS = 1 << 19;
// A Uint16Array holds platform-order units; the UTF-16LE decoder reads them only on little-endian
// hosts (every platform Node and the browsers run on today; a big-endian one takes the other path).
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
const utf16Decoder = LITTLE_ENDIAN ? new TextDecoder("utf-16le", { ignoreBOM: true }) : undefined;

/**
 * The text of `b` when every sequence in it is well formed, by the same table as `utf8SequenceAt`
 * (lead C2–F4, the E0/ED/F0/F4 second-byte ranges, continuation bytes 80–BF); `undefined` at the
 * first ill-formed or incomplete sequence, so that the platform's strict decoder and
 * `firstInvalidUtf8Offset` decide what to report exactly as before. A byte order mark is kept as
 * U+FEFF, as the strict decoder with `ignoreBOM` keeps it.
 */
export function transcode(b: Uint8Array): string | undefined {
  if (utf16Decoder === undefined) return undefined;
  const n = b.length;
  if (units.length < n) units = new Uint16Array(n);
  const out = units;
  let i = 0;
  let j = 0;
  while (i < n) {
    const c = b[i]!;
    if (c < 0x80) {
      out[j++] = c;
      i++;
    } else if (c >= 0xe0 && c <= 0xef) {
      // Three bytes (CJK and most other scripts): the common non-ASCII case first.
      if (i + 2 >= n) return undefined;
      const d = b[i + 1]!;
      const e = b[i + 2]!;
      if (d < (c === 0xe0 ? 0xa0 : 0x80) || d > (c === 0xed ? 0x9f : 0xbf) || (e & 0xc0) !== 0x80) return undefined;
      out[j++] = ((c & 0x0f) << 12) | ((d & 0x3f) << 6) | (e & 0x3f);
      i += 3;
    } else if (c >= 0xc2 && c <= 0xdf) {
      if (i + 1 >= n) return undefined;
      const d = b[i + 1]!;
      if ((d & 0xc0) !== 0x80) return undefined;
      out[j++] = ((c & 0x1f) << 6) | (d & 0x3f);
      i += 2;
    } else if (c >= 0xf0 && c <= 0xf4) {
      if (i + 3 >= n) return undefined;
      const d = b[i + 1]!;
      const e = b[i + 2]!;
      const f = b[i + 3]!;
      if (
        d < (c === 0xf0 ? 0x90 : 0x80) ||
        d > (c === 0xf4 ? 0x8f : 0xbf) ||
        (e & 0xc0) !== 0x80 ||
        (f & 0xc0) !== 0x80
      )
        return undefined;
      const cp = (((c & 0x07) << 18) | ((d & 0x3f) << 12) | ((e & 0x3f) << 6) | (f & 0x3f)) - 0x10000;
      out[j++] = 0xd800 | (cp >> 10);
      out[j++] = 0xdc00 | (cp & 0x3ff);
      i += 4;
    } else return undefined;
  }
  const text = utf16Decoder.decode(out.subarray(0, j));
  if (out.length > KEEP_UNITS) units = new Uint16Array(0);
  return text;
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
const utf8Encoder = new TextEncoder();
/** Scratch space for `utf8Length`, grown to the longest text measured and dropped past KEEP_BYTES. */
let scratch = new Uint8Array(0);
const KEEP_BYTES = 1 << 20;

/** UTF-8 length of a JS string (lone surrogates count as U+FFFD, 3 bytes). */
export function utf8Length(s: string): number {
  // The ASCII prefix is found by the regex engine, several times faster than a charCodeAt loop;
  // canonical texts are mostly ASCII, and the module limit measures every one of them.
  const first = s.search(NON_ASCII);
  if (first < 0) return s.length;
  // The rest is encoded into scratch space by the platform's encoder, which counts about four
  // times as fast as a loop over the units here on CJK text (a 256 KiB package's module limit
  // measured all of it that way; issue 29, figure n). It writes U+FFFD for a lone surrogate, as
  // this count has always counted it, and never more than 3 bytes per unit.
  const rest = s.length - first;
  if (scratch.length < 3 * rest) scratch = new Uint8Array(3 * rest);
  const written = utf8Encoder.encodeInto(first === 0 ? s : s.slice(first), scratch).written;
  if (scratch.length > KEEP_BYTES) scratch = new Uint8Array(0);
  return first + written;
}
