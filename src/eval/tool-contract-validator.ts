/**
 * What tool contract verification (tool-contracts.ts) needs only when there is a schema to check
 * against: the evaluator, to compute statically known arguments, and the JSON Schema validator (ajv
 * with draft 2020-12 and draft-07 keywords and ajv-formats). It is its own module so that
 * tool-contracts.ts can import it dynamically, only when the caller passed tool schemas: ajv and the
 * evaluator are ~180 KiB minified, and a browser page that checks packages without `--tools`
 * schemas (the playground) never loads them (`npm run build:browser`'s initial-load budget).
 */
import Ajv2020Module from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { HirExpr, YaoProgram } from "../../ir/yao-ir-0.1.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { escapePointerToken } from "../json/pointer.js";
import { budgetsWith } from "./budgets.js";
import { evalDiagnostic } from "./codes.js";
import { Machine } from "./machine.js";
import { ProgramIndex } from "./program-index.js";
import { valueText } from "./value-text.js";
import type { Value } from "./values.js";

// ajv and ajv-formats are CommonJS; accept the module object or the default export.
const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ??
  Ajv2020Module) as typeof Ajv2020Module.default;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule.default;

/**
 * A validator lookup over `schemas` (tool name → input schema): the validator of one argument
 * (`#/properties/NAME` of the tool's schema) or, with `argument` null, of the whole argument
 * object. Undefined when the tool has no schema or its schema does not compile.
 */
export function schemaValidators(
  schemas: Readonly<Record<string, unknown>>,
): (tool: string, argument: string | null) => ValidateFunction | undefined {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false });
  addFormats(ajv);
  const validators = new Map<string, (name: string) => ValidateFunction | undefined>();
  const broken = new Set<string>();
  return (tool, argument) => {
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
}

/** Enough steps for any literal argument; an argument that needs more is not "statically known". */
const STATIC_STEPS = 10_000;

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

function toPlain(v: Value): unknown {
  // ajv sees JSON as JavaScript values: an Int past 2^53 is the nearest number, still an integer
  // (a string would fail `"type":"integer"` for a valid package); bounds are compared to ±1 ULP.
  if (typeof v === "bigint") return Number(v);
  if (Array.isArray(v)) return v.map(toPlain);
  if (v instanceof Map) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of v)
      Object.defineProperty(o, k, { value: toPlain(x), enumerable: true, writable: true, configurable: true });
    return o;
  }
  return v;
}

function describe(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  if (e.keyword === "enum" && Array.isArray(params.allowedValues))
    return `must be one of ${params.allowedValues.map((x) => JSON.stringify(x)).join(", ")}`;
  return e.message ?? e.keyword;
}

/**
 * One tool call whose tool has a schema: each statically known argument is validated against its
 * property schema, and when every argument is known, the whole argument object against the schema.
 * `allKnown` says the call was checked in full; otherwise the run must validate it (deferred).
 */
export function checkCallArguments(
  call: HirExpr,
  program: YaoProgram,
  validatorFor: (tool: string, argument: string | null) => ValidateFunction | undefined,
): { diagnostics: Diagnostic[]; staticArguments: number; allKnown: boolean } {
  const k = call.kind;
  const diagnostics: Diagnostic[] = [];
  let staticArguments = 0;
  if (k.op !== "call") return { diagnostics, staticArguments, allKnown: false };
  const known = new Map<string, unknown>();
  for (const a of k.arguments) {
    const values = a.values.map((v) => staticValue(v, program));
    if (values.some((v) => v === undefined)) continue;
    const value: Value = values.length === 1 ? values[0]! : (values as Value[]);
    const plain = toPlain(value);
    known.set(a.name, plain);
    const validate = validatorFor(k.tool, a.name);
    if (validate === undefined) continue;
    staticArguments++;
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
  // Every argument known (none at all included): the whole object is checked too (required names,
  // extra properties, minProperties), as the reference validates the whole argument object.
  if (known.size === k.arguments.length) {
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
  // Fully checked: every argument known, and a schema that compiles to check them against.
  const allKnown = known.size === k.arguments.length && validatorFor(k.tool, null) !== undefined;
  return { diagnostics, staticArguments, allKnown };
}
