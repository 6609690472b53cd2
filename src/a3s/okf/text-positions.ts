/**
 * Positions (byte, line, column) of UTF-16 indexes in one document, for OKF diagnostics. Queries
 * usually come in increasing order (links in document order), so a cursor walks forward from the
 * previous answer; a query behind it restarts from its line's start. Cost is linear in the text for
 * in-order queries, which keeps thousands of dangling links in a long one-line document cheap.
 */
import type { Position } from "../../diagnostics/diagnostic.js";
import { utf8SequenceAt } from "../../syntax/utf8.js";

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
  const at = utf8SequenceAt(b, validUpTo);
  if (at === 0) return `incomplete utf-8 byte sequence from index ${validUpTo}`;
  // A well-formed sequence here means the caller's offset is not an error: Rust's one-byte form.
  return `invalid utf-8 sequence of ${at < 0 ? -at : 1} bytes from index ${validUpTo}`;
}
