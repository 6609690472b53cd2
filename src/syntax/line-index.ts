/**
 * Reference positions (UTF-8 byte offset, one-based line, one-based column in Unicode scalars; only
 * LF starts a line) of UTF-16 offsets into one text, computed on demand. The reader keeps offsets
 * only; this index is built once per text, on the first position asked for, in one pass.
 *
 * A lookup finds the line by binary search and the byte and scalar counts from the block of
 * 256 units the offset falls in: arithmetic when the block is all ASCII, otherwise a walk of at
 * most 256 units. So every lookup is bounded, whatever the order of lookups and however long
 * the line (a minified one-line source costs the same per lookup as a formatted one).
 *
 * Per unit, a surrogate pair's high unit counts 4 bytes and one scalar and its low unit nothing; a
 * lone surrogate counts as U+FFFD (3 bytes, one scalar). These are per-unit quantities, so prefix
 * sums are exact at any offset, including a block boundary that falls inside a pair.
 */
import type { Position } from "../../ir/span.js";

const BLOCK_BITS = 8;

export class LineIndex {
  /** UTF-16 offset at which each line starts (line k + 1 starts at lineStart[k]). */
  private readonly lineStart: number[] = [0];
  /** Scalars before each line's start. */
  private readonly lineScalars: number[] = [0];
  /** UTF-8 bytes before each block's first unit. */
  private readonly blockBytes: Float64Array;
  /** Scalars before each block's first unit. */
  private readonly blockScalars: Float64Array;
  /** 1 when every unit of the block is ASCII. */
  private readonly blockAscii: Uint8Array;
  /** The line of the previous lookup: lookups mostly come in text order, near each other. */
  private lastLine = 0;

  constructor(private readonly text: string) {
    const n = text.length;
    const blocks = (n >> BLOCK_BITS) + 1;
    this.blockBytes = new Float64Array(blocks);
    this.blockScalars = new Float64Array(blocks);
    this.blockAscii = new Uint8Array(blocks);
    let bytes = 0;
    let scalars = 0;
    for (let b = 0; b < blocks; b++) {
      this.blockBytes[b] = bytes;
      this.blockScalars[b] = scalars;
      const end = Math.min(n, (b + 1) << BLOCK_BITS);
      let ascii = 1;
      for (let i = b << BLOCK_BITS; i < end; i++) {
        const c = text.charCodeAt(i);
        if (c < 0x80) {
          bytes++;
          scalars++;
          if (c === 0x0a) {
            this.lineStart.push(i + 1);
            this.lineScalars.push(scalars);
          }
        } else {
          ascii = 0;
          bytes += unitBytes(text, i, c);
          if (!isPairLow(text, i, c)) scalars++;
        }
      }
      this.blockAscii[b] = ascii;
    }
  }

  /** The position of UTF-16 offset `offset` (clamped to the text). */
  position(offset: number): Position {
    const at = Math.max(0, Math.min(offset, this.text.length));
    const line = this.lineOf(at);
    const b = at >> BLOCK_BITS;
    const base = b << BLOCK_BITS;
    let bytes = this.blockBytes[b]!;
    let scalars = this.blockScalars[b]!;
    if (this.blockAscii[b] === 1) {
      bytes += at - base;
      scalars += at - base;
    } else {
      const t = this.text;
      for (let i = base; i < at; i++) {
        const c = t.charCodeAt(i);
        if (c < 0x80) {
          bytes++;
          scalars++;
        } else {
          bytes += unitBytes(t, i, c);
          if (!isPairLow(t, i, c)) scalars++;
        }
      }
    }
    return { byte: bytes, line: line + 1, column: scalars - this.lineScalars[line]! + 1 };
  }

  /** Zero-based line of `at`: the last line starting at or before it. */
  private lineOf(at: number): number {
    const starts = this.lineStart;
    let l = this.lastLine;
    // The previous line or the one after it answers most lookups of a tree walked in order.
    if (starts[l]! <= at && (l + 1 >= starts.length || starts[l + 1]! > at)) return l;
    l++;
    if (l < starts.length && starts[l]! <= at && (l + 1 >= starts.length || starts[l + 1]! > at)) {
      this.lastLine = l;
      return l;
    }
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    this.lastLine = lo;
    return lo;
  }
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** The low unit of a valid surrogate pair (counted with its high unit). */
function isPairLow(t: string, i: number, c: number): boolean {
  return isLow(c) && i > 0 && isHigh(t.charCodeAt(i - 1));
}

/** UTF-8 bytes of the non-ASCII unit `c` at `i` (see the file comment for surrogates). */
function unitBytes(t: string, i: number, c: number): number {
  if (c < 0x800) return 2;
  if (isHigh(c)) return i + 1 < t.length && isLow(t.charCodeAt(i + 1)) ? 4 : 3;
  if (isLow(c)) return i > 0 && isHigh(t.charCodeAt(i - 1)) ? 0 : 3;
  return 3;
}
