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
    const columns = measureLine(text);
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

/**
 * columns[i] = display width of the first i scalars of `text`; a grapheme's width is counted at its
 * first scalar and the scalars inside it add nothing (a ZWJ emoji sequence is one 2-column picture).
 *
 * Linear in the line. V8's Intl.Segmenter costs time proportional to the string's length for every
 * segment it yields, so segmenting a whole 250 KB line took minutes (one-line JSON with 125,000
 * diagnostics). Two ASCII code units in a row are therefore measured directly (no grapheme rule
 * joins two ASCII characters, and each is one column: printable ones by East Asian Width, controls
 * by our rule), and only the stretches around non-ASCII text go to the segmenter, in short windows.
 */
export function measureLine(text: string): Uint32Array {
  const columns = new Uint32Array(scalarCount(text) + 1);
  let scalar = 0;
  let width = 0;
  const add = (scalars: number, w: number): void => {
    for (let k = 0; k < scalars; k++) columns[scalar + k] = width;
    scalar += scalars;
    width += w;
    columns[scalar] = width;
  };
  let i = 0;
  while (i < text.length) {
    if (isAsciiAt(text, i) && (i + 1 === text.length || isAsciiAt(text, i + 1))) {
      add(1, 1);
      i += 1;
      continue;
    }
    // A stretch that needs the Unicode rules ends where two ASCII code units meet: always a grapheme
    // boundary (one ASCII unit is not enough: a Prepend character joins the character after it).
    let end = i + 1;
    while (end < text.length && !(isAsciiAt(text, end - 1) && isAsciiAt(text, end))) end++;
    for (const segment of graphemesOf(text.slice(i, end))) add(scalarCount(segment), graphemeWidth(segment));
    i = end;
  }
  return columns;
}

/** Graphemes of `text` from the segmenter, in windows so each call sees a short string. */
function* graphemesOf(text: string): Generator<string> {
  let start = 0;
  let window = SEGMENT_WINDOW;
  while (start < text.length) {
    let end = Math.min(text.length, start + window);
    if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end++;
    const segments = Array.from(GRAPHEMES.segment(text.slice(start, end)), (s) => s.segment);
    if (end === text.length) {
      yield* segments;
      return;
    }
    // The window's last grapheme may continue past the cut: keep it for the next window. A window
    // that is one grapheme (a base with thousands of combining marks) doubles until it ends; a
    // single long grapheme is cheap for the segmenter, so this stays linear.
    if (segments.length <= 1) {
      window *= 2;
      continue;
    }
    for (let k = 0; k < segments.length - 1; k++) {
      yield segments[k]!;
      start += segments[k]!.length;
    }
    window = SEGMENT_WINDOW;
  }
}

function graphemeWidth(segment: string): number {
  // Tabs and other controls are one column each (editors count a tab as one character).
  return /^[\u0000-\u001f\u007f]$/.test(segment) ? 1 : stringWidth(segment);
}

function isAsciiAt(text: string, i: number): boolean {
  return text.charCodeAt(i) < 0x80;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

function scalarCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++)
    if (!isLowSurrogate(text.charCodeAt(i)) || i === 0 || !isHighSurrogate(text.charCodeAt(i - 1))) n++;
  return n;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

const SEGMENT_WINDOW = 256;
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
