/**
 * Converts increasing UTF-16 offsets into reference positions in one linear pass:
 * byte = UTF-8 offset, line/column one-based, columns count Unicode scalars, only LF starts a line
 * (CR counts as a column, as in the reference).
 */
import type { Position } from "../diagnostics/diagnostic.js";

export class PositionCursor {
  private index = 0;
  private byte = 0;
  private line = 1;
  private column = 1;

  constructor(private readonly text: string) {}

  /** Position of UTF-16 offset `target`; targets must not decrease between calls. */
  at(target: number): Position {
    const text = this.text;
    let { index, byte, line, column } = this;
    while (index < target) {
      const c = text.charCodeAt(index);
      if (c === 0x0a) {
        line++;
        column = 1;
        byte++;
      } else if (c < 0x80) {
        column++;
        byte++;
      } else if (c < 0x800) {
        column++;
        byte += 2;
      } else if (c >= 0xd800 && c <= 0xdbff && index + 1 < text.length) {
        const d = text.charCodeAt(index + 1);
        column++;
        if (d >= 0xdc00 && d <= 0xdfff) {
          byte += 4;
          index++;
        } else byte += 3;
      } else {
        column++;
        byte += 3;
      }
      index++;
    }
    this.index = index;
    this.byte = byte;
    this.line = line;
    this.column = column;
    return { byte, line, column };
  }
}

/** Position of a byte offset in raw bytes (used before text exists, e.g. for invalid UTF-8). */
export function positionOfByte(bytes: Uint8Array, target: number): Position {
  let line = 1;
  let column = 1;
  for (let i = 0; i < target; i++) {
    const b = bytes[i]!;
    if (b === 0x0a) {
      line++;
      column = 1;
    } else if ((b & 0xc0) !== 0x80) column++;
  }
  return { byte: target, line, column };
}
