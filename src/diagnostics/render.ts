/**
 * Rendering check results in the human form: rustc-like, with code frames. The machine formats are
 * in src/output/format-json.ts, format-sarif.ts and format-github.ts; format.ts picks one.
 */
import type { Diagnostic, Span } from "./diagnostic.js";
import type { CheckResult } from "./result.js";
import { HUMAN_DIAGNOSTIC_LIMIT, renderHumanSummary } from "./summary.js";
import { DisplayColumnCache } from "./text-positions.js";

export {
  countSummary,
  emptySummary,
  HUMAN_DIAGNOSTIC_LIMIT,
  renderHumanSummary,
  renderHumanSummaryOf,
  type SummaryCounts,
} from "./summary.js";

export interface HumanOptions {
  readonly color: boolean;
}

const STYLE = {
  error: "\x1b[1;31m",
  warning: "\x1b[1;33m",
  info: "\x1b[1;36m",
  bold: "\x1b[1m",
  dim: "\x1b[2m",
  blue: "\x1b[1;34m",
  reset: "\x1b[0m",
} as const;

/**
 * Linear in the number of diagnostics and the size of the sources: each source's lines are split
 * once (SourceLines), and a code frame shows a bounded window of its line.
 */
export function renderHuman(results: readonly CheckResult[], options: HumanOptions): string {
  return results.map((r) => renderHumanResult(r, options)).join("") + renderHumanSummary(results);
}

/** One package's diagnostics and its verdict line (streamed by `check` as each package finishes). */
export function renderHumanResult(result: CheckResult, options: HumanOptions): string {
  const paint = (style: keyof typeof STYLE, text: string): string =>
    options.color ? `${STYLE[style]}${text}${STYLE.reset}` : text;
  const out: string[] = [];
  const lines = new SourceLines(result.sources);
  let shown = 0;
  for (const d of result.diagnostics) {
    if (shown++ >= HUMAN_DIAGNOSTIC_LIMIT) break;
    out.push(renderDiagnostic(d, lines, paint));
  }
  const hidden = result.diagnostics.length - HUMAN_DIAGNOSTIC_LIMIT;
  if (hidden > 0) {
    out.push(
      `${result.path}: ${hidden} more diagnostic${hidden === 1 ? "" : "s"} not shown (the first ${HUMAN_DIAGNOSTIC_LIMIT} are above; \`--format json\` lists all)`,
    );
  }
  const status = result.valid ? paint("bold", "ok") : paint("error", "invalid");
  const identity = result.identity ? ` ${result.identity}` : "";
  out.push(`${result.path}: ${status} (${result.kind})${identity}`);
  return `${out.join("\n")}\n`;
}

/**
 * The human form of diagnostics alone, without package verdict lines or the summary: for commands
 * whose own output is not a package check (catalog verify, golden verify, a3s model, …).
 */
export function renderHumanDiagnostics(results: readonly CheckResult[], options: HumanOptions): string {
  const paint = (style: keyof typeof STYLE, text: string): string =>
    options.color ? `${STYLE[style]}${text}${STYLE.reset}` : text;
  const out: string[] = [];
  for (const result of results) {
    const lines = new SourceLines(result.sources);
    for (const d of result.diagnostics) out.push(renderDiagnostic(d, lines, paint));
  }
  return out.length === 0 ? "" : `${out.join("\n")}\n`;
}

type Paint = (style: keyof typeof STYLE, text: string) => string;

const PLAIN: Paint = (_style, text) => text;

/**
 * One diagnostic in the human form, without colors: the header line, the code frame with the label
 * under the primary caret, a frame per secondary span, then notes and help. Deterministic; the
 * snapshot tests in test/snapshots/ pin it.
 */
export function renderDiagnosticText(d: Diagnostic, sources?: ReadonlyMap<string, string>): string {
  return renderDiagnostic(d, new SourceLines(sources), PLAIN);
}

/** Diagnostics alone, with code frames, for commands that report no package result (`yaoc fmt`). */
export function renderDiagnosticsHuman(
  diagnostics: readonly Diagnostic[],
  sources: ReadonlyMap<string, string>,
  options: HumanOptions,
): string {
  const paint: Paint = (style, text) => (options.color ? `${STYLE[style]}${text}${STYLE.reset}` : text);
  const lines = new SourceLines(sources);
  return diagnostics.map((d) => `${renderDiagnostic(d, lines, paint)}\n`).join("");
}

function renderDiagnostic(d: Diagnostic, sources: SourceLines, paint: Paint): string {
  const where =
    d.file === undefined ? "" : d.span ? `${d.file}:${d.span.start.line}:${d.span.start.column}: ` : `${d.file}: `;
  const lines = [`${where}${paint(d.severity, `${d.severity}[${d.code}]`)}: ${paint("bold", d.message)}`];
  // Secondary spans that can be shown in a frame; the others become notes.
  const framed: { file: string; span: Span; line: FrameLine; message: string }[] = [];
  const notes: string[] = [];
  for (const r of d.related ?? []) {
    const file = r.file ?? d.file;
    const line = file !== undefined && r.span ? sources.line(file, r.span.start.line) : undefined;
    if (r.span && file !== undefined && line !== undefined) {
      framed.push({ file, span: r.span, line, message: r.message });
    } else {
      const at = r.span ? `${file ?? ""}:${r.span.start.line}:${r.span.start.column}: ` : "";
      notes.push(`${at}${r.message}`);
    }
  }
  const primaryLine = d.span && d.file !== undefined ? sources.line(d.file, d.span.start.line) : undefined;
  let gutterWidth = primaryLine !== undefined ? String(d.span!.start.line).length : 1;
  for (const f of framed) gutterWidth = Math.max(gutterWidth, String(f.span.start.line).length);
  if (primaryLine !== undefined) {
    for (const l of codeFrame(primaryLine, d.span!, d.span!.start.line, gutterWidth, "^", d.label, d.severity, paint))
      lines.push(l);
  } else if (d.label !== undefined) {
    notes.unshift(d.label);
  }
  for (const f of framed) {
    const blank = " ".repeat(gutterWidth);
    const frame = codeFrame(f.line, f.span, f.span.start.line, gutterWidth, "-", f.message, "blue", paint);
    if (f.file === d.file && primaryLine !== undefined && f.span.start.line === d.span!.start.line) {
      // On the primary line: only its own marker line, under the line already shown.
      lines.push(frame[2]!);
      continue;
    }
    // A secondary span in another file names it; one elsewhere in the same file simply follows.
    if (f.file !== d.file)
      lines.push(`${blank}${paint("blue", "::: ")}${f.file}:${f.span.start.line}:${f.span.start.column}`);
    for (const l of frame) lines.push(l);
  }
  if (d.pointer !== undefined)
    lines.push(`  ${paint("blue", "=")} at JSON pointer ${d.pointer === "" ? '"" (the document root)' : d.pointer}`);
  for (const note of notes) lines.push(`  ${paint("blue", "=")} note: ${note}`);
  if (d.hint !== undefined) lines.push(`  ${paint("blue", "=")} help: ${d.hint}`);
  return lines.join("\n");
}

/** Scalars shown before the span start, and in all, when a line is too long to print whole. */
const FRAME_BEFORE = 60;
const FRAME_WIDTH = 160;

/**
 * The source line of a span's start with a marker run under the span (to the line's end if it
 * spans lines) and the label after it. Columns count Unicode scalars; padding and marker width are
 * the line's display columns from the one position module (text-positions.ts), the same columns
 * `--format json` reports, so the marks stay under wide characters (CJK, emoji sequences). Control
 * characters other than tab are shown as their Control Pictures symbol (U+2400 + code, one column
 * like the width rule counts them), so a raw ESC or CR in a source cannot drive the terminal. A
 * long line (minified JSON) is shown as a window around the span, marked with `…`, so a frame
 * costs O(160) once its line is measured.
 */
function codeFrame(
  line: FrameLine,
  span: Span,
  lineNumber: number,
  gutterWidth: number,
  marker: "^" | "-",
  label: string | undefined,
  style: keyof typeof STYLE,
  paint: Paint,
): string[] {
  const { scalars: all, columns } = line;
  const startCol = Math.min(span.start.column, all.length + 1);
  const endCol = span.end.line === span.start.line ? Math.max(span.end.column, startCol + 1) : all.length + 1;
  const from =
    all.length > FRAME_WIDTH ? Math.max(0, Math.min(startCol - 1 - FRAME_BEFORE, all.length - FRAME_WIDTH)) : 0;
  const to = Math.min(all.length, from + FRAME_WIDTH);
  const before = from > 0 ? "…" : "";
  const after = to < all.length ? "…" : "";
  let pad = before === "" ? "" : " ";
  // Tabs stay tabs, so the terminal's tab stops apply to both lines alike; every other grapheme
  // becomes as many spaces as it is wide (its width sits on its first scalar).
  for (let k = from; k < startCol - 1; k++) pad += all[k] === "\t" ? "\t" : " ".repeat(columns[k + 1]! - columns[k]!);
  const markEnd = Math.max(startCol - 1, Math.min(endCol - 1, to));
  const width = columns[markEnd]! - columns[startCol - 1]!;
  const marks = marker.repeat(Math.max(1, width));
  const gutter = String(lineNumber).padStart(gutterWidth);
  const blank = " ".repeat(gutterWidth);
  const tail = label === undefined || label === "" ? "" : ` ${label}`;
  let shown = "";
  for (let k = from; k < to; k++) shown += visible(all[k]!);
  return [
    `${blank} ${paint("blue", "|")}`,
    `${paint("blue", gutter)} ${paint("blue", "|")} ${before}${shown}${after}`,
    `${blank} ${paint("blue", "|")} ${pad}${paint(style, marks + tail)}`,
  ];
}

/** A scalar as the frame prints it: C0 controls but tab, and DEL, as their Control Pictures symbol. */
function visible(scalar: string): string {
  const c = scalar.charCodeAt(0);
  if (scalar.length === 1 && c !== 0x09 && c < 0x20) return String.fromCharCode(0x2400 + c);
  return c === 0x7f ? "\u2421" : scalar;
}

/** One source line as a frame shows it: its scalars (a CRLF's CR left out) and their display columns. */
interface FrameLine {
  readonly scalars: readonly string[];
  /** columns[i]: display width of the first i scalars (one more entry than scalars, at least). */
  readonly columns: Uint32Array;
}

/**
 * The lines of each source of one result from its one position index, each line converted on first
 * use, so a thousand diagnostics in one file cost one pass over it, not one pass each.
 */
class SourceLines {
  private readonly positions: DisplayColumnCache;
  private readonly lines = new Map<string, FrameLine>();

  constructor(sources: ReadonlyMap<string, string> | undefined) {
    this.positions = new DisplayColumnCache(sources);
  }

  /** The line's scalars and display columns (a line is converted once however many diagnostics point into it). */
  line(file: string, line: number): FrameLine | undefined {
    const key = `${line}\u0000${file}`;
    const cached = this.lines.get(key);
    if (cached !== undefined) return cached;
    const index = this.positions.positionsOf(file);
    const text = index?.lineText(line);
    const columns = index?.displayColumnsOfLine(line);
    if (text === undefined || columns === undefined) return undefined;
    const frame = { scalars: Array.from(text.endsWith("\r") ? text.slice(0, -1) : text), columns };
    this.lines.set(key, frame);
    return frame;
  }
}

// Machine formats live in src/output (format-json.ts, format-sarif.ts, format-github.ts), above
// src/diagnostics because they read reason codes and the code registry.
