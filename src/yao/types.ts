/**
 * Yao types and effects: constructors, structural equality, assignability and common types
 * (yao-v0.1.md §3.4) and the effect order (§6.1).
 */
import type { Effect, EffectSet, SimpleTypeKind, YaoType } from "../../ir/yao-ir-0.1.js";
import { compareCodePoints } from "./text.js";

const simple = (kind: SimpleTypeKind): YaoType => Object.freeze({ kind });

export const T = {
  nil: simple("nil"),
  bool: simple("bool"),
  int: simple("int"),
  float: simple("float"),
  string: simple("string"),
  bytes: simple("bytes"),
  json: simple("json"),
  evidenceCandidate: simple("evidence_candidate"),
  outcomeCandidate: simple("outcome_candidate"),
  contextTransaction: simple("context_transaction"),
  list: (value: YaoType): YaoType => ({ kind: "list", value }),
  map: (value: YaoType): YaoType => ({ kind: "map", value }),
  option: (value: YaoType): YaoType => ({ kind: "option", value }),
  result: (ok: YaoType, error: YaoType): YaoType => ({ kind: "result", value: { ok, error } }),
  ref: (kind: string): YaoType => ({ kind: "ref", value: kind }),
  named: (name: string): YaoType => ({ kind: "named", value: name }),
  program: (output: YaoType, effects: EffectSet): YaoType => ({ kind: "program", value: { output, effects } }),
  structural: (fields: ReadonlyMap<string, YaoType>): YaoType => ({ kind: "structural_record", value: fields }),
} as const;

/**
 * The recovery type after an error (an unknown type name, a function whose parameters could not be
 * read): it is assignable to and from every type, so one root cause yields one error and nothing
 * downstream. Its name is not an identifier, so no declared type can collide with it. It never
 * reaches a valid program: any recorded error makes the package invalid.
 */
export const ERROR_TYPE: YaoType = Object.freeze({ kind: "named", value: "{error}" }) as YaoType;

export function isErrorType(t: YaoType): boolean {
  return t.kind === "named" && t.value === "{error}";
}

/** True when `t` mentions the recovery type anywhere (a (List {error}) is as unknown as {error}). */
export function mentionsErrorType(t: YaoType): boolean {
  switch (t.kind) {
    case "named":
      return isErrorType(t);
    case "list":
    case "map":
    case "option":
      return mentionsErrorType(t.value);
    case "result":
      return mentionsErrorType(t.value.ok) || mentionsErrorType(t.value.error);
    case "structural_record":
      return [...t.value.values()].some(mentionsErrorType);
    case "program":
      return mentionsErrorType(t.value.output);
    default:
      return false;
  }
}

/** Source spelling of the simple types (§3.1). */
export const SIMPLE_TYPE_NAMES: ReadonlyMap<string, YaoType> = new Map([
  ["Nil", T.nil],
  ["Bool", T.bool],
  ["Int", T.int],
  ["Float", T.float],
  ["String", T.string],
  ["Bytes", T.bytes],
  ["Json", T.json],
  ["EvidenceCandidate", T.evidenceCandidate],
  ["OutcomeCandidate", T.outcomeCandidate],
  ["ContextTransaction", T.contextTransaction],
]);

/** Names a `(types ...)` declaration may not take (§3.2). */
export const RESERVED_TYPE_NAMES: ReadonlySet<string> = new Set([
  ...SIMPLE_TYPE_NAMES.keys(),
  "List",
  "Map",
  "Option",
  "Result",
  "Ref",
  "Program",
]);

export function typeEquals(a: YaoType, b: YaoType): boolean {
  if (a === b || isErrorType(a) || isErrorType(b)) return true;
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case "list":
    case "map":
    case "option":
      return typeEquals(a.value, (b as typeof a).value);
    case "ref":
    case "named":
      return a.value === (b as typeof a).value;
    case "result": {
      const o = (b as typeof a).value;
      return typeEquals(a.value.ok, o.ok) && typeEquals(a.value.error, o.error);
    }
    case "structural_record": {
      const o = (b as typeof a).value;
      if (a.value.size !== o.size) return false;
      for (const [k, t] of a.value) {
        const u = o.get(k);
        if (u === undefined || !typeEquals(t, u)) return false;
      }
      return true;
    }
    case "program": {
      const o = (b as typeof a).value;
      return typeEquals(a.value.output, o.output) && effectSetEquals(a.value.effects, o.effects);
    }
    default:
      return true;
  }
}

/** `actual ≤ target` (§3.4). Named types are nominal; a named record is not a structural record. */
export function isAssignable(actual: YaoType, target: YaoType): boolean {
  if (target.kind === "json" || typeEquals(actual, target)) return true;
  if (isErrorType(actual)) return true;
  if (actual.kind === "int" && target.kind === "float") return true;
  switch (actual.kind) {
    case "list":
    case "map":
    case "option":
      return target.kind === actual.kind && isAssignable(actual.value, (target as typeof actual).value);
    case "result":
      return (
        target.kind === "result" &&
        isAssignable(actual.value.ok, target.value.ok) &&
        isAssignable(actual.value.error, target.value.error)
      );
    case "structural_record":
      if (target.kind !== "structural_record") return false;
      for (const [k, t] of target.value) {
        const a = actual.value.get(k);
        if (a === undefined || !isAssignable(a, t)) return false;
      }
      return true;
    case "program":
      return (
        target.kind === "program" &&
        isAssignable(actual.value.output, target.value.output) &&
        isEffectSubset(actual.value.effects, target.value.effects)
      );
    default:
      return false;
  }
}

/** `common(a, b)`: the wider of the two when one is assignable to the other. */
export function commonType(a: YaoType, b: YaoType): YaoType | undefined {
  if (isErrorType(a)) return b;
  if (isErrorType(b)) return a;
  if (isAssignable(a, b)) return b;
  if (isAssignable(b, a)) return a;
  return undefined;
}

export function isNumeric(t: YaoType): boolean {
  return t.kind === "int" || t.kind === "float" || isErrorType(t);
}

// ---- effects ----

const EFFECT_RANK = { infer: 0, tool: 1, host: 2, program: 3 } as const;

export function compareEffects(a: Effect, b: Effect): number {
  const r = EFFECT_RANK[a.kind] - EFFECT_RANK[b.kind];
  if (r !== 0) return r;
  if (a.kind === "tool" || a.kind === "host") return compareCodePoints(a.name, (b as typeof a).name);
  if (a.kind === "program") return compareEffectSets(a.name, (b as typeof a).name);
  return 0;
}

function compareEffectSets(a: EffectSet, b: EffectSet): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compareEffects(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

export function effectEquals(a: Effect, b: Effect): boolean {
  return compareEffects(a, b) === 0;
}

export function effectSetEquals(a: EffectSet, b: EffectSet): boolean {
  return compareEffectSets(a, b) === 0;
}

export const NO_EFFECTS: EffectSet = Object.freeze([]);

/** Sort and de-duplicate. */
export function effectSet(effects: Iterable<Effect>): EffectSet {
  const sorted = [...effects].sort(compareEffects);
  const out: Effect[] = [];
  for (const e of sorted) if (out.length === 0 || !effectEquals(out[out.length - 1]!, e)) out.push(e);
  return out;
}

export function unionEffects(...sets: readonly EffectSet[]): EffectSet {
  const nonEmpty = sets.filter((s) => s.length > 0);
  if (nonEmpty.length === 0) return NO_EFFECTS;
  if (nonEmpty.length === 1) return nonEmpty[0]!;
  return effectSet(nonEmpty.flat());
}

export function isEffectSubset(a: EffectSet, b: EffectSet): boolean {
  return a.every((e) => b.some((f) => effectEquals(e, f)));
}

export function effectDifference(a: EffectSet, b: EffectSet): EffectSet {
  return a.filter((e) => !b.some((f) => effectEquals(e, f)));
}
