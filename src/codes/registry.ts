/**
 * Every diagnostic code yaoc can emit, gathered from each stage's own table. It sits above every
 * frontend (it imports their tables) so that `src/diagnostics` can stay below all of them. docs/diagnostics.md is
 * generated from this list (`npm run docs:diagnostics`); tests fail when a code used in src/ has no
 * row here or the document is stale.
 */
import { A3S_CODES } from "../a3s/codes.js";
import { CATALOG_CODES } from "../catalog/codes.js";
import { CHECK_CODES, CLI_CODES } from "../check/codes.js";
import { EVAL_CODES } from "../eval/codes.js";
import { EVIDENCE_CODES } from "./evidence.js";
import { HARP_CODES } from "../harp/codes.js";
import { HCP_CODES } from "../hcp/codes.js";
import { HNS_CODES } from "../hns/codes.js";
import { YAO_READER_CODES } from "../syntax/codes.js";
import { YAO_ANALYZER_CODES } from "../yao/codes.js";
import type { CodeInfo, CodeSection } from "../diagnostics/codes.js";

export const CODE_SECTIONS: readonly CodeSection[] = [
  { title: "Yao reader", rows: YAO_READER_CODES },
  { title: "HNS package loader", rows: HNS_CODES },
  { title: "Yao analyzer", rows: YAO_ANALYZER_CODES },
  { title: "Yao evaluator", rows: EVAL_CODES },
  { title: "HARP apps", rows: HARP_CODES },
  { title: "A3S cognitive packages", rows: A3S_CODES },
  { title: "HCP Harness Packs", rows: HCP_CODES },
  { title: "Package catalog", rows: CATALOG_CODES },
  { title: "Deterministic evidence", rows: EVIDENCE_CODES },
  { title: "Package detection", rows: CHECK_CODES },
  { title: "Command line", rows: CLI_CODES },
];

export const ALL_CODES: readonly CodeInfo[] = CODE_SECTIONS.flatMap((s) => s.rows);

const byCode = new Map(ALL_CODES.map((row) => [row.code, row]));

export function codeInfo(code: string): CodeInfo | undefined {
  return byCode.get(code);
}
