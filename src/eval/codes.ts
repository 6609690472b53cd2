/**
 * Codes of the evaluator: one per failure class of Yao Evaluation Semantics §10 (`yaoc run` reports
 * a failure under `eval.<class>`, and `yaoc explain eval.<class>` says what it means), and the
 * check-time tool contract violation that `check` finds by evaluating static tool arguments.
 */
import { defineCodes, diagnosticsFor } from "../diagnostics/codes.js";

export const EVAL_CODES = defineCodes([
  {
    code: "eval.value",
    severity: "error",
    summary:
      "A value failure while running: division by zero, integer overflow, a missing field, a decode or from-json mismatch (with its field path), a non-finite Float. `fallback` catches it.",
    clause: "Yao Evaluation Semantics §10 (value)",
    layer: "L1",
    reason: "struct_eval_value",
  },
  {
    code: "eval.inference",
    severity: "error",
    summary:
      "A nested infer did not give a value of its declared type: the model's text is not strict JSON (duplicate keys, code fences, trailing text), a field is missing or extra, or the provider failed. `fallback` catches it.",
    clause: "Yao Evaluation Semantics §6, §10 (inference)",
    layer: "L1",
    reason: "struct_eval_inference",
  },
  {
    code: "eval.tool",
    severity: "error",
    summary: "A tool reported a failure for its request (a completion with an error). `fallback` catches it.",
    clause: "Yao Evaluation Semantics §10 (tool)",
    layer: "L1",
    reason: "struct_eval_tool",
  },
  {
    code: "eval.parallel",
    severity: "error",
    summary:
      "One or more branches of a par failed; the failure names every branch with its status and class. `fallback` catches it. If a branch failed with a class `fallback` never catches (integrity, authority, cancelled), the joined failure has that class instead and stays uncaught.",
    clause: "Yao Evaluation Semantics §7.3, §10 (parallel)",
    layer: "L1",
    reason: "struct_eval_parallel",
  },
  {
    code: "eval.resource",
    severity: "error",
    summary:
      "A budget ran out: typed-IR steps (--max-steps), tool effects (128), inference effects (8), par branches scheduled at once (32), Program Value nesting (4), map elements (64), model rounds per infer (4, as the host reports them) or the elapsed-time budget (as the host reports the time); or a node would build a value nesting deeper than 512, which no state could read back. `fallback` catches it.",
    clause: "Yao Evaluation Semantics §11; Morphz runtime profile budgets",
    layer: "L2",
    reason: "size_eval_budget",
  },
  {
    code: "eval.cancelled",
    severity: "error",
    summary:
      "The run was cancelled by its principal or supervisor (`cancelState`, `yaoc run --resume STATE --cancel`); every pending request is void. `fallback` never catches it.",
    clause: "Yao Evaluation Semantics §10 (cancelled)",
    layer: "L7",
    reason: "audit_eval_cancelled",
  },
  {
    code: "eval.authority",
    severity: "error",
    summary:
      "The host refused an operation: a revoked capability, an invalid lease, a denied Program Value hand-off. It never becomes program data; `fallback` never catches it.",
    clause: "Yao Evaluation Semantics §5, §8, §10 (authority)",
    layer: "L4",
    reason: "perm_eval_authority",
  },
  {
    code: "eval.integrity",
    severity: "error",
    summary:
      "The machine state or a completion cannot be trusted: an edited, truncated or foreign state, a completion for no pending request (foreign or stale), a conflicting duplicate, the wrong kind, or a finished machine. Nothing changes; `fallback` never catches it.",
    clause: "Yao Evaluation Semantics §5, §10 (integrity)",
    layer: "L5",
    reason: "ident_eval_integrity",
  },
  {
    code: "eval.tool_contract",
    severity: "error",
    summary:
      "A tool argument whose value is known before running violates the tool's JSON Schema (an enum, a nested required field, a format or a bound); the message names the schema path.",
    clause: "morphz harness check (tool contract verification)",
    layer: "L1",
    reason: "struct_eval_tool_contract",
  },
]);

export const evalDiagnostic = diagnosticsFor(EVAL_CODES);
