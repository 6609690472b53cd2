/**
 * The one text-position module (issue 33). Every frontend, the reader, the output formats, the code
 * frame and the language server compute positions here, from one line index per text:
 *
 * - UTF-16 offsets (what JavaScript strings, the JSON tree and editors index) are the input;
 * - a `Position` is the UTF-8 byte offset, the one-based line and the one-based column in Unicode
 *   scalars (code points), as the Yao reference reports them and SARIF counts them;
 * - display columns (where a position appears on a terminal or in an editor; JSON and GitHub
 *   output, the code frame's carets) come from the same line index, measured with the one width
 *   rule of display-width.ts;
 * - and back: the UTF-16 offset of a scalar position (the language server), the UTF-16 index of a
 *   byte offset (the formatter), and positions of a byte offset in bytes that are not text yet.
 *
 * Line breaks: `"lf-cr"` (the default) breaks at LF, CRLF and a lone CR, as JSON text does; `"lf"`
 * breaks only at LF, as Yao, HARP and the A3S reference count lines (a CR is then one column). The
 * CR of a CRLF is a column of the line it ends, in both modes.
 *
 * The index is built in one pass. A lookup finds the line by binary search (or by the previous
 * lookup's line, since lookups mostly come in text order) and the byte and scalar counts from the
 * block of 256 units the offset falls in: arithmetic when the block is all ASCII, otherwise a walk
 * of at most 256 units. So every lookup is bounded, whatever the order of lookups and however long
 * the line (minified one-line JSON with many diagnostics stays linear).
 *
 * Per unit, a surrogate pair's high unit counts 4 bytes and one scalar and its low unit nothing; a
 * lone surrogate counts as U+FFFD (3 bytes, one scalar). These are per-unit quantities, so prefix
 * sums are exact at any offset, including a block boundary that falls inside a pair.
 */
import type { Position, Span } from "./diagnostic.js";
import { measureLine } from "./display-width.js";

export type LineBreaks = "lf-cr" | "lf";

const BLOCK_BITS = 8;

export class TextPositions {
  /** UTF-16 offset at which each line starts (line k + 1 starts at lineStarts[k]). */
  private readonly lineStarts: number[] = [0];
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
  /** Display columns of the lines asked for, measured once each. */
  private readonly lineColumns = new Map<number, Uint32Array>();

  constructor(
    readonly text: string,
    readonly lineBreaks: LineBreaks = "lf-cr",
  ) {
    const n = text.length;
    const blocks = (n >> BLOCK_BITS) + 1;
    this.blockBytes = new Float64Array(blocks);
    this.blockScalars = new Float64Array(blocks);
    this.blockAscii = new Uint8Array(blocks);
    const cr = lineBreaks === "lf-cr";
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
          if (c === 0x0a || (cr && c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
            this.lineStarts.push(i + 1);
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

  /** How many lines the text has (an empty text, and a text ending in a break, end in an empty line). */
  get lineCount(): number {
    return this.lineStarts.length;
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

  /** The span `[start, end)` of UTF-16 offsets; an end before the start is taken as the start. */
  span(start: number, end: number): Span {
    return { start: this.position(start), end: this.position(Math.max(start, end)) };
  }

  /** UTF-16 offset of the first unit of one-based `line` (clamped to the lines there are). */
  lineStart(line: number): number {
    return this.lineStarts[Math.min(Math.max(line, 1), this.lineStarts.length) - 1]!;
  }

  /**
   * UTF-16 offset where one-based `line`'s text ends: before the LF or lone CR that ends it. The CR
   * of a CRLF is the line's last column (it is one in both modes), so it is part of the text.
   */
  lineEnd(line: number): number {
    const l = Math.min(Math.max(line, 1), this.lineStarts.length);
    return l === this.lineStarts.length ? this.text.length : this.lineStarts[l]! - 1;
  }

  /** The text of one-based `line` up to its LF or lone CR, or undefined when there is no such line. */
  lineText(line: number): string | undefined {
    if (line < 1 || line > this.lineStarts.length) return undefined;
    return this.text.slice(this.lineStart(line), this.lineEnd(line));
  }

  /**
   * The UTF-16 offset of a (line, scalar column) position, clamped to the line's text: the inverse
   * of `position` for the language server, which speaks UTF-16.
   */
  offsetOf(p: Pick<Position, "line" | "column">): number {
    const start = this.lineStart(p.line);
    const end = this.lineEnd(p.line);
    const t = this.text;
    let i = start;
    for (let col = 1; col < p.column && i < end; col++) {
      const c = t.charCodeAt(i);
      i += isHigh(c) && i + 1 < end && isLow(t.charCodeAt(i + 1)) ? 2 : 1;
    }
    return i;
  }

  /**
   * The one-based display column of a (line, scalar column) position. A column past the line's end
   * counts one per missing scalar; a line the text does not have keeps the scalar column.
   */
  displayColumn(p: Pick<Position, "line" | "column">): number {
    const columns = this.displayColumnsOfLine(p.line);
    if (columns === undefined) return p.column;
    const before = Math.max(0, p.column - 1);
    const inLine = Math.min(before, columns.length - 1);
    return columns[inLine]! + (before - inLine) + 1;
  }

  /** columns[i] = display width of the first i scalars of `line` (see `measureLine`), measured once. */
  displayColumnsOfLine(line: number): Uint32Array | undefined {
    const cached = this.lineColumns.get(line);
    if (cached !== undefined) return cached;
    const text = this.lineText(line);
    if (text === undefined) return undefined;
    const columns = measureLine(text);
    this.lineColumns.set(line, columns);
    return columns;
  }

  /** Zero-based line of `at`: the last line starting at or before it. */
  private lineOf(at: number): number {
    const starts = this.lineStarts;
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

/**
 * Display columns per file of one result, from the sources it carries, each file's index built on
 * first use. Lines break at LF only, as the code frame shows them.
 */
export class DisplayColumnCache {
  private readonly byFile = new Map<string, TextPositions>();

  constructor(private readonly sources: ReadonlyMap<string, string> | undefined) {}

  /** The display column of `position` in `file`, or its scalar column when the text is unknown. */
  column(file: string | undefined, position: Pick<Position, "line" | "column">): number {
    if (file === undefined) return position.column;
    const index = this.positionsOf(file);
    return index === undefined ? position.column : index.displayColumn(position);
  }

  /** The one index of `file`'s text, or undefined when the result does not carry it. */
  positionsOf(file: string): TextPositions | undefined {
    let index = this.byFile.get(file);
    if (index === undefined) {
      const text = this.sources?.get(file);
      if (text === undefined) return undefined;
      index = new TextPositions(text, "lf");
      this.byFile.set(file, index);
    }
    return index;
  }
}

/** Position of a byte offset in raw bytes, before any text exists (e.g. for invalid UTF-8); LF lines. */
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

/**
 * `map[b]` is the UTF-16 index of UTF-8 byte offset `b`, for every offset that starts a scalar (and
 * the end), in one linear pass: reader spans count bytes, and tools that slice source text by span
 * (the formatter, the language server) index UTF-16 units.
 */
export function utf16IndexOfByte(text: string): Uint32Array {
  // At most 3 bytes per UTF-16 unit (a surrogate pair is 4 bytes for 2 units).
  const map = new Uint32Array(text.length * 3 + 1);
  let b = 0;
  for (let i = 0; i < text.length; i++) {
    map[b] = i;
    const c = text.charCodeAt(i);
    if (c < 0x80) b += 1;
    else if (c < 0x800) b += 2;
    else if (isHigh(c) && i + 1 < text.length && isLow(text.charCodeAt(i + 1))) {
      b += 4;
      i++;
    } else b += 3;
  }
  map[b] = text.length;
  return map;
}

export function isLowSurrogate(c: number): boolean {
  return isLow(c);
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
