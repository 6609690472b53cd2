/**
 * The code tables of the parts a browser page loads on first use: the evaluator's tool-contract
 * check, HARP, A3S, HCP and the catalog. `reasons.ts` takes every row's reason code from here and
 * from the tables the entry loads anyway, not from the registry, so that the JSON and receipt
 * renderers do not bring every table's summaries and clauses into the browser entry.
 *
 * For the browser bundle, scripts/build-browser.mjs replaces this module (only where reasons.ts
 * imports it) by the same rows reduced to what reasons.ts reads — code, severity, layer, reason,
 * downgradedTo — computed from this file at build time, so the two cannot drift. The full rows
 * arrive with the frontend that emits the codes, or with `codeTable()` of the browser entry.
 */
import { A3S_CODES } from "../a3s/codes.js";
import { CATALOG_CODES } from "../catalog/codes.js";
import type { CodeInfo } from "../diagnostics/codes.js";
import { EVAL_CODES } from "../eval/codes.js";
import { HARP_CODES } from "../harp/codes.js";
import { HCP_CODES } from "../hcp/codes.js";

/** What reasons.ts reads of a row. */
export type ReasonRow = Pick<CodeInfo, "code" | "severity" | "layer" | "reason" | "downgradedTo">;

/** In the registry's order (src/codes/registry.ts), where they are contiguous. */
export const LAZY_TABLES: readonly (readonly ReasonRow[])[] = [
  EVAL_CODES,
  HARP_CODES,
  A3S_CODES,
  HCP_CODES,
  CATALOG_CODES,
];
