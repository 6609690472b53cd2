/**
 * Violations. A violation is thrown as a YaoError in the reference's detection order; inside a
 * body the analyzer records it at the nearest operand and goes on (ExpressionAnalyzer.operand,
 * issue 34 item 4), or with `recover: false` stops at the first, like the reference. Across independent units
 * (each function's declaration and body, the type table, the module tool bound, the entry) an
 * ErrorSink records the error and analysis goes on with a recovery value, so one run reports every
 * independent problem. The first error recorded is the one the reference would report.
 */
import { START_OF_FILE, type Diagnostic, type Span } from "../diagnostics/diagnostic.js";
import { Collector, DIAGNOSTIC_LIMIT } from "../diagnostics/collector.js";
import { diagnostic, type YaoAnalyzerCode } from "./codes.js";
import type { SourceSpan } from "../syntax/tree.js";
import type { Worded } from "./message.js";

/**
 * The reference codes (yao-v0.1.md §1.6) the analyzer reports, plus our strict additions: the rows of
 * YAO_ANALYZER_CODES without their `yao.` prefix, so the table is the only list.
 */
export type YaoCode = YaoAnalyzerCode extends `yao.${infer Code}` ? Code : never;

/** A secondary span with its own label (the declaration an expectation comes from, a first duplicate). */
export interface RelatedSpan {
  readonly span: SourceSpan;
  readonly message: string;
}

export interface Teaching {
  /** Text under the primary caret: what was expected, what was found. */
  readonly label?: string | undefined;
  /** What to change. */
  readonly hint?: string | undefined;
  readonly related?: readonly RelatedSpan[] | undefined;
}

export class YaoError extends Error {
  /** Innermost HNS function the violation arose in (reference `Diagnostic.function`). */
  function: string | undefined;
  label: string | undefined;
  hint: string | undefined;
  related: readonly RelatedSpan[];
  /** The reference's exact wording, when `message` (Yao notation) says it differently. */
  referenceMessage: string | undefined;

  constructor(
    readonly code: YaoCode,
    message: string | Worded,
    readonly span: SourceSpan | undefined,
    teaching: Teaching = {},
  ) {
    super(typeof message === "string" ? message : message.text);
    this.name = "YaoError";
    if (typeof message !== "string" && message.reference !== message.text) this.referenceMessage = message.reference;
    this.label = teaching.label;
    this.hint = teaching.hint;
    this.related = teaching.related ?? [];
  }
}

export function fail(
  code: YaoCode,
  message: string | Worded,
  span: SourceSpan | undefined,
  teaching?: Teaching | string,
): never {
  throw new YaoError(code, message, span, typeof teaching === "string" ? { hint: teaching } : teaching);
}

/** Errors reported per package before the analysis stops (the closing note says so): the one cap. */
export const MAX_REPORTED_ERRORS = DIAGNOSTIC_LIMIT;

/** Thrown when the sink is full: the analysis stops, and what was recorded is reported. */
export class ErrorLimitReached extends Error {
  constructor() {
    super(`more than ${MAX_REPORTED_ERRORS} errors`);
  }
}

/** Collects independent errors; `attempt` runs one unit and returns its recovery value on error. */
export class ErrorSink {
  private readonly kept = new Collector<YaoError>(MAX_REPORTED_ERRORS);

  get errors(): YaoError[] {
    return this.kept.items;
  }

  record(e: YaoError): void {
    // A message about the recovery type is a consequence of an error already reported.
    if (e.message.includes("{error}")) return;
    this.kept.add(e, true);
    if (!this.kept.room) throw new ErrorLimitReached();
  }

  attempt<T>(body: () => T, recover: (e: YaoError) => T): T {
    try {
      return body();
    } catch (e) {
      if (!(e instanceof YaoError)) throw e;
      this.record(e);
      return recover(e);
    }
  }
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
  return diagnostic(`yao.${e.code}`, e.message, {
    file,
    span: e.span === undefined ? START_OF_FILE : plainSpan(e.span),
    hint: e.hint,
    label: e.label,
    function: e.function,
    referenceMessage: e.referenceMessage,
    related: e.related.map((r) => ({ file: r.span.file, span: plainSpan(r.span), message: r.message })),
  });
}
