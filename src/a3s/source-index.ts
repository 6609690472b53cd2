/**
 * Offsets → diagnostic positions for one source text. Lines break at `\n` only (as in the
 * reference, whose line numbers advance only on `\n`); columns count Unicode scalars and `byte`
 * is the UTF-8 offset, as src/diagnostics/diagnostic.ts requires.
 */
import type { Position, Span } from "../diagnostics/diagnostic.js";

export class SourceIndex {
  /** UTF-16 offsets where each line starts. */
  private readonly lineStarts: number[] = [0];
  /** UTF-8 byte offset of each line start. */
  private readonly lineBytes: number[] = [0];

  constructor(readonly text: string) {
    let bytes = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      bytes += utf8Width(text, i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) i++;
      if (c === 0x0a) {
        this.lineStarts.push(i + 1);
        this.lineBytes.push(bytes);
      }
    }
  }

  position(offset: number): Position {
    const at = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    let byte = this.lineBytes[lo]!;
    let column = 1;
    for (let i = this.lineStarts[lo]!; i < at; i++) {
      byte += utf8Width(this.text, i);
      const c = this.text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < at) i++;
      column++;
    }
    return { byte, line: lo + 1, column };
  }

  span(start: number, end: number): Span {
    return { start: this.position(start), end: this.position(Math.max(start, end)) };
  }
}

function utf8Width(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0x80) return 1;
  if (c < 0x800) return 2;
  if (c >= 0xd800 && c <= 0xdbff) {
    const n = text.charCodeAt(i + 1);
    return n >= 0xdc00 && n <= 0xdfff ? 4 : 3;
  }
  return 3;
}
