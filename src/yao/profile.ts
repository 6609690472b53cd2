/**
 * Analysis profiles (yao-v0.1.md §10): the tool signatures, host-operation signatures and implicit
 * `runtime` binding a program is checked against. A profile is plain data; the Morphz runtime profile
 * is one value of it, and `--tools` schemas become another.
 */
import type { YaoType } from "../../ir/yao-ir-0.1.js";
import { T } from "./types.js";

export interface Signature {
  /** Argument name → type. Empty together with `required` means a dynamic signature (no checks). */
  readonly arguments: ReadonlyMap<string, YaoType>;
  readonly required: readonly string[];
  readonly result: YaoType;
}

export type ToolEntry =
  | { readonly available: true; readonly signature: Signature }
  /** Registered but not callable from Yao; `reason` is the `effect_escape` message. */
  | { readonly available: false; readonly reason: string };

export interface AnalysisProfile {
  readonly name: string;
  readonly tools: ReadonlyMap<string, ToolEntry>;
  readonly hostOperations: ReadonlyMap<string, Signature>;
  /** Type of the implicit `runtime` binding, when the profile supplies one. */
  readonly runtime?: YaoType;
}

export const DYNAMIC_SIGNATURE: Signature = Object.freeze({ arguments: new Map(), required: [], result: T.json });

export function isDynamic(sig: Signature): boolean {
  return sig.arguments.size === 0 && sig.required.length === 0;
}

function signature(args: [string, YaoType][], required: string[], result: YaoType): Signature {
  return { arguments: new Map(args), required, result };
}

const structural = (fields: [string, YaoType][]): YaoType => T.structural(new Map(fields));

const OBJECTIVE_RESULT = structural([
  ["after_revision", T.json],
  ["before_revision", T.json],
  ["detail", T.json],
  ["objective_id", T.json],
  ["objective_status", T.string],
  ["proposal_id", T.string],
  ["status", T.string],
]);

/** §10.1–§10.2. */
const MORPHZ_HOST_OPERATIONS = new Map<string, Signature>([
  ["evidence.commit", signature([["candidate", T.evidenceCandidate]], ["candidate"], T.ref("Evidence"))],
  ["outcome.commit", signature([["candidate", T.outcomeCandidate]], ["candidate"], T.ref("Outcome"))],
  [
    "context.propose",
    signature(
      [["transaction", T.contextTransaction]],
      ["transaction"],
      structural([
        ["after_revision", T.json],
        ["before_revision", T.json],
        ["detail", T.json],
        ["proposal_id", T.string],
        ["status", T.string],
        ["transaction_id", T.json],
      ]),
    ),
  ],
  [
    "objective.report",
    signature(
      [
        ["objective", T.ref("Objective")],
        ["progress", T.json],
        ["evidence", T.list(T.ref("Evidence"))],
      ],
      ["objective", "progress"],
      OBJECTIVE_RESULT,
    ),
  ],
  [
    "objective.propose-wait",
    signature(
      [
        ["objective", T.ref("Objective")],
        ["condition", T.json],
        ["reason", T.string],
      ],
      ["objective", "condition", "reason"],
      OBJECTIVE_RESULT,
    ),
  ],
  [
    "objective.propose-completion",
    signature(
      [
        ["objective", T.ref("Objective")],
        ["outcome", T.ref("Outcome")],
      ],
      ["objective", "outcome"],
      OBJECTIVE_RESULT,
    ),
  ],
]);

const MORPHZ_RUNTIME = structural([
  ["agent", T.ref("Agent")],
  ["capabilities", T.ref("CapabilitySet")],
  ["context", T.ref("Context")],
  ["evaluation", T.ref("Evaluation")],
  ["execution_target", T.option(T.ref("ExecutionTarget"))],
  ["harness", T.option(T.ref("HarnessBinding"))],
  ["objective", T.option(T.ref("Objective"))],
  ["principal", T.option(T.ref("Principal"))],
]);

/** The Morphz runtime profile with the given tools (§10). The default analysis profile. */
export function morphzProfile(tools: ReadonlyMap<string, ToolEntry> = new Map()): AnalysisProfile {
  return { name: "morphz", tools, hostOperations: MORPHZ_HOST_OPERATIONS, runtime: MORPHZ_RUNTIME };
}

/** Same profile, different tools. */
export function withTools(profile: AnalysisProfile, tools: ReadonlyMap<string, ToolEntry>): AnalysisProfile {
  return { ...profile, tools };
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** §10.3: one property schema → a Yao type. */
export function schemaPropertyType(schema: unknown): YaoType {
  if (!isObject(schema)) return T.json;
  switch (schema["type"]) {
    case "null":
      return T.nil;
    case "boolean":
      return T.bool;
    case "integer":
      return T.int;
    case "number":
      return T.float;
    case "string":
      return T.string;
    case "array":
      return T.list(schema["items"] === undefined ? T.json : schemaPropertyType(schema["items"]));
    case "object":
      return T.map(T.json);
    default:
      return T.json;
  }
}

/**
 * §10.3: a tool input schema → signature, or an error text when the schema is not
 * `{"type":"object","properties":{…}}` (the offline check's rule).
 */
export function signatureFromSchema(tool: string, schema: unknown): Signature | string {
  if (!isObject(schema) || schema["type"] !== "object" || !isObject(schema["properties"])) {
    return `Tool '${tool}' needs an object JSON input schema with properties`;
  }
  const props = schema["properties"];
  const args = new Map<string, YaoType>();
  for (const key of Object.keys(props)) args.set(key, schemaPropertyType(props[key]));
  const req = Array.isArray(schema["required"])
    ? schema["required"].filter((r): r is string => typeof r === "string")
    : [];
  return { arguments: args, required: [...new Set(req)], result: T.json };
}

/**
 * Tools of an offline check: every manifest tool is available; its signature comes from `schemas`
 * when one is given, else it is dynamic.
 */
export function toolsFromManifest(
  names: readonly string[],
  schemas: Readonly<Record<string, unknown>> = {},
): { tools: Map<string, ToolEntry>; errors: string[] } {
  const tools = new Map<string, ToolEntry>();
  const errors: string[] = [];
  for (const name of names) {
    const schema = Object.hasOwn(schemas, name) ? schemas[name] : undefined;
    if (schema === undefined) {
      tools.set(name, { available: true, signature: DYNAMIC_SIGNATURE });
      continue;
    }
    const sig = signatureFromSchema(name, schema);
    if (typeof sig === "string") errors.push(sig);
    else tools.set(name, { available: true, signature: sig });
  }
  return { tools, errors };
}

/**
 * The profile `yaoc ir`, `profile`, `admit` and `run` analyse a program under: the named tools (a
 * package's manifest tools; every tool of `schemas` when none are named, as for a lone program),
 * each typed by its schema when one is given, and an error text for each schema that cannot be
 * typed (those commands refuse it as a usage error).
 */
export function programProfile(
  names: readonly string[],
  schemas: Readonly<Record<string, unknown>> = {},
): { profile: AnalysisProfile; errors: string[] } {
  const built = toolsFromManifest(names.length > 0 ? names : Object.keys(schemas), schemas);
  return { profile: morphzProfile(built.tools), errors: built.errors };
}

/**
 * The profile of the reference's sema unit tests (morphz-fixtures INDEX.json): tools `read{path:String
 * required}` and dynamic `search`; hosts `objective.report{objective}` → Nil and
 * `context.propose{transaction}` → Json; `runtime` = {objective: Ref Objective, context: Ref Context}.
 */
export function semaTestProfile(): AnalysisProfile {
  return {
    name: "sema-test",
    tools: new Map<string, ToolEntry>([
      ["read", { available: true, signature: signature([["path", T.string]], ["path"], T.json) }],
      ["search", { available: true, signature: DYNAMIC_SIGNATURE }],
    ]),
    hostOperations: new Map([
      ["objective.report", signature([["objective", T.ref("Objective")]], ["objective"], T.nil)],
      ["context.propose", signature([["transaction", T.contextTransaction]], ["transaction"], T.json)],
    ]),
    runtime: structural([
      ["context", T.ref("Context")],
      ["objective", T.ref("Objective")],
    ]),
  };
}
