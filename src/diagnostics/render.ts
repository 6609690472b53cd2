/**
 * Rendering check results: a rustc-like human form with code frames, and the one-document JSON form.
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

/**
 * The human form prints at most this many diagnostics per package, then one line saying how many
 * more there are (the JSON form keeps all): 120,000 diagnostics of one hostile file are no use to
 * a reader and would print tens of megabytes.
 */
export const HUMAN_DIAGNOSTIC_LIMIT = 1000;

/**
 * Linear in the number of diagnostics and the size of the sources: each source's lines are split
 * once (SourceLines), and a code frame shows a bounded window of its line.
 */
export function renderHuman(results: readonly CheckResult[], options: HumanOptions): string {
  const paint = (style: keyof typeof STYLE, text: string): string => (options.color ? `${STYLE[style]}${text}${STYLE.reset}` : text);
  const out: string[] = [];
  let errors = 0;
  let warnings = 0;
  for (const result of results) {
    const lines = new SourceLines(result.sources);
    let shown = 0;
    for (const d of result.diagnostics) {
      if (d.severity === "error") errors++;
      else if (d.severity === "warning") warnings++;
      if (shown++ < HUMAN_DIAGNOSTIC_LIMIT) out.push(renderDiagnostic(d, lines, paint));
    }
    const hidden = result.diagnostics.length - HUMAN_DIAGNOSTIC_LIMIT;
    if (hidden > 0) {
      out.push(`${result.path}: ${hidden} more diagnostic${hidden === 1 ? "" : "s"} not shown (the first ${HUMAN_DIAGNOSTIC_LIMIT} are above; \`--format json\` lists all)`);
    }
    const status = result.valid ? paint("bold", "ok") : paint("error", "invalid");
    const identity = result.identity ? ` ${result.identity}` : "";
    out.push(`${result.path}: ${status} (${result.kind})${identity}`);
  }
  const invalid = results.filter((r) => !r.valid).length;
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;
  out.push(
    `${plural(results.length, "package")} checked: ${results.length - invalid} valid, ${invalid} invalid; ${plural(errors, "error")}, ${plural(warnings, "warning")}`,
  );
  return `${out.join("\n")}\n`;
}

type Paint = (style: keyof typeof STYLE, text: string) => string;

function renderDiagnostic(d: Diagnostic, sources: SourceLines, paint: Paint): string {
  const where = d.file === undefined ? "" : d.span ? `${d.file}:${d.span.start.line}:${d.span.start.column}: ` : `${d.file}: `;
  const lines = [`${where}${paint(d.severity, `${d.severity}[${d.code}]`)}: ${paint("bold", d.message)}`];
  const lineChars = d.file !== undefined && d.span ? sources.line(d.file, d.span.start.line) : undefined;
  if (lineChars !== undefined) for (const l of codeFrame(lineChars, d, paint)) lines.push(l);
  if (d.pointer !== undefined) lines.push(`  ${paint("blue", "=")} at JSON pointer ${d.pointer === "" ? '"" (the document root)' : d.pointer}`);
  for (const r of d.related ?? []) {
    const at = r.span ? `${r.file ?? d.file ?? ""}:${r.span.start.line}:${r.span.start.column}: ` : "";
    lines.push(`  ${paint("blue", "=")} note: ${at}${r.message}`);
  }
  if (d.hint !== undefined) lines.push(`  ${paint("blue", "=")} help: ${d.hint}`);
  return lines.join("\n");
}

/** Scalars shown before the span start and in all, when a line is too long to print whole. */
const FRAME_BEFORE = 60;
const FRAME_WIDTH = 160;

/**
 * The source line of the span start with a caret run under the span (to the line's end if it spans
 * lines). A long line (minified JSON) is shown as a window around the span, marked with `…`.
 */
function codeFrame(lineChars: readonly string[], d: Diagnostic, paint: Paint): string[] {
  const span = d.span!;
  const chars = lineChars.length > 0 && lineChars[lineChars.length - 1] === "\r" ? lineChars.slice(0, -1) : lineChars;
  const startCol = Math.min(span.start.column, chars.length + 1);
  const endCol = span.end.line === span.start.line ? Math.max(span.end.column, startCol + 1) : chars.length + 1;
  const from = chars.length > FRAME_WIDTH ? Math.max(0, Math.min(startCol - 1 - FRAME_BEFORE, chars.length - FRAME_WIDTH)) : 0;
  const to = Math.min(chars.length, from + FRAME_WIDTH);
  const before = from > 0 ? "…" : "";
  const after = to < chars.length ? "…" : "";
  const pad =
    (before === "" ? "" : " ") +
    chars
      .slice(from, startCol - 1)
      .map((c) => (c === "\t" ? "\t" : " "))
      .join("");
  const carets = "^".repeat(Math.max(1, Math.min(endCol, to + 1) - startCol));
  const gutter = String(span.start.line);
  const blank = " ".repeat(gutter.length);
  return [
    `${blank} ${paint("blue", "|")}`,
    `${paint("blue", gutter)} ${paint("blue", "|")} ${before}${chars.slice(from, to).join("")}${after}`,
    `${blank} ${paint("blue", "|")} ${pad}${paint(d.severity, carets)}`,
  ];
}

/**
 * The lines of each source of one result, split on first use and kept as arrays of Unicode scalars
 * (columns count scalars), so a thousand diagnostics in one file cost one pass over it, not one
 * pass each.
 */
class SourceLines {
  private readonly split = new Map<string, string[]>();
  private readonly scalars = new Map<string, string[]>();

  constructor(private readonly sources: ReadonlyMap<string, string> | undefined) {}

  line(file: string, line: number): readonly string[] | undefined {
    const key = `${line}\u0000${file}`;
    const cached = this.scalars.get(key);
    if (cached !== undefined) return cached;
    let lines = this.split.get(file);
    if (lines === undefined) {
      const source = this.sources?.get(file);
      if (source === undefined) return undefined;
      lines = source.split("\n");
      this.split.set(file, lines);
    }
    const text = lines[line - 1];
    if (text === undefined) return undefined;
    const chars = Array.from(text);
    this.scalars.set(key, chars);
    return chars;
  }
}

/** The JSON document of `yaoc check --format json`. */
export function renderJson(results: readonly CheckResult[]): string {
  return `${JSON.stringify({ results: results.map(jsonResult) })}\n`;
}

export function jsonResult(r: CheckResult): Record<string, unknown> {
  return {
    path: r.path,
    kind: r.kind,
    valid: r.valid,
    identity: r.identity,
    ...r.extra,
    diagnostics: r.diagnostics.map(jsonDiagnostic),
  };
}

export function jsonDiagnostic(d: Diagnostic): Record<string, unknown> {
  const out: Record<string, unknown> = {
    code: d.code,
    severity: d.severity,
    message: d.message,
    file: d.file ?? null,
    line: d.span?.start.line ?? null,
    column: d.span?.start.column ?? null,
  };
  if (d.pointer !== undefined) out.pointer = d.pointer;
  if (d.hint !== undefined) out.hint = d.hint;
  return out;
}
