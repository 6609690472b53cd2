/** The direct sub-expressions of a HIR node, in source order. */
import type { HirExpr } from "../../ir/yao-ir-0.1.js";

export function hirChildren(e: HirExpr): readonly HirExpr[] {
  const k = e.kind;
  switch (k.op) {
    case "literal":
    case "reference":
    case "option_none":
      return [];
    case "list":
      return k.elements;
    case "dict":
    case "record":
    case "variant":
      return ("entries" in k ? k.entries : k.fields).map((x) => x[1]);
    case "from_json":
    case "to_json":
    case "option_some":
    case "result_ok":
    case "result_err":
    case "get":
    case "decode":
    case "is":
    case "bind":
      return [k.value];
    case "evidence_candidate":
      return [k.kind, k.value, ...k.refs];
    case "outcome_candidate":
      return [k.value, ...k.evidence];
    case "context_transaction":
      return [k.context];
    case "pure":
      return k.operands;
    case "seq":
      return k.steps;
    case "if":
      return [k.condition, k.when_true, k.when_false];
    case "match":
      return [k.value, ...k.cases.map((c) => c.body)];
    case "fallback":
      return [k.primary, k.backup];
    case "map":
      return [k.collection, k.body];
    case "call":
    case "host":
      return k.arguments.flatMap((a) => a.values);
    case "function_application":
      return [...k.arguments.flatMap((a) => a.values), k.body];
    case "infer_body":
      return [k.body];
    case "par":
      return k.branches.map((b) => b.body);
    case "run":
      return [k.program];
  }
}
