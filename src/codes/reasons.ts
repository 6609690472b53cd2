/**
 * Reason codes (seed 002 §4): every diagnostic maps to `{action, layer, reason}`. The mapping is
 * the code table itself — each `CodeInfo` row carries `layer` and `reason`, and the action follows
 * from the row's severity (error → block, warning → advise, info → allow). There is no second table.
 *
 * Rows come from the same tables as the registry's (`src/codes/registry.ts`, in its order), but not
 * through it: the tables of lazily loaded parts come from `lazy-tables.ts`, which the browser build
 * reduces to the fields read here, so the JSON and receipt renderers keep the browser entry small.
 * test/evidence/reasons.test.ts holds the two lists equal. Conflicting duplicate rows are an error.
 */
import { CHECK_CODES, CLI_CODES } from "../check/codes.js";
import type { GuardLayer } from "../diagnostics/codes.js";
import type { Severity } from "../diagnostics/diagnostic.js";
import { HNS_CODES } from "../hns/codes.js";
import { YAO_READER_CODES } from "../syntax/codes.js";
import { YAO_ANALYZER_CODES } from "../yao/codes.js";
import { EVIDENCE_CODES } from "./evidence.js";
import { LAZY_TABLES, type ReasonRow } from "./lazy-tables.js";

export type { ReasonRow } from "./lazy-tables.js";

export type Action = "allow" | "advise" | "block";

export interface ReasonCode {
  readonly action: Action;
  readonly layer: GuardLayer;
  readonly reason: string;
}

export const ACTIONS: readonly Action[] = ["allow", "advise", "block"];
export const LAYERS: readonly GuardLayer[] = ["L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8"];
export const REASON_FAMILIES = ["struct_", "size_", "danger_", "perm_", "ident_", "meta_", "audit_", "hon_"] as const;
/** What `reason` must look like: a §4.2 family prefix, then lowercase words. No times, ids or counters. */
export const REASON_PATTERN = /^(struct|size|danger|perm|ident|meta|audit|hon)_[a-z][a-z0-9_]*$/;

export function actionForSeverity(severity: Severity): Action {
  return severity === "error" ? "block" : severity === "warning" ? "advise" : "allow";
}

const TABLES: readonly (readonly ReasonRow[])[] = [
  YAO_READER_CODES,
  HNS_CODES,
  YAO_ANALYZER_CODES,
  ...LAZY_TABLES,
  EVIDENCE_CODES,
  CHECK_CODES,
  CLI_CODES,
];

function buildTable(): ReadonlyMap<string, ReasonRow> {
  const table = new Map<string, ReasonRow>();
  for (const row of TABLES.flat()) {
    const prev = table.get(row.code);
    if (prev === undefined) table.set(row.code, row);
    else if (prev.severity !== row.severity || prev.layer !== row.layer || prev.reason !== row.reason) {
      throw new Error(`conflicting code rows for ${row.code}`);
    }
  }
  return table;
}

/** Every row reason codes are derived from. */
export const REASON_TABLE: ReadonlyMap<string, ReasonRow> = buildTable();

/** The reason code of a diagnostic code, or undefined when the code has no row. */
export function reasonFor(code: string): ReasonCode | undefined {
  const row = REASON_TABLE.get(code);
  return row === undefined ? undefined : reasonOfRow(row);
}

export function reasonOfRow(row: ReasonRow): ReasonCode {
  return { action: actionForSeverity(row.severity), layer: row.layer, reason: row.reason };
}

/**
 * The reason code to put on a diagnostic that has no row (which the completeness test forbids):
 * the action still follows its severity, and the reason says exactly that the row is missing, so
 * the verdict stays explained and deterministic.
 */
export function reasonOrMissing(code: string, severity: Severity): ReasonCode & { readonly missing: boolean } {
  const r = reasonFor(code);
  if (r !== undefined) return { ...r, missing: false };
  return { action: actionForSeverity(severity), layer: "L6", reason: "meta_no_reason_row", missing: true };
}
