/**
 * Rendering check results in the human form: rustc-like, with code frames. The machine formats are
 * in src/output/format-json.ts, format-sarif.ts and format-github.ts; format.ts picks one.
 */
import type { Diagnostic, Span } from "./diagnostic.js";
import { displayWidth, paddingFor } from "./display-width.js";
import type { CheckResult } from "./result.js";

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

export function renderHuman(results: readonly CheckResult[], options: HumanOptions): string {
  return results.map((r) => renderHumanResult(r, options)).join("") + renderHumanSummary(results);
}

/** One package's diagnostics and its verdict line (streamed by `check` as each package finishes). */
export function renderHumanResult(result: CheckResult, options: HumanOptions): string {
  const paint = (style: keyof typeof STYLE, text: string): string => (options.color ? `${STYLE[style]}${text}${STYLE.reset}` : text);
  const out: string[] = [];
  for (const d of result.diagnostics) out.push(renderDiagnostic(d, result.sources, paint));
  const status = result.valid ? paint("bold", "ok") : paint("error", "invalid");
  const identity = result.identity ? ` ${result.identity}` : "";
  out.push(`${result.path}: ${status} (${result.kind})${identity}`);
  return `${out.join("\n")}\n`;
}

/** The closing line: packages checked, valid and invalid, errors and warnings. */
export function renderHumanSummary(results: readonly CheckResult[]): string {
  let errors = 0;
  let warnings = 0;
  for (const result of results) {
    for (const d of result.diagnostics) {
      if (d.severity === "error") errors++;
      else if (d.severity === "warning") warnings++;
    }
  }
  const invalid = results.filter((r) => !r.valid).length;
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `${plural(results.length, "package")} checked: ${results.length - invalid} valid, ${invalid} invalid; ${plural(errors, "error")}, ${plural(warnings, "warning")}\n`;
}

/**
 * The human form of diagnostics alone, without package verdict lines or the summary: for commands
 * whose own output is not a package check (catalog verify, golden verify, a3s model, …).
 */
export function renderHumanDiagnostics(results: readonly CheckResult[], options: HumanOptions): string {
  const paint = (style: keyof typeof STYLE, text: string): string => (options.color ? `${STYLE[style]}${text}${STYLE.reset}` : text);
  const out: string[] = [];
  for (const result of results) for (const d of result.diagnostics) out.push(renderDiagnostic(d, result.sources, paint));
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
  return renderDiagnostic(d, sources, PLAIN);
}

function renderDiagnostic(d: Diagnostic, sources: ReadonlyMap<string, string> | undefined, paint: Paint): string {
  const where = d.file === undefined ? "" : d.span ? `${d.file}:${d.span.start.line}:${d.span.start.column}: ` : `${d.file}: `;
  const lines = [`${where}${paint(d.severity, `${d.severity}[${d.code}]`)}: ${paint("bold", d.message)}`];
  const source = d.file !== undefined ? sources?.get(d.file) : undefined;
  // Secondary spans that can be shown in a frame; the others become notes.
  const framed: { file: string; span: Span; source: string; message: string }[] = [];
  const notes: string[] = [];
  for (const r of d.related ?? []) {
    const file = r.file ?? d.file;
    const text = file !== undefined && r.span ? sources?.get(file) : undefined;
    if (r.span && file !== undefined && text !== undefined && nthLine(text, r.span.start.line) !== undefined) {
      framed.push({ file, span: r.span, source: text, message: r.message });
    } else {
      const at = r.span ? `${file ?? ""}:${r.span.start.line}:${r.span.start.column}: ` : "";
      notes.push(`${at}${r.message}`);
    }
  }
  const primaryLine = d.span && source !== undefined ? nthLine(source, d.span.start.line) : undefined;
  const gutterWidth = Math.max(
    primaryLine !== undefined ? String(d.span!.start.line).length : 1,
    ...framed.map((f) => String(f.span.start.line).length),
  );
  if (primaryLine !== undefined) {
    lines.push(...codeFrame(primaryLine, d.span!, d.span!.start.line, gutterWidth, "^", d.label, d.severity, paint));
  } else if (d.label !== undefined) {
    notes.unshift(d.label);
  }
  for (const f of framed) {
    const blank = " ".repeat(gutterWidth);
    const frame = codeFrame(nthLine(f.source, f.span.start.line)!, f.span, f.span.start.line, gutterWidth, "-", f.message, "blue", paint);
    if (f.file === d.file && primaryLine !== undefined && f.span.start.line === d.span!.start.line) {
      // On the primary line: only its own marker line, under the line already shown.
      lines.push(frame[2]!);
      continue;
    }
    // A secondary span in another file names it; one elsewhere in the same file simply follows.
    if (f.file !== d.file) lines.push(`${blank}${paint("blue", "::: ")}${f.file}:${f.span.start.line}:${f.span.start.column}`);
    lines.push(...frame);
  }
  if (d.pointer !== undefined) lines.push(`  ${paint("blue", "=")} at JSON pointer ${d.pointer === "" ? '"" (the document root)' : d.pointer}`);
  for (const note of notes) lines.push(`  ${paint("blue", "=")} note: ${note}`);
  if (d.hint !== undefined) lines.push(`  ${paint("blue", "=")} help: ${d.hint}`);
  return lines.join("\n");
}

/**
 * The source line of a span's start with a marker run under the span (to the line's end if it
 * spans lines) and the label after it. Columns count Unicode scalars; padding and marker width are
 * measured in display columns so the marks stay under wide characters (CJK, emoji).
 */
function codeFrame(
  lineText: string,
  span: Span,
  lineNumber: number,
  gutterWidth: number,
  marker: "^" | "-",
  label: string | undefined,
  style: keyof typeof STYLE,
  paint: Paint,
): string[] {
  const shown = lineText.replace(/\r$/, "");
  const chars = Array.from(shown);
  const startCol = Math.min(span.start.column, chars.length + 1);
  const endCol = span.end.line === span.start.line ? Math.max(span.end.column, startCol + 1) : chars.length + 1;
  const pad = paddingFor(chars.slice(0, startCol - 1).join(""));
  const width = displayWidth(chars.slice(startCol - 1, Math.min(endCol, chars.length + 1) - 1).join(""));
  const marks = marker.repeat(Math.max(1, width));
  const gutter = String(lineNumber).padStart(gutterWidth);
  const blank = " ".repeat(gutterWidth);
  const tail = label === undefined || label === "" ? "" : ` ${label}`;
  return [
    `${blank} ${paint("blue", "|")}`,
    `${paint("blue", gutter)} ${paint("blue", "|")} ${shown}`,
    `${blank} ${paint("blue", "|")} ${pad}${paint(style, marks + tail)}`,
  ];
}

function nthLine(source: string, line: number): string | undefined {
  let start = 0;
  for (let i = 1; i < line; i++) {
    const nl = source.indexOf("\n", start);
    if (nl < 0) return undefined;
    start = nl + 1;
  }
  const end = source.indexOf("\n", start);
  return source.slice(start, end < 0 ? source.length : end);
}

// Machine formats live in src/output (format-json.ts, format-sarif.ts, format-github.ts), above
// src/diagnostics because they read reason codes and the code registry.
