/**
 * A row of the diagnostic code table. Every code any frontend emits has exactly one row; the table
 * in docs/diagnostics.md is generated from these rows (`npm run docs:diagnostics`) and a test fails
 * when a code is emitted without a row or the document is stale.
 *
 * Each row also carries the evidence reason code (seed 002 §4): `{action, layer, reason}` where the
 * action follows from the severity (error → block, warning → advise, info → allow).
 */
import { diagnostic, type DiagnosticFields } from "./build.js";
import type { Diagnostic, Severity } from "./diagnostic.js";

/**
 * Guard layers of seed 002 §4.1: L1 structure, L2 size, L3 dangerous pattern, L4 permission,
 * L5 identity and distortion, L6 metadata, L7 audit, L8 consistency.
 */
export type GuardLayer = "L1" | "L2" | "L3" | "L4" | "L5" | "L6" | "L7" | "L8";

/** Reason-code families of seed 002 §4.2. */
export type ReasonFamily = "struct_" | "size_" | "danger_" | "perm_" | "ident_" | "meta_" | "audit_" | "hon_";

export interface CodeInfo {
  readonly code: string;
  readonly severity: Severity;
  /** One line: what the code means. */
  readonly summary: string;
  /** The spec clause (or reference section) the code enforces, e.g. "HNS §4.1". */
  readonly clause: string;
  /** Guard layer (seed 002 §4.1). */
  readonly layer: GuardLayer;
  /** Non-empty reason code starting with one of the §4.2 family prefixes, e.g. `struct_unclosed_list`. */
  readonly reason: `${ReasonFamily}${string}`;
  /**
   * The lower severity a call site may report this code at instead (e.g. a registry record that is
   * skipped rather than fatal). Stated here so the table says every severity a code can have.
   */
  readonly downgradedTo?: Severity;
}

/** One titled group of rows in docs/diagnostics.md (one per frontend table). */
export interface CodeSection {
  readonly title: string;
  readonly rows: readonly CodeInfo[];
}

/** Declare a frontend's code table; keeps rows typed and ordered as written. */
export function defineCodes<const T extends readonly CodeInfo[]>(rows: T): T {
  return rows;
}

/** The codes of one table, as a string-literal union: a code outside the table is a compile error. */
export type CodeOf<T extends readonly CodeInfo[]> = T[number]["code"];

/** The codes of one table whose row has the given severity. */
export type CodeWithSeverity<T extends readonly CodeInfo[], S extends Severity> = Extract<
  T[number],
  { readonly severity: S }
>["code"];

/**
 * Where a diagnostic points, and its hint, label and notes; severity is not here because it comes
 * from the code's row. The one definition every frontend and the collector use.
 */
export type DiagnosticPlace = DiagnosticFields & {
  /** Report at the row's `downgradedTo` severity; only for rows that declare one. */
  readonly downgraded?: boolean;
};

/** Builds a diagnostic of one table's codes (severity from the row). */
export type DiagnosticMaker<Code extends string> = (code: Code, message: string, where?: DiagnosticPlace) => Diagnostic;

/** The severity of each code of a table, for counting findings that are never built. */
export function severitiesOf<const T extends readonly CodeInfo[]>(rows: T): (code: CodeOf<T>) => Severity {
  const byCode = new Map<string, Severity>(rows.map((r) => [r.code, r.severity]));
  return (code) => byCode.get(code) ?? "error";
}

/**
 * A frontend's diagnostic constructor: the code must be a row of `rows` and the severity is the
 * row's, so a call site can neither mistype a code nor restate (and drift from) its severity.
 */
export function diagnosticsFor<const T extends readonly CodeInfo[]>(rows: T): DiagnosticMaker<CodeOf<T>> {
  const byCode = new Map<string, CodeInfo>(rows.map((r) => [r.code, r]));
  return (code, message, { downgraded, ...where } = {}) => {
    const row = byCode.get(code);
    // Unreachable from typed code; an untyped caller gets a programming error, not a severity guess.
    if (row === undefined) throw new Error(`${code} is not a row of this code table`);
    if (downgraded === true && row.downgradedTo === undefined)
      throw new Error(`${code} has no downgradedTo severity in its table`);
    return diagnostic(code, message, { ...where, severity: downgraded === true ? row.downgradedTo : row.severity });
  };
}
