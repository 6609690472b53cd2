/**
 * Rendering check results in the human form: rustc-like, with code frames. The machine formats are
 * in src/output/format-json.ts, format-sarif.ts and format-github.ts; format.ts picks one.
 */
import type { Diagnostic } from "./diagnostic.js";
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

function renderDiagnostic(d: Diagnostic, sources: ReadonlyMap<string, string> | undefined, paint: Paint): string {
  const where = d.file === undefined ? "" : d.span ? `${d.file}:${d.span.start.line}:${d.span.start.column}: ` : `${d.file}: `;
  const lines = [`${where}${paint(d.severity, `${d.severity}[${d.code}]`)}: ${paint("bold", d.message)}`];
  const source = d.file !== undefined ? sources?.get(d.file) : undefined;
  if (d.span && source !== undefined) lines.push(...codeFrame(source, d, paint));
  if (d.pointer !== undefined) lines.push(`  ${paint("blue", "=")} at JSON pointer ${d.pointer === "" ? '"" (the document root)' : d.pointer}`);
  for (const r of d.related ?? []) {
    const at = r.span ? `${r.file ?? d.file ?? ""}:${r.span.start.line}:${r.span.start.column}: ` : "";
    lines.push(`  ${paint("blue", "=")} note: ${at}${r.message}`);
  }
  if (d.hint !== undefined) lines.push(`  ${paint("blue", "=")} help: ${d.hint}`);
  return lines.join("\n");
}

/** The source line of the span start with a caret run under the span (to the line's end if it spans lines). */
function codeFrame(source: string, d: Diagnostic, paint: Paint): string[] {
  const span = d.span!;
  const lineText = nthLine(source, span.start.line);
  if (lineText === undefined) return [];
  const chars = Array.from(lineText);
  const startCol = Math.min(span.start.column, chars.length + 1);
  const endCol = span.end.line === span.start.line ? Math.max(span.end.column, startCol + 1) : chars.length + 1;
  const pad = chars
    .slice(0, startCol - 1)
    .map((c) => (c === "\t" ? "\t" : " "))
    .join("");
  const carets = "^".repeat(Math.max(1, Math.min(endCol, chars.length + 1) - startCol));
  const gutter = String(span.start.line);
  const blank = " ".repeat(gutter.length);
  return [
    `${blank} ${paint("blue", "|")}`,
    `${paint("blue", gutter)} ${paint("blue", "|")} ${lineText.replace(/\r$/, "")}`,
    `${blank} ${paint("blue", "|")} ${pad}${paint(d.severity, carets)}`,
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
