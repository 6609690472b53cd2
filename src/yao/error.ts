/**
 * The analyzer is fail-fast like the reference: the first violation, in the reference's detection
 * order, is the one reported. Internally a violation is thrown as a YaoError and turned into a
 * Diagnostic at the API boundary.
 */
import { START_OF_FILE, type Diagnostic, type Span } from "../diagnostics/diagnostic.js";
import { diagnostic, type YaoAnalyzerCode } from "./codes.js";
import type { SourceSpan } from "../syntax/tree.js";

/**
 * The reference codes (yao-v0.1.md §1.6) the analyzer reports, plus our strict additions: the rows of
 * YAO_ANALYZER_CODES without their `yao.` prefix, so the table is the only list.
 */
export type YaoCode = YaoAnalyzerCode extends `yao.${infer Code}` ? Code : never;

export class YaoError extends Error {
  /** Innermost HNS function the violation arose in (reference `Diagnostic.function`). */
  function: string | undefined;

  constructor(
    readonly code: YaoCode,
    message: string,
    readonly span: SourceSpan | undefined,
    readonly related: readonly SourceSpan[] = [],
    readonly hint?: string,
  ) {
    super(message);
    this.name = "YaoError";
  }
}

export function fail(code: YaoCode, message: string, span: SourceSpan | undefined, hint?: string): never {
  throw new YaoError(code, message, span, [], hint);
}

/** Spans in diagnostics and IR carry no file; the file travels on the diagnostic. */
export function plainSpan(s: Span): Span {
  return { start: s.start, end: s.end };
}

export function emptySpanIn(file: string): SourceSpan {
  return { file, start: START_OF_FILE.start, end: START_OF_FILE.end };
}

export function toDiagnostic(e: YaoError, fallbackFile?: string): Diagnostic {
  const file = e.span?.file ?? fallbackFile;
  const hint = e.hint ?? (e.function !== undefined ? `the violation is inside HNS function '${e.function}'` : undefined);
  return diagnostic(`yao.${e.code}`, e.message, {
    file,
    span: e.span === undefined ? START_OF_FILE : plainSpan(e.span),
    hint,
    function: e.function,
    related: e.related.map((s) => ({ file: s.file, span: plainSpan(s), message: "related location" })),
  });
}
