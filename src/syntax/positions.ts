/** Positions computed from raw bytes, before any text exists. */
import type { Position } from "../diagnostics/diagnostic.js";

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
