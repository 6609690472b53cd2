/**
 * Reading persisted typed-IR programs (yao-v0.1.md §9.9). Like the reference, unknown keys inside a
 * `kind` object are rejected and unknown keys elsewhere are dropped; the legacy `reference.path` is
 * kept exactly as read (even `[]`) so v0.1.2 program hashes survive re-serialisation.
 *
 * Input nesting is capped by the JSON reader, so the recursive descent here stays bounded.
 */
import type {
  Effect,
  FieldDefinition,
  HirExpr,
  HirKind,
  Literal,
  NamedArgument,
  OutcomeStatus,
  PureOperator,
  Requirements,
  TypeDefinition,
  YaoProgram,
  YaoType,
} from "../../ir/yao-ir-0.1.js";
import type { SourceSpan } from "../../ir/span.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { diagnostic } from "./codes.js";
import { escapePointerToken } from "../json/pointer.js";
import { programHash } from "./ir-json.js";
import { JObject, IrJsonError, parseIrJson, type JValue } from "./json-text.js";
import { effectSet } from "./types.js";

/** JSON nesting a linked program can legitimately reach is far below this. */
export const MAX_IR_JSON_DEPTH = 2048;

class IrError extends Error {
  constructor(
    readonly pointer: string,
    message: string,
  ) {
    super(message);
  }
}

type Path = string;

function obj(v: JValue | undefined, p: Path): JObject {
  if (!(v instanceof JObject)) throw new IrError(p, "expected an object");
  return v;
}
function arr(v: JValue | undefined, p: Path): JValue[] {
  if (!Array.isArray(v)) throw new IrError(p, "expected an array");
  return v;
}
function str(v: JValue | undefined, p: Path): string {
  if (typeof v !== "string") throw new IrError(p, "expected a string");
  return v;
}
function int(v: JValue | undefined, p: Path): bigint {
  if (typeof v !== "bigint") throw new IrError(p, "expected an integer");
  return v;
}
function num(v: JValue | undefined, p: Path): number {
  const i = int(v, p);
  if (i < 0n || i > BigInt(Number.MAX_SAFE_INTEGER)) throw new IrError(p, "position out of range");
  return Number(i);
}
const at = (o: JObject, key: string, _p: Path): JValue | undefined => o.get(key);
const field = (p: Path, key: string | number): Path =>
  `${p}/${typeof key === "number" ? key : escapePointerToken(key)}`;

/** The file name decoded spans carry when the caller does not say where the program came from. */
export const PERSISTED_PROGRAM = "<persisted program>";

/**
 * Persisted IR records positions but not file names (§9.9); decoded spans name the file the program
 * was read from, so every HIR span is a `SourceSpan` whichever way it was produced. Set by
 * `decodeProgram` for the duration of one (synchronous) decode.
 */
let decodingFile = PERSISTED_PROGRAM;

function span(v: JValue | undefined, p: Path): SourceSpan {
  const o = obj(v, p);
  const loc = (x: JValue | undefined, q: Path) => {
    const l = obj(x, q);
    return {
      byte: num(l.get("byte"), field(q, "byte")),
      line: num(l.get("line"), field(q, "line")),
      column: num(l.get("column"), field(q, "column")),
    };
  };
  return { file: decodingFile, start: loc(o.get("start"), field(p, "start")), end: loc(o.get("end"), field(p, "end")) };
}

const SIMPLE = new Set([
  "nil",
  "bool",
  "int",
  "float",
  "string",
  "bytes",
  "json",
  "evidence_candidate",
  "outcome_candidate",
  "context_transaction",
]);

function type(v: JValue | undefined, p: Path): YaoType {
  const o = obj(v, p);
  const kind = str(o.get("kind"), field(p, "kind"));
  const value = o.get("value");
  const vp = field(p, "value");
  if (SIMPLE.has(kind)) return { kind } as YaoType;
  switch (kind) {
    case "list":
    case "map":
    case "option":
      return { kind, value: type(value, vp) };
    case "structural_record": {
      const fields = new Map<string, YaoType>();
      for (const [k, t] of obj(value, vp).entries) fields.set(k, type(t, field(vp, k)));
      return { kind, value: fields };
    }
    case "result": {
      const r = obj(value, vp);
      return {
        kind,
        value: { ok: type(r.get("ok"), field(vp, "ok")), error: type(r.get("error"), field(vp, "error")) },
      };
    }
    case "ref":
    case "named":
      return { kind, value: str(value, vp) };
    case "program": {
      const r = obj(value, vp);
      return {
        kind,
        value: {
          output: type(r.get("output"), field(vp, "output")),
          effects: effects(r.get("effects"), field(vp, "effects")),
        },
      };
    }
    default:
      throw new IrError(field(p, "kind"), `unknown type kind '${kind}'`);
  }
}

function effect(v: JValue | undefined, p: Path): Effect {
  const o = obj(v, p);
  const kind = str(o.get("kind"), field(p, "kind"));
  if (kind === "infer") return { kind };
  if (kind === "tool" || kind === "host") return { kind, name: str(o.get("name"), field(p, "name")) };
  if (kind === "program") return { kind, name: effects(o.get("name"), field(p, "name")) };
  throw new IrError(field(p, "kind"), `unknown effect kind '${kind}'`);
}

function effects(v: JValue | undefined, p: Path): Effect[] {
  const list = arr(v, p).map((e, i) => effect(e, field(p, i)));
  // Effect sets are ordered and duplicate-free; a persisted set that is not cannot be trusted.
  if (effectSet(list).length !== list.length) throw new IrError(p, "effect set is not ordered and duplicate-free");
  return list;
}

function literal(v: JValue | undefined, p: Path): Literal {
  const o = obj(v, p);
  const kind = str(o.get("kind"), field(p, "kind"));
  const value = o.get("value");
  const vp = field(p, "value");
  switch (kind) {
    case "nil":
      return { kind };
    case "bool":
      if (typeof value !== "boolean") throw new IrError(vp, "expected a boolean");
      return { kind, value };
    case "int": {
      const i = int(value, vp);
      if (i < -(2n ** 63n) || i >= 2n ** 63n) throw new IrError(vp, "Int literal out of i64 range");
      return { kind, value: i };
    }
    case "float":
    case "string":
      return { kind, value: str(value, vp) };
    default:
      throw new IrError(field(p, "kind"), `unknown literal kind '${kind}'`);
  }
}

const KIND_FIELDS: Record<string, readonly string[]> = {
  literal: ["value"],
  reference: ["root", "path"],
  list: ["elements"],
  dict: ["entries"],
  from_json: ["target", "value"],
  to_json: ["value"],
  record: ["type_name", "fields"],
  variant: ["type_name", "variant", "fields"],
  option_some: ["value"],
  option_none: ["inner"],
  result_ok: ["value", "error"],
  result_err: ["value", "ok"],
  evidence_candidate: ["kind", "value", "refs"],
  outcome_candidate: ["status", "value", "evidence"],
  context_transaction: ["context", "canonical_source"],
  get: ["value", "field"],
  decode: ["target", "value"],
  is: ["target", "value"],
  pure: ["operator", "operands"],
  seq: ["steps"],
  bind: ["name", "value"],
  if: ["condition", "when_true", "when_false"],
  match: ["value", "cases"],
  fallback: ["primary", "backup"],
  map: ["collection", "element", "body"],
  call: ["tool", "arguments"],
  function_application: ["function", "arguments", "parameters", "body"],
  infer_body: ["body", "captures", "result", "source"],
  par: ["branches"],
  run: ["program"],
  host: ["operation", "arguments"],
};

const OPERATORS = new Set([
  "equal",
  "not_equal",
  "less",
  "less_equal",
  "greater",
  "greater_equal",
  "and",
  "or",
  "not",
  "add",
  "subtract",
  "multiply",
  "divide",
]);

function strings(v: JValue | undefined, p: Path): string[] {
  return arr(v, p).map((x, i) => str(x, field(p, i)));
}

function pairs(v: JValue | undefined, p: Path): (readonly [string, HirExpr])[] {
  return arr(v, p).map((e, i) => {
    const q = field(p, i);
    const pair = arr(e, q);
    if (pair.length !== 2) throw new IrError(q, "expected a [name, expression] pair");
    return [str(pair[0], field(q, 0)), expr(pair[1], field(q, 1))] as const;
  });
}

function namedArguments(v: JValue | undefined, p: Path): NamedArgument[] {
  return arr(v, p).map((a, i) => {
    const q = field(p, i);
    const o = obj(a, q);
    return {
      name: str(o.get("name"), field(q, "name")),
      values: arr(o.get("values"), field(q, "values")).map((x, j) => expr(x, field(field(q, "values"), j))),
      span: span(o.get("span"), field(q, "span")),
    };
  });
}

function kind(v: JValue | undefined, p: Path): HirKind {
  const o = obj(v, p);
  const op = str(o.get("op"), field(p, "op"));
  const allowed = KIND_FIELDS[op];
  if (allowed === undefined || !Object.hasOwn(KIND_FIELDS, op)) throw new IrError(field(p, "op"), `unknown op '${op}'`);
  for (const [k] of o.entries)
    if (k !== "op" && !allowed.includes(k)) throw new IrError(field(p, k), `unknown field '${k}' in op '${op}'`);
  const g = (k: string) => at(o, k, p);
  const f = (k: string) => field(p, k);
  const e = (k: string) => expr(g(k), f(k));
  const es = (k: string) => arr(g(k), f(k)).map((x, i) => expr(x, field(f(k), i)));
  switch (op) {
    case "literal":
      return { op, value: literal(g("value"), f("value")) };
    case "reference":
      return o.has("path")
        ? { op, root: str(g("root"), f("root")), path: strings(g("path"), f("path")) }
        : { op, root: str(g("root"), f("root")) };
    case "list":
      return { op, elements: es("elements") };
    case "dict":
      return { op, entries: pairs(g("entries"), f("entries")) };
    case "from_json":
    case "decode":
    case "is":
      return { op, target: type(g("target"), f("target")), value: e("value") };
    case "to_json":
    case "option_some":
      return { op, value: e("value") };
    case "record":
      return { op, type_name: str(g("type_name"), f("type_name")), fields: pairs(g("fields"), f("fields")) };
    case "variant":
      return {
        op,
        type_name: str(g("type_name"), f("type_name")),
        variant: str(g("variant"), f("variant")),
        fields: pairs(g("fields"), f("fields")),
      };
    case "option_none":
      return { op, inner: type(g("inner"), f("inner")) };
    case "result_ok":
      return { op, value: e("value"), error: type(g("error"), f("error")) };
    case "result_err":
      return { op, value: e("value"), ok: type(g("ok"), f("ok")) };
    case "evidence_candidate":
      return { op, kind: e("kind"), value: e("value"), refs: es("refs") };
    case "outcome_candidate": {
      const status = str(g("status"), f("status"));
      if (status !== "succeeded" && status !== "failed" && status !== "blocked")
        throw new IrError(f("status"), `unknown outcome status '${status}'`);
      return { op, status: status as OutcomeStatus, value: e("value"), evidence: es("evidence") };
    }
    case "context_transaction":
      return { op, context: e("context"), canonical_source: str(g("canonical_source"), f("canonical_source")) };
    case "get":
      return { op, value: e("value"), field: str(g("field"), f("field")) };
    case "pure": {
      const operator = str(g("operator"), f("operator"));
      if (!OPERATORS.has(operator)) throw new IrError(f("operator"), `unknown operator '${operator}'`);
      return { op, operator: operator as PureOperator, operands: es("operands") };
    }
    case "seq":
      return { op, steps: es("steps") };
    case "bind":
      return { op, name: str(g("name"), f("name")), value: e("value") };
    case "if":
      return { op, condition: e("condition"), when_true: e("when_true"), when_false: e("when_false") };
    case "match":
      return {
        op,
        value: e("value"),
        cases: arr(g("cases"), f("cases")).map((c, i) => {
          const q = field(f("cases"), i);
          const co = obj(c, q);
          return {
            variant: str(co.get("variant"), field(q, "variant")),
            bindings: arr(co.get("bindings"), field(q, "bindings")).map((b, j) => {
              const bq = field(field(q, "bindings"), j);
              const bo = obj(b, bq);
              return {
                field: str(bo.get("field"), field(bq, "field")),
                binding: str(bo.get("binding"), field(bq, "binding")),
              };
            }),
            body: expr(co.get("body"), field(q, "body")),
            span: span(co.get("span"), field(q, "span")),
          };
        }),
      };
    case "fallback":
      return { op, primary: e("primary"), backup: e("backup") };
    case "map":
      return { op, collection: e("collection"), element: str(g("element"), f("element")), body: e("body") };
    case "call":
      return { op, tool: str(g("tool"), f("tool")), arguments: namedArguments(g("arguments"), f("arguments")) };
    case "function_application":
      return {
        op,
        function: str(g("function"), f("function")),
        arguments: namedArguments(g("arguments"), f("arguments")),
        parameters: strings(g("parameters"), f("parameters")),
        body: e("body"),
      };
    case "infer_body":
      return {
        op,
        body: e("body"),
        captures: o.has("captures") ? strings(g("captures"), f("captures")) : [],
        result: type(g("result"), f("result")),
        source: str(g("source"), f("source")),
      };
    case "par":
      return {
        op,
        branches: arr(g("branches"), f("branches")).map((b, i) => {
          const q = field(f("branches"), i);
          const bo = obj(b, q);
          return {
            name: str(bo.get("name"), field(q, "name")),
            body: expr(bo.get("body"), field(q, "body")),
            span: span(bo.get("span"), field(q, "span")),
          };
        }),
      };
    case "run":
      return { op, program: e("program") };
    default:
      return {
        op: "host",
        operation: str(g("operation"), f("operation")),
        arguments: namedArguments(g("arguments"), f("arguments")),
      };
  }
}

function expr(v: JValue | undefined, p: Path): HirExpr {
  const o = obj(v, p);
  return {
    kind: kind(o.get("kind"), field(p, "kind")),
    ty: type(o.get("ty"), field(p, "ty")),
    effects: effects(o.get("effects"), field(p, "effects")),
    span: span(o.get("span"), field(p, "span")),
  };
}

function fields(v: JValue | undefined, p: Path): FieldDefinition[] {
  return arr(v, p).map((x, i) => {
    const q = field(p, i);
    const o = obj(x, q);
    return {
      name: str(o.get("name"), field(q, "name")),
      ty: type(o.get("ty"), field(q, "ty")),
      span: span(o.get("span"), field(q, "span")),
    };
  });
}

function typeDefinition(v: JValue | undefined, p: Path): TypeDefinition {
  const o = obj(v, p);
  const k = str(o.get("kind"), field(p, "kind"));
  const name = str(o.get("name"), field(p, "name"));
  const s = span(o.get("span"), field(p, "span"));
  if (k === "record") return { kind: k, name, fields: fields(o.get("fields"), field(p, "fields")), span: s };
  if (k === "union") {
    const variants = arr(o.get("variants"), field(p, "variants")).map((x, i) => {
      const q = field(field(p, "variants"), i);
      const vo = obj(x, q);
      return {
        name: str(vo.get("name"), field(q, "name")),
        fields: fields(vo.get("fields"), field(q, "fields")),
        span: span(vo.get("span"), field(q, "span")),
      };
    });
    return { kind: k, name, variants, span: s };
  }
  throw new IrError(field(p, "kind"), `unknown type definition kind '${k}'`);
}

function nullableNames(v: JValue | undefined, p: Path): string[] | null {
  return v === null || v === undefined ? null : strings(v, p);
}

export function decodeProgram(v: JValue, file: string = PERSISTED_PROGRAM): YaoProgram {
  const previous = decodingFile;
  decodingFile = file;
  try {
    return decodeProgramIn(v);
  } finally {
    decodingFile = previous;
  }
}

function decodeProgramIn(v: JValue): YaoProgram {
  const o = obj(v, "");
  const req = obj(o.get("requirements"), "/requirements");
  const requirements: Requirements = {
    tools: nullableNames(req.get("tools"), "/requirements/tools"),
    effects:
      req.get("effects") === null || req.get("effects") === undefined
        ? null
        : effects(req.get("effects"), "/requirements/effects"),
    objects: nullableNames(req.get("objects"), "/requirements/objects"),
  };
  const owner = str(o.get("owner"), "/owner");
  if (owner !== "runtime" && owner !== "model") throw new IrError("/owner", `unknown owner '${owner}'`);
  const types = new Map<string, TypeDefinition>();
  for (const [k, d] of obj(o.get("types"), "/types").entries) types.set(k, typeDefinition(d, field("/types", k)));
  return {
    language_version: str(o.get("language_version"), "/language_version"),
    owner,
    requirements,
    types,
    body: expr(o.get("body"), "/body"),
    output: type(o.get("output"), "/output"),
    effects: effects(o.get("effects"), "/effects"),
    canonical_source: str(o.get("canonical_source"), "/canonical_source"),
    source_hash: str(o.get("source_hash"), "/source_hash"),
  };
}

export type PersistedProgramResult =
  | { readonly ok: true; readonly program: YaoProgram; readonly programHash: string }
  | { readonly ok: false; readonly diagnostic: Diagnostic };

/**
 * Read a persisted program (JSON text or an already parsed ordered value) and verify that its
 * recomputed `program_hash` equals the stored `source_hash`.
 */
export function readPersistedProgram(input: string | JValue, file?: string): PersistedProgramResult {
  const bad = (message: string, pointer?: string): PersistedProgramResult => ({
    ok: false,
    diagnostic: diagnostic("yao.invalid_ir", message, { file, pointer }),
  });
  let value: JValue;
  try {
    value = typeof input === "string" ? parseIrJson(input, MAX_IR_JSON_DEPTH) : input;
  } catch (e) {
    if (e instanceof IrJsonError) return bad(`persisted Yao program is not valid JSON: ${e.message}`);
    throw e;
  }
  let program: YaoProgram;
  try {
    program = decodeProgram(value, file);
  } catch (e) {
    if (e instanceof IrError)
      return bad(`persisted Yao program is not valid IR 0.1: ${e.message} at ${e.pointer || "/"}`, e.pointer);
    throw e;
  }
  const hash = programHash(program);
  if (hash !== program.source_hash) {
    return bad(
      `persisted Yao program source_hash ${program.source_hash} does not match its program_hash ${hash}`,
      "/source_hash",
    );
  }
  return { ok: true, program, programHash: hash };
}
