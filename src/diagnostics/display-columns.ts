/**
 * Display columns: where a position appears on a terminal or in an editor with a monospace font.
 * Diagnostic spans count columns in Unicode scalars (as the Yao reference does); machine output
 * (`--format json|github`) reports display columns instead, so a column lines up with what the user
 * sees: a CJK character or an emoji is two columns, a combining mark is none, a tab is one.
 *
 * Width comes from `string-width` (Unicode East Asian Width and emoji presentation, grapheme aware).
 * Each source is split into lines once and each line touched is measured once, so converting every
 * diagnostic of a file stays linear in the file plus the diagnostics.
 */
import stringWidth from "string-width";
import type { Position } from "./diagnostic.js";

export class DisplayColumns {
  private lineStarts: number[] | undefined;
  /** Per line touched: the display column before each scalar index (one pass over the line). */
  private readonly lineColumns = new Map<number, Uint32Array>();

  constructor(private readonly text: string) {}

  /** The one-based display column of a position (line and scalar column as in a `Span`). */
  column(position: Pick<Position, "line" | "column">): number {
    const columns = this.columnsOfLine(position.line);
    if (columns === undefined) return position.column;
    const before = Math.max(0, position.column - 1);
    const inLine = Math.min(before, columns.length - 1);
    return columns[inLine]! + (before - inLine) + 1;
  }

  private columnsOfLine(line: number): Uint32Array | undefined {
    const cached = this.lineColumns.get(line);
    if (cached !== undefined) return cached;
    const text = this.lineText(line);
    if (text === undefined) return undefined;
    // columns[i] = display width of the first i scalars; a grapheme's width is counted at its first
    // scalar and the scalars inside it add nothing (a ZWJ emoji sequence is one 2-column picture).
    const scalars = Array.from(text).length;
    const columns = new Uint32Array(scalars + 1);
    let scalarIndex = 0;
    let width = 0;
    for (const { segment } of GRAPHEMES.segment(text)) {
      const n = Array.from(segment).length;
      // Tabs and other controls are one column each (editors count a tab as one character).
      const w = /^[\u0000-\u001f\u007f]$/.test(segment) ? 1 : stringWidth(segment);
      for (let k = 0; k < n; k++) columns[scalarIndex + k] = width;
      scalarIndex += n;
      width += w;
      columns[scalarIndex] = width;
    }
    this.lineColumns.set(line, columns);
    return columns;
  }

  private lineText(line: number): string | undefined {
    if (this.lineStarts === undefined) {
      const starts = [0];
      for (let i = this.text.indexOf("\n"); i >= 0; i = this.text.indexOf("\n", i + 1)) starts.push(i + 1);
      this.lineStarts = starts;
    }
    const start = this.lineStarts[line - 1];
    if (start === undefined) return undefined;
    const next = this.lineStarts[line];
    return this.text.slice(start, next === undefined ? this.text.length : next - 1).replace(/\r$/, "");
  }
}

const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Display-column converters per file, built on first use from a result's source texts. */
export class DisplayColumnCache {
  private readonly byFile = new Map<string, DisplayColumns>();

  constructor(private readonly sources: ReadonlyMap<string, string> | undefined) {}

  /** The display column of `position` in `file`, or its scalar column when the text is unknown. */
  column(file: string | undefined, position: Pick<Position, "line" | "column">): number {
    if (file === undefined) return position.column;
    let columns = this.byFile.get(file);
    if (columns === undefined) {
      const text = this.sources?.get(file);
      if (text === undefined) return position.column;
      columns = new DisplayColumns(text);
      this.byFile.set(file, columns);
    }
    return columns.column(position);
  }
}
