/**
 * Checking a value against a Yao type (`decode`, `is`, host completions) as the reference's
 * `decode_value` does, and the plain-JSON adapters (`from-json`, `to-json`, typed `infer` results):
 * records ↔ objects, unions ↔ `{"case":V,"fields":{…}}`, Option ↔ `{"case":"none"|"some"}`,
 * Result ↔ `{"case":"ok"|"err","value":…}`, Json opaque. Both are iterative over the value only as
 * deep as the type, which the analyzer bounds.
 */
import type { SourceSpan } from "../../ir/span.js";
import type { FieldDefinition, TypeDefinition, YaoType } from "../../ir/yao-ir-0.1.js";
import { debugType } from "../yao/debug.js";
import { failure } from "./failures.js";
import { valueText } from "./value-text.js";
import {
  isObject,
  optionNone,
  optionSome,
  resultOf,
  structuralFields,
  structuralRecord,
  tagged,
  yaoTag,
  type Value,
  type ValueObject,
} from "./values.js";

export type TypeTable = ReadonlyMap<string, TypeDefinition>;

const MAX_SHOWN = 200;

function shown(v: Value): string {
  const t = valueText(v);
  return t.length > MAX_SHOWN ? `${t.slice(0, MAX_SHOWN)}…` : t;
}

function mismatch(target: YaoType, value: Value, span: SourceSpan | undefined): never {
  throw failure("value", `value ${shown(value)} does not satisfy ${debugType(target)}`, span);
}

const isInt = (v: Value): v is bigint => typeof v === "bigint";
const isNumber = (v: Value): boolean => typeof v === "bigint" || typeof v === "number";

/** The tag object when `v` is exactly `{"$yao":{…}}`. */
function soleTag(v: Value): ValueObject | undefined {
  return isObject(v) && v.size === 1 ? yaoTag(v) : undefined;
}

function isRefOf(v: Value, kind: string | undefined): boolean {
  const t = yaoTag(v);
  return (
    t !== undefined &&
    t.get("kind") === "ref" &&
    typeof t.get("id") === "string" &&
    (kind === undefined ? typeof t.get("ref_kind") === "string" : t.get("ref_kind") === kind)
  );
}

function refsOf(v: Value | undefined, kind: string): boolean {
  return Array.isArray(v) && v.every((r) => isRefOf(r, kind));
}

/** The sealed candidates: exact field sets, Evidence references only (eval.rs `*_view`). */
function isCandidate(kind: "evidence_candidate" | "outcome_candidate" | "context_transaction", v: Value): boolean {
  const t = soleTag(v);
  if (t === undefined || t.get("kind") !== kind) return false;
  if (kind === "evidence_candidate") {
    const k = t.get("evidence_kind");
    return t.size === 4 && typeof k === "string" && k !== "" && t.has("value") && refsOf(t.get("refs"), "Evidence");
  }
  if (kind === "outcome_candidate") {
    const s = t.get("status");
    return (
      t.size === 4 &&
      (s === "succeeded" || s === "failed" || s === "blocked") &&
      t.has("value") &&
      refsOf(t.get("evidence"), "Evidence")
    );
  }
  const source = t.get("canonical_source");
  return (
    t.size === 3 &&
    isRefOf(t.get("context") ?? null, "Context") &&
    typeof source === "string" &&
    /^\(context-tx[\s)]/.test(source)
  );
}

/** Validate a value against a type (`decode`), returning the normalised value or throwing a value failure. */
export function decodeValue(target: YaoType, value: Value, types: TypeTable, span?: SourceSpan): Value {
  switch (target.kind) {
    case "json":
      return value;
    case "nil":
      return value === null ? value : mismatch(target, value, span);
    case "bool":
      return typeof value === "boolean" ? value : mismatch(target, value, span);
    case "int":
      return isInt(value) ? value : mismatch(target, value, span);
    case "float":
      return isNumber(value) ? value : mismatch(target, value, span);
    case "string":
    case "bytes":
      return typeof value === "string" ? value : mismatch(target, value, span);
    case "list":
      if (!Array.isArray(value)) return mismatch(target, value, span);
      return value.map((v) => decodeValue(target.value, v, types, span));
    case "map": {
      if (!isObject(value)) return mismatch(target, value, span);
      const out = new Map<string, Value>();
      for (const [k, v] of value) out.set(k, decodeValue(target.value, v, types, span));
      return out;
    }
    case "structural_record": {
      const encoded = structuralFields(value);
      const names = [...target.value.keys()];
      if (encoded !== undefined) {
        const byName = new Map(encoded);
        return structuralRecord(
          names.map((n) => {
            const v = byName.get(n);
            if (v === undefined) throw failure("value", `record is missing field '${n}'`, span);
            return [n, decodeValue(target.value.get(n)!, v, types, span)] as const;
          }),
        );
      }
      if (!isObject(value)) return mismatch(target, value, span);
      const rest = new Map(value);
      const fields = names.map((n) => {
        const v = rest.get(n);
        if (v === undefined) throw failure("value", `record is missing field '${n}'`, span);
        rest.delete(n);
        return [n, decodeValue(target.value.get(n)!, v, types, span)] as const;
      });
      if (rest.size > 0) throw failure("value", `record contains unknown fields: ${[...rest.keys()].join(", ")}`, span);
      return structuralRecord(fields);
    }
    case "option":
    case "result":
      return decodeTaggedUnary(target, value, types, span);
    case "evidence_candidate":
    case "outcome_candidate":
    case "context_transaction":
      return isCandidate(target.kind, value) ? value : mismatch(target, value, span);
    case "named":
      return decodeNamed(target.value, value, types, span);
    case "ref":
      return isRefOf(value, target.value) ? value : mismatch(target, value, span);
    case "program": {
      const t = yaoTag(value);
      return t?.get("kind") === "program" && typeof t.get("hash") === "string" ? value : mismatch(target, value, span);
    }
  }
}

function decodeTaggedUnary(target: YaoType, value: Value, types: TypeTable, span: SourceSpan | undefined): Value {
  const t = yaoTag(value);
  if (t === undefined || t.get("kind") !== target.kind) return mismatch(target, value, span);
  const variant = t.get("variant");
  if (target.kind === "option") {
    if (variant === "none") return value;
    if (variant !== "some") return mismatch(target, value, span);
    const inner = t.get("value");
    if (inner === undefined) throw failure("value", "some value is missing its payload", span);
    decodeValue(target.value, inner, types, span);
    return value;
  }
  if (target.kind !== "result") return mismatch(target, value, span);
  const payload = t.get("value");
  if (payload === undefined) throw failure("value", "Result value is missing its payload", span);
  if (variant === "ok") decodeValue(target.value.ok, payload, types, span);
  else if (variant === "err") decodeValue(target.value.error, payload, types, span);
  else return mismatch(target, value, span);
  return value;
}

function decodeNamed(name: string, value: Value, types: TypeTable, span: SourceSpan | undefined): Value {
  const def = types.get(name);
  const target: YaoType = { kind: "named", value: name };
  if (def === undefined) throw failure("value", `unknown named type '${name}' during decode`, span);
  const t = yaoTag(value);
  if (t === undefined || t.get("type") !== name) return mismatch(target, value, span);
  if (def.kind === "record") {
    if (t.get("kind") !== "record") return mismatch(target, value, span);
    namedFields(def.fields, t, types, span);
    return value;
  }
  if (t.get("kind") !== "variant") return mismatch(target, value, span);
  const variant = t.get("variant");
  if (typeof variant !== "string") throw failure("value", `union '${name}' value has no variant`, span);
  const v = def.variants.find((x) => x.name === variant);
  if (v === undefined) throw failure("value", `union '${name}' has no variant '${variant}'`, span);
  namedFields(v.fields, t, types, span);
  return value;
}

function namedFields(
  defs: readonly FieldDefinition[],
  tag: ValueObject,
  types: TypeTable,
  span: SourceSpan | undefined,
) {
  const fields = tag.get("fields");
  if (!isObject(fields ?? null)) throw failure("value", "named value has no fields object", span);
  const f = fields as ValueObject;
  if (f.size !== defs.length) throw failure("value", "named value field count does not match its type", span);
  for (const d of defs) {
    const v = f.get(d.name);
    if (v === undefined) throw failure("value", `named value is missing field '${d.name}'`, span);
    decodeValue(d.ty, v, types, span);
  }
}

// ---- plain JSON adapters ----

const pathKey = (path: string, key: string): string => `${path}[${JSON.stringify(key)}]`;

function jsonKind(v: Value): string {
  if (v === null) return "null";
  if (typeof v === "boolean") return "boolean";
  if (typeof v === "bigint" || typeof v === "number") return "number";
  if (typeof v === "string") return "string";
  return Array.isArray(v) ? "array" : "object";
}

function expected(path: string, what: string, v: Value, span: SourceSpan | undefined): never {
  throw failure("value", `${path}: expected ${what}, found ${jsonKind(v)}`, span);
}

function plainObject(v: Value, path: string, span: SourceSpan | undefined): ValueObject {
  if (!isObject(v)) expected(path, "object", v, span);
  return v as ValueObject;
}

/** Exactly the named members: missing ones and extra ones fail with their path. */
function exactMembers(
  o: ValueObject,
  names: readonly string[],
  path: string,
  span: SourceSpan | undefined,
  optional: ReadonlySet<string> = new Set(),
): void {
  for (const n of names)
    if (!o.has(n) && !optional.has(n)) throw failure("value", `${pathKey(path, n)}: missing required field`, span);
  const allowed = new Set(names);
  for (const k of o.keys()) if (!allowed.has(k)) throw failure("value", `${pathKey(path, k)}: unknown field`, span);
}

function caseOf(o: ValueObject, cases: readonly string[], path: string, span: SourceSpan | undefined): string {
  const c = o.get("case");
  if (c === undefined) throw failure("value", `${pathKey(path, "case")}: missing required field`, span);
  if (typeof c !== "string") expected(pathKey(path, "case"), "String", c, span);
  if (!cases.includes(c as string))
    throw failure(
      "value",
      `${pathKey(path, "case")}: unknown case '${c as string}', expected one of ${cases.join(", ")}`,
      span,
    );
  return c as string;
}

/** `from-json` and typed `infer` results: plain JSON into a Yao value, with a JSONPath-like error path. */
export function fromPlainJson(target: YaoType, v: Value, types: TypeTable, span?: SourceSpan, path = "$"): Value {
  switch (target.kind) {
    case "json":
      return v;
    case "nil":
      return v === null ? v : expected(path, "null", v, span);
    case "bool":
      return typeof v === "boolean" ? v : expected(path, "Bool", v, span);
    case "int":
      return typeof v === "bigint" ? v : expected(path, "Int", v, span);
    case "float":
      if (typeof v === "number") return v;
      return typeof v === "bigint" ? Number(v) : expected(path, "Float", v, span);
    case "string":
    case "bytes":
      return typeof v === "string" ? v : expected(path, "String", v, span);
    case "list":
      if (!Array.isArray(v)) return expected(path, "array", v, span);
      return v.map((x, i) => fromPlainJson(target.value, x, types, span, `${path}[${i}]`));
    case "map": {
      const o = plainObject(v, path, span);
      const out = new Map<string, Value>();
      for (const [k, x] of o) out.set(k, fromPlainJson(target.value, x, types, span, pathKey(path, k)));
      return out;
    }
    case "structural_record": {
      const o = plainObject(v, path, span);
      const names = [...target.value.keys()];
      exactMembers(o, names, path, span);
      return structuralRecord(
        names.map((n) => [n, fromPlainJson(target.value.get(n)!, o.get(n)!, types, span, pathKey(path, n))] as const),
      );
    }
    case "option": {
      const o = plainObject(v, path, span);
      const c = caseOf(o, ["none", "some"], path, span);
      if (c === "none") {
        exactMembers(o, ["case"], path, span);
        return optionNone();
      }
      exactMembers(o, ["case", "value"], path, span);
      return optionSome(fromPlainJson(target.value, o.get("value")!, types, span, pathKey(path, "value")));
    }
    case "result": {
      const o = plainObject(v, path, span);
      const c = caseOf(o, ["ok", "err"], path, span) as "ok" | "err";
      exactMembers(o, ["case", "value"], path, span);
      const t = c === "ok" ? target.value.ok : target.value.error;
      return resultOf(c, fromPlainJson(t, o.get("value")!, types, span, pathKey(path, "value")));
    }
    case "named": {
      const def = types.get(target.value);
      if (def === undefined) throw failure("value", `${path}: unknown JSON type '${target.value}'`, span);
      const o = plainObject(v, path, span);
      if (def.kind === "record") {
        return tagged([
          ["kind", "record"],
          ["type", def.name],
          ["fields", plainFields(def.fields, o, types, path, span)],
        ]);
      }
      const c = caseOf(
        o,
        def.variants.map((x) => x.name),
        path,
        span,
      );
      exactMembers(o, ["case", "fields"], path, span);
      const variant = def.variants.find((x) => x.name === c)!;
      const fields = plainObject(o.get("fields")!, pathKey(path, "fields"), span);
      return tagged([
        ["kind", "variant"],
        ["type", def.name],
        ["fields", plainFields(variant.fields, fields, types, pathKey(path, "fields"), span)],
        ["variant", c],
      ]);
    }
    default:
      // Ref, Program and the sealed candidates never cross a plain JSON boundary (the analyzer
      // rejects them statically); a persisted IR that asks for one is refused here too.
      throw failure(
        "value",
        `${path}: ${debugType(target)} cannot cross an ordinary JSON boundary; authority-bearing values require Runtime admission`,
        span,
      );
  }
}

function plainFields(
  defs: readonly FieldDefinition[],
  o: ValueObject,
  types: TypeTable,
  path: string,
  span: SourceSpan | undefined,
): ValueObject {
  exactMembers(
    o,
    defs.map((d) => d.name),
    path,
    span,
  );
  const out = new Map<string, Value>();
  for (const d of defs) out.set(d.name, fromPlainJson(d.ty, o.get(d.name)!, types, span, pathKey(path, d.name)));
  return out;
}

/** `to-json`: a value of static type `type` as plain JSON. */
export function toPlainJson(type: YaoType, v: Value, types: TypeTable, span?: SourceSpan): Value {
  switch (type.kind) {
    case "list":
      return Array.isArray(v) ? v.map((x) => toPlainJson(type.value, x, types, span)) : mismatch(type, v, span);
    case "map": {
      if (!isObject(v)) return mismatch(type, v, span);
      const out = new Map<string, Value>();
      for (const [k, x] of v) out.set(k, toPlainJson(type.value, x, types, span));
      return out;
    }
    case "structural_record": {
      const fields = structuralFields(v);
      if (fields === undefined) return mismatch(type, v, span);
      const out = new Map<string, Value>();
      for (const [k, x] of fields) {
        const t = type.value.get(k);
        if (t !== undefined) out.set(k, toPlainJson(t, x, types, span));
      }
      return out;
    }
    case "option": {
      const t = yaoTag(v);
      if (t?.get("variant") === "some")
        return new Map<string, Value>([
          ["case", "some"],
          ["value", toPlainJson(type.value, t.get("value") ?? null, types, span)],
        ]);
      return new Map<string, Value>([["case", "none"]]);
    }
    case "result": {
      const t = yaoTag(v);
      const ok = t?.get("variant") === "ok";
      return new Map<string, Value>([
        ["case", ok ? "ok" : "err"],
        ["value", toPlainJson(ok ? type.value.ok : type.value.error, t?.get("value") ?? null, types, span)],
      ]);
    }
    case "named": {
      const def = types.get(type.value);
      const t = yaoTag(v);
      const fields = t?.get("fields");
      if (def === undefined || t === undefined || !isObject(fields ?? null)) return mismatch(type, v, span);
      const f = fields as ValueObject;
      const defs = def.kind === "record" ? def.fields : def.variants.find((x) => x.name === t.get("variant"))?.fields;
      if (defs === undefined) return mismatch(type, v, span);
      const plain = new Map<string, Value>();
      for (const d of defs) plain.set(d.name, toPlainJson(d.ty, f.get(d.name) ?? null, types, span));
      if (def.kind === "record") return plain;
      return new Map<string, Value>([
        ["case", t.get("variant") as string],
        ["fields", plain],
      ]);
    }
    default:
      return v;
  }
}
