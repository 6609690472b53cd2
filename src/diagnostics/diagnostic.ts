/**
 * The one diagnostic shape every stage and frontend of yaoc reports.
 *
 * Positions follow the Yao reference: `byte` is a zero-based UTF-8 offset, `line` and `column` are
 * one-based and columns count Unicode scalars (never UTF-16 units).
 */
import type { Span } from "../../ir/span.js";

export type { Position, SourceSpan, Span } from "../../ir/span.js";

export type Severity = "error" | "warning" | "info";

export interface RelatedLocation {
  readonly file?: string;
  readonly span?: Span;
  readonly message: string;
}

export interface Diagnostic {
  /** Stable, dotted, snake_case code such as `yao.unclosed_list`; documented in docs/diagnostics.md. */
  readonly code: string;
  readonly severity: Severity;
  /** Names the package, the artifact and the violated rule; reference wording where it has one. */
  readonly message: string;
  /** The file the span refers to, as the user named it (or package-relative). */
  readonly file?: string;
  readonly span?: Span;
  /** JSON Pointer (RFC 6901) of the offending value, for JSON-based frontends. */
  readonly pointer?: string;
  /** How to fix it, when there is something useful to say. */
  readonly hint?: string;
  readonly related?: readonly RelatedLocation[];
  /** Text under the primary caret: what was expected and what was found. */
  readonly label?: string;
  /** The HNS function the diagnostic is inside, when there is one. */
  readonly function?: string;
  /**
   * The reference implementation's exact wording, present only when `message` says it differently
   * (Yao notation such as `(List Int)` where the reference prints Rust `Debug` forms such as
   * `List(Int)`); the differential tests compare it. `reference_message` in JSON.
   */
  readonly referenceMessage?: string;
}

export const START_OF_FILE: Span = Object.freeze({
  start: Object.freeze({ byte: 0, line: 1, column: 1 }),
  end: Object.freeze({ byte: 0, line: 1, column: 1 }),
});

export function isError(d: Diagnostic): boolean {
  return d.severity === "error";
}

export function hasErrors(ds: readonly Diagnostic[]): boolean {
  return ds.some(isError);
}
