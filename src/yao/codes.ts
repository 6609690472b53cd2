/**
 * Diagnostic codes of the Yao analyzer (yao-v0.1.md §1.6; reader codes belong to src/syntax). Each
 * reference code is spelled `yao.<reference_code>`; the last two are our strict additions.
 */
import { defineCodes, diagnosticsFor, type CodeOf } from "../diagnostics/codes.js";

export const YAO_ANALYZER_CODES = defineCodes([
  {
    code: "yao.invalid_type",
    severity: "error",
    summary: "A type, declaration, clause or form has the wrong shape or names an unknown type.",
    clause: "Yao v0.1 §3, §4, §5, §7",
    layer: "L1",
    reason: "struct_yao_invalid_type",
  },
  {
    code: "yao.duplicate_name",
    severity: "error",
    summary: "A name is declared twice, shadows a binding, or is reserved.",
    clause: "Yao v0.1 §3.2, §5.3, §7.1",
    layer: "L1",
    reason: "struct_yao_duplicate_name",
  },
  {
    code: "yao.recursive_type",
    severity: "error",
    summary: "A declared record or union reaches itself; Yao v0.1 has no recursive types.",
    clause: "Yao v0.1 §3.3",
    layer: "L1",
    reason: "struct_yao_recursive_type",
  },
  {
    code: "yao.recursive_function",
    severity: "error",
    summary: "HNS functions form a call cycle; the call graph must be acyclic.",
    clause: "HNS §9.4; Yao v0.1 §7.2",
    layer: "L1",
    reason: "struct_yao_recursive_function",
  },
  {
    code: "yao.type_mismatch",
    severity: "error",
    summary: "An expression does not have the type its position requires, or a form is malformed.",
    clause: "Yao v0.1 §3.4, §5",
    layer: "L1",
    reason: "struct_yao_type_mismatch",
  },
  {
    code: "yao.unknown_name",
    severity: "error",
    summary: "A binding, tool, field, argument, host operation or clause name is not known here.",
    clause: "Yao v0.1 §5.2, §5.19, §5.24",
    layer: "L1",
    reason: "struct_yao_unknown_name",
  },
  {
    code: "yao.unknown_operator",
    severity: "error",
    summary: "An expression head is not a Yao operator, host operation or declared function.",
    clause: "Yao v0.1 §4.1, §5.1",
    layer: "L1",
    reason: "struct_yao_unknown_operator",
  },
  {
    code: "yao.effect_escape",
    severity: "error",
    summary:
      "An effect reaches a position or bound that does not allow it (purity, requires, fn effects, tool bounds).",
    clause: "HNS §9.2, §9.4; Yao v0.1 §6, §7.3, §7.4",
    layer: "L4",
    reason: "perm_yao_effect_escape",
  },
  {
    code: "yao.resource_limit",
    severity: "error",
    summary: "A static analysis limit is exceeded (depth, nodes, fields, branches, functions, call depth, bytes).",
    clause: "HNS §9.4; Yao v0.1 §8",
    layer: "L2",
    reason: "size_yao_resource_limit",
  },
  {
    code: "yao.integer_out_of_range",
    severity: "error",
    summary:
      "An integer literal is outside the signed 64-bit range (the reference misreports it as an unknown binding).",
    clause: "Yao v0.1 §5.2, quirk Q2",
    layer: "L1",
    reason: "struct_yao_integer_out_of_range",
  },
  {
    code: "yao.missing_description",
    severity: "error",
    summary:
      "An exported HNS function has no `(description …)`; the model reads it to decide when to call the function. The reference reports this as `invalid_type`.",
    clause: "HNS §9.4; Yao v0.1 §7.1",
    layer: "L1",
    reason: "struct_yao_missing_description",
  },
  {
    code: "yao.error_limit",
    severity: "info",
    summary: "The analysis stopped after 200 errors in one package; fix those and check again to see the rest.",
    clause: "yaoc",
    layer: "L6",
    reason: "meta_yao_error_limit",
  },
  {
    code: "yao.invalid_ir",
    severity: "error",
    summary: "A persisted typed-IR program is not valid Yao IR 0.1 JSON, or its source_hash does not match.",
    clause: "Yao v0.1 §9.9, §9.10",
    layer: "L5",
    reason: "ident_yao_invalid_ir",
  },
]);

/** Every YaoAnalyzer code; a code outside YAO_ANALYZER_CODES is a compile error. */
export type YaoAnalyzerCode = CodeOf<typeof YAO_ANALYZER_CODES>;

/** Diagnostics of this table: the code must be one of its rows and the severity is the row's. */
export const diagnostic = diagnosticsFor(YAO_ANALYZER_CODES);
