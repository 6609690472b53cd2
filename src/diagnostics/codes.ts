/**
 * A row of the diagnostic code table. Every code any frontend emits has exactly one row; the table
 * in docs/diagnostics.md is generated from these rows (`npm run docs:diagnostics`) and a test fails
 * when a code is emitted without a row or the document is stale.
 *
 * Each row also carries the evidence reason code (seed 002 §4): `{action, layer, reason}` where the
 * action follows from the severity (error → block, warning → advise, info → allow).
 */
import type { Severity } from "./diagnostic.js";

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
