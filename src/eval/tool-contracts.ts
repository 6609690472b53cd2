/**
 * Tool contract verification at check time, as `morphz harness check` does it: every tool argument
 * whose value is known before running (pure, and evaluable without any binding) is evaluated with
 * the evaluator, in the entry and in every function (called or not), and validated against the
 * tool's full input JSON Schema with ajv (draft 2020-12 and draft-07 keywords, formats from
 * ajv-formats). The evaluator and ajv are imported from tool-contract-validator.ts only when
 * there are schemas, so a check without them never loads either. A violation is an error at the
 * argument, naming the schema path. The analyzer types tool arguments from the schema only coarsely (an enum is just a String), so this is what
 * catches `(mode "delete")` for `enum: ["append", "replace"]`.
 */
import type { HirExpr, YaoProgram } from "../../ir/yao-ir-0.1.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { CompiledFunction } from "../yao/expressions.js";
import { hirChildren } from "../yao/hir-children.js";
import { compareCodePoints } from "../text/code-point-order.js";

export interface ToolContractReport {
  /**
   * Everything was checked offline, as `morphz harness check` means it: no violation, every tool
   * the package declares or calls has a schema, and no call was deferred to run time.
   */
  readonly tool_contracts_verified: boolean;
  readonly tool_schema_coverage: {
    /** Bodies walked: the entry and every function. */
    readonly functions: number;
    /** Tool call sites found. */
    readonly calls: number;
    /** Call sites with at least one statically known argument validated against a schema. */
    readonly static_calls: number;
    /** Statically known arguments validated. */
    readonly static_arguments: number;
    /**
     * Call sites of a tool with a schema where some argument depends on a binding (a parameter,
     * a `bind`, an effect): only the run can validate those, so they keep the check unverified.
     */
    readonly deferred_calls: number;
  };
  /** Tools declared (the manifest's) or called without an input schema, sorted. */
  readonly unresolved_tool_schemas: readonly string[];
}

export async function verifyToolContracts(
  program: YaoProgram,
  functions: ReadonlyMap<string, CompiledFunction>,
  schemas: Readonly<Record<string, unknown>>,
  /** The tools the package declares (its manifest's): one without a schema is unresolved, called or not. */
  declaredTools: readonly string[] = [],
): Promise<{ diagnostics: Diagnostic[]; report: ToolContractReport }> {
  // The evaluator and ajv are loaded only when there is a schema to check against (see
  // tool-contract-validator.ts). With none, every tool is unresolved and neither is ever used.
  const lazy = Object.keys(schemas).length === 0 ? undefined : await import("./tool-contract-validator.js");
  const validatorFor = lazy?.schemaValidators(schemas);

  const diagnostics: Diagnostic[] = [];
  const unresolved = new Set<string>(declaredTools.filter((t) => !Object.hasOwn(schemas, t)));
  const seen = new Set<HirExpr>();
  let calls = 0;
  let staticCalls = 0;
  let staticArguments = 0;
  let deferredCalls = 0;

  const checkCall = (call: HirExpr) => {
    const k = call.kind;
    if (k.op !== "call") return;
    calls++;
    const schema = Object.hasOwn(schemas, k.tool) ? schemas[k.tool] : undefined;
    if (schema === undefined) {
      unresolved.add(k.tool);
      return;
    }
    const checked = lazy!.checkCallArguments(call, program, validatorFor!);
    for (const x of checked.diagnostics) diagnostics.push(x);
    staticArguments += checked.staticArguments;
    if (checked.staticArguments > 0) staticCalls++;
    if (!checked.allKnown) deferredCalls++;
  };

  const walk = (root: HirExpr) => {
    const stack = [root];
    while (stack.length > 0) {
      const e = stack.pop()!;
      if (seen.has(e)) continue;
      seen.add(e);
      checkCall(e);
      // A linked callee body is its function's, walked once below.
      const kids = e.kind.op === "function_application" ? hirChildren(e).slice(0, -1) : hirChildren(e);
      for (const c of kids) stack.push(c);
    }
  };
  walk(program.body);
  for (const f of functions.values()) walk(f.body);

  diagnostics.sort((a, b) => (a.span?.start.byte ?? 0) - (b.span?.start.byte ?? 0));
  const unresolvedList = [...unresolved].sort(compareCodePoints);
  return {
    diagnostics,
    report: {
      tool_contracts_verified: diagnostics.length === 0 && unresolvedList.length === 0 && deferredCalls === 0,
      tool_schema_coverage: {
        functions: functions.size + 1,
        calls,
        static_calls: staticCalls,
        static_arguments: staticArguments,
        deferred_calls: deferredCalls,
      },
      unresolved_tool_schemas: unresolvedList,
    },
  };
}
