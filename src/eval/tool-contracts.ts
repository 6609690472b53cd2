/**
 * Tool contract verification at check time, as `morphz harness check` does it: every tool argument
 * whose value is known before running (pure, and evaluable without any binding) is evaluated with
 * the evaluator, in the entry and in every function (called or not), and validated against the
 * tool's full input JSON Schema with ajv (draft 2020-12 and draft-07 keywords, formats from
 * ajv-formats). A violation is an error at the argument, naming the schema path. The analyzer
 * types tool arguments from the schema only coarsely (an enum is just a String), so this is what
 * catches `(mode "delete")` for `enum: ["append", "replace"]`.
 */
import Ajv2020Module from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { HirExpr, YaoProgram } from "../../ir/yao-ir-0.1.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { escapePointerToken } from "../json/pointer.js";
import type { CompiledFunction } from "../yao/expressions.js";
import { hirChildren } from "../yao/hir-children.js";
import { compareCodePoints } from "../text/code-point-order.js";
import { evalDiagnostic } from "./codes.js";
import { budgetsWith } from "./budgets.js";
import { Machine } from "./machine.js";
import { ProgramIndex } from "./program-index.js";
import { valueText } from "./value-text.js";
import type { Value } from "./values.js";

// ajv and ajv-formats are CommonJS; accept the module object or the default export.
const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ??
  Ajv2020Module) as typeof Ajv2020Module.default;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule.default;

export interface ToolContractReport {
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
  };
  /** Tools called without an input schema (dynamic), sorted. */
  readonly unresolved_tool_schemas: readonly string[];
}

/** Enough steps for any literal argument; an argument that needs more is not "statically known". */
const STATIC_STEPS = 10_000;

function toPlain(v: Value): unknown {
  if (typeof v === "bigint") return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (Array.isArray(v)) return v.map(toPlain);
  if (v instanceof Map) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of v)
      Object.defineProperty(o, k, { value: toPlain(x), enumerable: true, writable: true, configurable: true });
    return o;
  }
  return v;
}

/** The value of a pure expression that needs no binding, or undefined when it is not statically known. */
function staticValue(e: HirExpr, program: YaoProgram): Value | undefined {
  if (e.effects.length > 0) return undefined;
  const index = new ProgramIndex();
  index.add({ ...program, body: e }, "static");
  const m = new Machine(index, budgetsWith({ steps: STATIC_STEPS }), null, undefined, false);
  m.run();
  const r = m.root.result;
  return r !== undefined && "value" in r ? r.value : undefined;
}

function describe(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  if (e.keyword === "enum" && Array.isArray(params.allowedValues))
    return `must be one of ${params.allowedValues.map((x) => JSON.stringify(x)).join(", ")}`;
  return e.message ?? e.keyword;
}

export function verifyToolContracts(
  program: YaoProgram,
  functions: ReadonlyMap<string, CompiledFunction>,
  schemas: Readonly<Record<string, unknown>>,
): { diagnostics: Diagnostic[]; report: ToolContractReport } {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false });
  addFormats(ajv);
  const validators = new Map<string, (name: string) => ValidateFunction | undefined>();
  const broken = new Set<string>();
  const validatorFor = (tool: string, argument: string | null): ValidateFunction | undefined => {
    const schema = Object.hasOwn(schemas, tool) ? schemas[tool] : undefined;
    if (schema === undefined || broken.has(tool)) return undefined;
    if (!validators.has(tool)) {
      try {
        ajv.addSchema(schema as object, `tool:${tool}`);
      } catch {
        broken.add(tool);
        return undefined;
      }
      validators.set(tool, (name) => ajv.getSchema(`tool:${tool}#/properties/${escapePointerToken(name)}`));
    }
    try {
      return argument === null ? ajv.getSchema(`tool:${tool}`) : validators.get(tool)!(argument);
    } catch {
      return undefined;
    }
  };

  const diagnostics: Diagnostic[] = [];
  const unresolved = new Set<string>();
  const seen = new Set<HirExpr>();
  let calls = 0;
  let staticCalls = 0;
  let staticArguments = 0;

  const checkCall = (call: HirExpr) => {
    const k = call.kind;
    if (k.op !== "call") return;
    calls++;
    const schema = Object.hasOwn(schemas, k.tool) ? schemas[k.tool] : undefined;
    if (schema === undefined) {
      unresolved.add(k.tool);
      return;
    }
    const known = new Map<string, unknown>();
    let anyChecked = false;
    for (const a of k.arguments) {
      const values = a.values.map((v) => staticValue(v, program));
      if (values.some((v) => v === undefined)) continue;
      const value: Value = values.length === 1 ? values[0]! : (values as Value[]);
      const plain = toPlain(value);
      known.set(a.name, plain);
      const validate = validatorFor(k.tool, a.name);
      if (validate === undefined) continue;
      staticArguments++;
      anyChecked = true;
      if (!validate(plain)) {
        const err = validate.errors![0]!;
        const path = `#/properties/${escapePointerToken(a.name)}${err.schemaPath.replace(/^#/, "")}`;
        const at = err.instancePath === "" ? "" : ` at ${err.instancePath}`;
        diagnostics.push(
          evalDiagnostic(
            "eval.tool_contract",
            `argument '${a.name}' of tool '${k.tool}'${at} violates the tool's JSON Schema (${path}): ${describe(err)}; found ${valueText(value)}`,
            {
              file: a.span.file,
              span: a.span,
              label: describe(err),
              hint: `give '${a.name}' a value the schema of '${k.tool}' allows (schema path ${path})`,
            },
          ),
        );
      }
    }
    // Every argument known: the whole object is checked too (required names, extra properties).
    if (known.size === k.arguments.length && known.size > 0) {
      const whole = validatorFor(k.tool, null);
      const args = Object.fromEntries(known);
      if (whole !== undefined && !whole(args)) {
        const err = whole.errors!.find((e) => e.instancePath === "");
        if (err !== undefined)
          diagnostics.push(
            evalDiagnostic(
              "eval.tool_contract",
              `the arguments of tool '${k.tool}' violate its JSON Schema (${err.schemaPath}): ${describe(err)}`,
              { file: call.span.file, span: call.span, hint: `see the input schema of '${k.tool}'` },
            ),
          );
      }
    }
    if (anyChecked) staticCalls++;
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
      tool_contracts_verified: diagnostics.length === 0 && unresolvedList.length === 0,
      tool_schema_coverage: {
        functions: functions.size + 1,
        calls,
        static_calls: staticCalls,
        static_arguments: staticArguments,
      },
      unresolved_tool_schemas: unresolvedList,
    },
  };
}
