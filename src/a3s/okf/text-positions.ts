/**
 * Positions (byte, line, column) of UTF-16 indexes in one document, for OKF diagnostics. Queries
 * usually come in increasing order (links in document order), so a cursor walks forward from the
 * previous answer; a query behind it restarts from its line's start. Cost is linear in the text for
 * in-order queries, which keeps thousands of dangling links in a long one-line document cheap.
 */
import type { Position } from "../../diagnostics/diagnostic.js";

export class TextPositions {
  private readonly lineStarts: number[] = [0];
  private cursor = { index: 0, byte: 0, line: 1, column: 1 };

  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 0x0a) this.lineStarts.push(i + 1);
  }

  /** Index of the first character of 1-based line `line` (clamped to the text). */
  lineStart(line: number): number {
    const i = Math.min(Math.max(line, 1), this.lineStarts.length) - 1;
    return this.lineStarts[i]!;
  }

  at(index: number): Position {
    const target = Math.min(Math.max(index, 0), this.text.length);
    if (target < this.cursor.index) this.restartAtLineOf(target);
    let { index: i, byte, line, column } = this.cursor;
    while (i < target) {
      const c = this.text.charCodeAt(i);
      if (c === 0x0a) {
        line++;
        column = 1;
        byte++;
        i++;
        continue;
      }
      const pair =
        c >= 0xd800 && c <= 0xdbff && i + 1 < this.text.length && (this.text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      byte += c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
      i += pair ? 2 : 1;
      column++;
    }
    this.cursor = { index: i, byte, line, column };
    return { byte, line, column };
  }

  private restartAtLineOf(index: number): void {
    // Binary search for the line holding `index`; its byte offset is recomputed from the start
    // once (rare: only for out-of-order queries).
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    this.cursor = { index: 0, byte: 0, line: 1, column: 1 };
    const start = this.lineStarts[lo]!;
    this.at(start);
  }
}

/**
 * Rust's `Utf8Error` display, which the reference puts in "must be UTF-8: {error}":
 * `invalid utf-8 sequence of N bytes from index I` or `incomplete utf-8 byte sequence from index I`.
 */
export function rustUtf8ErrorText(b: Uint8Array, validUpTo: number): string {
  const c = b[validUpTo]!;
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
  } else return `invalid utf-8 sequence of 1 bytes from index ${validUpTo}`;
  for (let k = 1; k <= need; k++) {
    const d = b[validUpTo + k];
    if (d === undefined) return `incomplete utf-8 byte sequence from index ${validUpTo}`;
    if (d < (k === 1 ? lo : 0x80) || d > (k === 1 ? hi : 0xbf))
      return `invalid utf-8 sequence of ${k} bytes from index ${validUpTo}`;
  }
  return `invalid utf-8 sequence of 1 bytes from index ${validUpTo}`;
}
