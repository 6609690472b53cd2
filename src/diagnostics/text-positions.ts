/**
 * Turns UTF-16 indices of a decoded text into diagnostic positions (UTF-8 byte offset, one-based
 * line, one-based column in Unicode scalars). Shared by the frontends that work on offsets (HCP's
 * JSON, A3S's ACL).
 *
 * Line breaks: `"lf-cr"` (the default) breaks at LF, CRLF and a lone CR, as JSON text does;
 * `"lf"` breaks only at LF, as the A3S reference counts lines (a CR is then one column).
 *
 * A checkpoint is stored every CHECKPOINT_STRIDE code units in one linear pass, so each lookup walks
 * at most one stride: minified one-line JSON with many diagnostics stays linear instead of walking
 * from the start of a megabyte-long line every time.
 */
import type { Position, Span } from "./diagnostic.js";

export type LineBreaks = "lf-cr" | "lf";

const CHECKPOINT_STRIDE = 256;

interface Checkpoint {
  readonly index: number;
  readonly byte: number;
  readonly line: number;
  readonly column: number;
}

export class TextPositions {
  private readonly checkpoints: Checkpoint[] = [];

  constructor(
    private readonly text: string,
    private readonly lineBreaks: LineBreaks = "lf-cr",
  ) {
    this.checkpoints.push({ index: 0, byte: 0, line: 1, column: 1 });
    let at = this.checkpoints[0]!;
    while (at.index + CHECKPOINT_STRIDE < text.length) {
      // Walking to a stride boundary may end one unit past it (a surrogate pair); that is still a
      // scalar boundary, which is all a checkpoint needs.
      at = this.walk(at, at.index + CHECKPOINT_STRIDE);
      this.checkpoints.push(at);
    }
  }

  position(index: number): Position {
    const target = Math.max(0, Math.min(index, this.text.length));
    // Lookups in text order (a tree walked start, children, end) continue from the previous one
    // when it is nearer than the checkpoint, so they cost the distance between them.
    const checkpoint = this.checkpointBefore(target);
    const from = this.last.index <= target && this.last.index > checkpoint.index ? this.last : checkpoint;
    const end = this.walk(from, target);
    this.last = end;
    return { byte: end.byte, line: end.line, column: end.column };
  }

  private last: Checkpoint = { index: 0, byte: 0, line: 1, column: 1 };

  /** The span `[start, end)`; an end before the start is taken as the start (an empty span). */
  span(start: number, end: number): Span {
    return { start: this.position(start), end: this.position(Math.max(start, end)) };
  }

  private checkpointBefore(index: number): Checkpoint {
    let lo = 0;
    let hi = this.checkpoints.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.checkpoints[mid]!.index <= index) lo = mid;
      else hi = mid - 1;
    }
    return this.checkpoints[lo]!;
  }

  /** Step scalar by scalar from a known scalar boundary to `stop`. */
  private walk(from: Checkpoint, stop: number): Checkpoint {
    let { index: i, byte, line, column } = from;
    const t = this.text;
    while (i < stop) {
      const c = t.charCodeAt(i);
      if (c === 0x0a || (c === 0x0d && this.lineBreaks === "lf-cr" && t.charCodeAt(i + 1) !== 0x0a)) {
        line += 1;
        column = 1;
        byte += 1;
        i += 1;
        continue;
      }
      if (c === 0x0d) {
        // The \r of a \r\n pair belongs to the line it ends (and with "lf", every \r is a column).
        byte += 1;
        column += 1;
        i += 1;
        continue;
      }
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < t.length) {
        const d = t.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          byte += 4;
          column += 1;
          i += 2;
          continue;
        }
      }
      byte += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
      column += 1;
      i += 1;
    }
    return { index: i, byte, line, column };
  }
}
