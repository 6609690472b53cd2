/**
 * A row of the diagnostic code table. Every code any frontend emits has exactly one row; the table
 * in docs/diagnostics.md is generated from these rows (`npm run docs:diagnostics`) and a test fails
 * when a code is emitted without a row or the document is stale.
 */
import type { Severity } from "./diagnostic.js";

export interface CodeInfo {
  readonly code: string;
  readonly severity: Severity;
  /** One line: what the code means. */
  readonly summary: string;
  /** The spec clause (or reference section) the code enforces, e.g. "HNS §4.1". */
  readonly clause: string;
}

/** Declare a frontend's code table; keeps rows typed and ordered as written. */
export function defineCodes<const T extends readonly CodeInfo[]>(rows: T): T {
  return rows;
}
