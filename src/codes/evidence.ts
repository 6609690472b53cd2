/**
 * Diagnostics of the deterministic-evidence layer (seed 002): receipts, canonicalisation, honesty
 * warnings H1/H2, golden freeze/verify and the attestation. One row per code; `reason` is the
 * §4.2 reason code and the action follows from the severity (error → block, warning → advise).
 */
import { defineCodes, diagnosticsFor, type CodeOf } from "../diagnostics/codes.js";

export const EVIDENCE_CODES = defineCodes([
  {
    code: "evidence.unregistered_field",
    severity: "warning",
    summary:
      "A receipt field is not in the field classification table; it is treated as physical (kept out of the ReproHash) and counted (R1).",
    clause: "seed 002 §3.1 R1",
    layer: "L6",
    reason: "meta_unregistered_field",
  },
  {
    code: "evidence.unkeyed_list",
    severity: "warning",
    summary:
      "A list of objects has no declared stable sort key; it was ordered by the canonical bytes of its elements (R2).",
    clause: "seed 002 §3.1 R2",
    layer: "L8",
    reason: "meta_unkeyed_object_list",
  },
  {
    code: "evidence.not_canonical",
    severity: "error",
    summary:
      "A value cannot be canonicalised: not I-JSON (NaN, ±Infinity, lone surrogate, cycle, non-plain object) or a number outside the fixed-point range.",
    clause: "seed 002 §3.1 R3; RFC 8785 §3.2",
    layer: "L1",
    reason: "struct_not_canonical_json",
  },
  {
    code: "evidence.input_not_json",
    severity: "error",
    summary:
      "The document given to `evidence canon` or `evidence hash` is not I-JSON text: not UTF-8, a syntax error, nesting deeper than 64, a lone surrogate or a number outside binary64.",
    clause: "RFC 8785 §3.1 (I-JSON, RFC 7493)",
    layer: "L1",
    reason: "struct_input_not_json",
  },
  {
    code: "evidence.input_duplicate_key",
    severity: "error",
    summary:
      "The document given to `evidence canon` or `evidence hash` names one member twice in an object; it has no single canonical form.",
    clause: "RFC 8785 §3.1 (I-JSON, RFC 7493 §2.3)",
    layer: "L5",
    reason: "ident_input_duplicate_key",
  },
  {
    code: "evidence.hon_missing_evidence_class",
    severity: "warning",
    summary: "H2: a receipt has no evidence_class.",
    clause: "seed 002 §5.2",
    layer: "L7",
    reason: "hon_missing_evidence_class",
  },
  {
    code: "evidence.hon_invalid_evidence_class",
    severity: "warning",
    summary: "H2: evidence_class is not one of simulated, measured, third_party.",
    clause: "seed 002 §5.1",
    layer: "L7",
    reason: "hon_invalid_evidence_class",
  },
  {
    code: "evidence.hon_measured_no_source",
    severity: "warning",
    summary: "H1: a measured figure lacks measure_source.",
    clause: "seed 002 §5.2",
    layer: "L7",
    reason: "hon_measured_no_source",
  },
  {
    code: "evidence.hon_measured_no_ts",
    severity: "warning",
    summary: "H1: a measured figure lacks measure_ts.",
    clause: "seed 002 §5.1",
    layer: "L7",
    reason: "hon_measured_no_ts",
  },
  {
    code: "evidence.hon_third_party_no_source",
    severity: "warning",
    summary: "H1: third_party evidence lacks a verifiable measure_source.",
    clause: "seed 002 §5.1",
    layer: "L7",
    reason: "hon_third_party_no_source",
  },
  {
    code: "evidence.hon_simulated_with_measure",
    severity: "warning",
    summary: "simulated evidence must have measure_source and measure_ts null.",
    clause: "seed 002 §5.1",
    layer: "L7",
    reason: "hon_simulated_with_measure",
  },
  {
    code: "evidence.hon_doc_claim_unbacked",
    severity: "warning",
    summary:
      "H1: a document claims measured / really-in-effect results but its directory holds no non-simulated evidence.",
    clause: "seed 002 §5.2",
    layer: "L7",
    reason: "hon_doc_claim_unbacked",
  },
  {
    code: "evidence.golden_missing",
    severity: "error",
    summary:
      "A golden case or record has no frozen file (regenerate it with the command golden/README.md names for its folder and commit with [golden]).",
    clause: "seed 002 §2 Golden",
    layer: "L7",
    reason: "audit_golden_missing",
  },
  {
    code: "evidence.golden_unreadable",
    severity: "error",
    summary:
      "A frozen golden file cannot be read or is not a golden record (malformed JSON, wrong shape); the file is named and the rest are still verified.",
    clause: "seed 002 §2 Golden",
    layer: "L7",
    reason: "audit_golden_unreadable",
  },
  {
    code: "evidence.golden_stale",
    severity: "error",
    summary:
      "A file under golden/ that no case or fixture accounts for (a case that no longer exists, or a file no golden suite verifies).",
    clause: "seed 002 §2 Golden",
    layer: "L7",
    reason: "audit_golden_stale",
  },
  {
    code: "evidence.golden_mismatch",
    severity: "error",
    summary:
      "A recomputed golden record differs from its frozen file (a ReproHash, identity, diagnostic or any other frozen value); the JSON pointers or the first differing line are named.",
    clause: "seed 002 §3.3",
    layer: "L8",
    reason: "audit_golden_mismatch",
  },
  {
    code: "evidence.unstable_hash",
    severity: "error",
    summary: "Two independent runs (fresh processes) gave different ReproHashes for the same input.",
    clause: "seed 002 §3.3, §6",
    layer: "L8",
    reason: "audit_unstable_repro_hash",
  },
  {
    code: "evidence.insensitive_hash",
    severity: "error",
    summary:
      "Sensitivity self-check failed: tampering a ReproCore field or a source atom did not change the ReproHash.",
    clause: "seed 002 §3.4",
    layer: "L8",
    reason: "audit_hash_insensitive",
  },
  {
    code: "evidence.physical_in_hash",
    severity: "error",
    summary: "Changing only a physical field changed the ReproHash: exclusion does not work.",
    clause: "seed 002 §3.2",
    layer: "L8",
    reason: "audit_physical_field_hashed",
  },
  {
    code: "evidence.no_physical_difference",
    severity: "error",
    summary:
      "Two independent runs have identical physical fields, so the exclusion of physical fields is not demonstrated.",
    clause: "seed 002 §6 full",
    layer: "L8",
    reason: "audit_no_physical_difference",
  },
  {
    code: "evidence.golden_unmarked_commit",
    severity: "error",
    summary: "A commit changing golden/ does not carry [golden] in its title.",
    clause: "seed 002 §2 Golden, §7 D6",
    layer: "L7",
    reason: "audit_golden_commit_unmarked",
  },
  {
    code: "evidence.golden_uncommitted",
    severity: "info",
    summary: "golden/ has uncommitted changes; the commit that records them must carry [golden] in its title.",
    clause: "seed 002 §7 D6",
    layer: "L7",
    reason: "audit_golden_uncommitted",
  },
  {
    code: "evidence.git_unavailable",
    severity: "warning",
    summary: "The [golden] commit-title check could not read the git history.",
    clause: "seed 002 §7 D6",
    layer: "L7",
    reason: "audit_git_unavailable",
  },
  {
    code: "evidence.reason_missing",
    severity: "error",
    summary: "A diagnostic code has no row in the code table, so its reason code is unknown.",
    clause: "seed 002 §4.1, §7 D7",
    layer: "L6",
    reason: "meta_no_reason_row",
  },
  {
    code: "evidence.worker_failed",
    severity: "error",
    summary: "A fresh verification process failed or printed something that is not a receipt list.",
    clause: "seed 002 §3.3",
    layer: "L7",
    reason: "audit_worker_failed",
  },
]);

/** Every Evidence code; a code outside EVIDENCE_CODES is a compile error. */
export type EvidenceCode = CodeOf<typeof EVIDENCE_CODES>;

/** Diagnostics of this table: the code must be one of its rows and the severity is the row's. */
export const diagnostic = diagnosticsFor(EVIDENCE_CODES);
