/**
 * The Morphz value model (yao-evaluation.md "Values"): every Yao value is JSON, and nominal and
 * internal values are tagged under `"$yao"`. In memory an Int is a `bigint` (checked i64) and a
 * Float a `number`, so `1` and `1.0` stay two values as in the reference (quirk Q5); objects are
 * `Map`s, so a field named `__proto__` is just a name.
 */
export type Value = null | boolean | bigint | number | string | readonly Value[] | ValueObject;
export type ValueObject = ReadonlyMap<string, Value>;

export const YAO_TAG = "$yao";

/**
 * How deep a value may nest (containers on its deepest path; a scalar is 0 deep): as deep as value
 * text reads back (value-text.ts), so every value the machine holds can be written into its state
 * and read again. The machine refuses to build a deeper one (a `resource` failure).
 */
export const MAX_VALUE_DEPTH = 512;

export const I64_MIN = -(2n ** 63n);
export const I64_MAX = 2n ** 63n - 1n;

export function isObject(v: Value): v is ValueObject {
  return v instanceof Map;
}

export function tagged(fields: [string, Value][]): ValueObject {
  return new Map([[YAO_TAG, new Map(fields)]]);
}

/** The `$yao` tag object of a value, if it has one. */
export function yaoTag(v: Value): ValueObject | undefined {
  if (!(v instanceof Map)) return undefined;
  const t = v.get(YAO_TAG);
  return t instanceof Map ? t : undefined;
}

export function tagKind(v: Value): string | undefined {
  const k = yaoTag(v)?.get("kind");
  return typeof k === "string" ? k : undefined;
}

export const optionSome = (value: Value): ValueObject =>
  tagged([
    ["kind", "option"],
    ["variant", "some"],
    ["value", value],
  ]);
export const optionNone = (): ValueObject =>
  tagged([
    ["kind", "option"],
    ["variant", "none"],
  ]);
export const resultOf = (variant: "ok" | "err", value: Value): ValueObject =>
  tagged([
    ["kind", "result"],
    ["variant", variant],
    ["value", value],
  ]);
export const structuralRecord = (fields: readonly (readonly [string, Value])[]): ValueObject =>
  tagged([
    ["kind", "structural_record"],
    [
      "fields",
      fields.map(
        ([name, value]) =>
          new Map<string, Value>([
            ["name", name],
            ["value", value],
          ]),
      ),
    ],
  ]);
export const refValue = (kind: string, id: string): ValueObject =>
  tagged([
    ["kind", "ref"],
    ["ref_kind", kind],
    ["id", id],
  ]);
export const programValue = (hash: string): ValueObject =>
  tagged([
    ["kind", "program"],
    ["hash", hash],
  ]);

/** Deep JSON equality (`eq`): an Int never equals a Float, object member order does not matter. */
export function valueEquals(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    // NaN never reaches here (non-finite values fail), so === is JSON equality for scalars.
    return false;
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!valueEquals(a[i]!, b[i]!)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ma = a as ValueObject;
  const mb = b as ValueObject;
  if (ma.size !== mb.size) return false;
  for (const [k, v] of ma) {
    const w = mb.get(k);
    if (w === undefined || !valueEquals(v, w)) return false;
  }
  return true;
}

/** A field of a record, variant or structural record, or a key of a plain object (`get`). */
export function readField(v: Value, field: string): Value | undefined {
  const tag = yaoTag(v);
  if (tag !== undefined) {
    const kind = tag.get("kind");
    const fields = tag.get("fields");
    if ((kind === "record" || kind === "variant") && fields instanceof Map) return fields.get(field);
    if (kind === "structural_record" && Array.isArray(fields)) {
      for (const entry of fields) if (entry instanceof Map && entry.get("name") === field) return entry.get("value");
    }
    return undefined;
  }
  return v instanceof Map ? v.get(field) : undefined;
}

/** The fields of a structural record in order, or undefined when `v` is not one. */
export function structuralFields(v: Value): [string, Value][] | undefined {
  const tag = yaoTag(v);
  if (tag?.get("kind") !== "structural_record") return undefined;
  const fields = tag.get("fields");
  if (!Array.isArray(fields)) return undefined;
  const out: [string, Value][] = [];
  for (const f of fields) {
    if (!(f instanceof Map)) return undefined;
    const name = f.get("name");
    const value = f.get("value");
    if (typeof name !== "string" || value === undefined) return undefined;
    out.push([name, value]);
  }
  return out;
}

/**
 * Why `v` is not a Value, with the path to an offending part, or undefined when it is one.
 * An embedder's completion crosses from plain JavaScript: a plain object (not a Map), a `number`
 * that is not finite or an Int outside i64 would otherwise be written into the state as text that
 * no longer reads back. Iterative, so a deep value cannot overflow the stack.
 */
export function valueProblem(v: unknown, maxDepth = MAX_VALUE_DEPTH): string | undefined {
  const stack: [unknown, string, number][] = [[v, "$", 0]];
  while (stack.length > 0) {
    const [x, path, depth] = stack.pop()!;
    if (x === null || typeof x === "boolean" || typeof x === "string") continue;
    // As deep as value text reads back (value-text.ts MAX_VALUE_DEPTH): the state must read again.
    if (depth >= maxDepth && typeof x === "object") return `it nests deeper than ${maxDepth}`;
    if (typeof x === "bigint") {
      if (x < I64_MIN || x > I64_MAX) return `${path}: the Int ${x} is outside i64`;
    } else if (typeof x === "number") {
      if (!Number.isFinite(x)) return `${path}: a Float must be finite, found ${x}`;
    } else if (Array.isArray(x)) {
      x.forEach((item, i) => {
        stack.push([item, `${path}[${i}]`, depth + 1]);
      });
    } else if (x instanceof Map) {
      for (const [k, item] of x) {
        if (typeof k !== "string") return `${path}: a Map key must be a string, found ${typeof k}`;
        stack.push([item, `${path}[${JSON.stringify(k)}]`, depth + 1]);
      }
    } else {
      const what = typeof x === "object" ? "a plain object (a Yao object is a Map)" : typeof x;
      return `${path}: ${what} is not a Yao value`;
    }
  }
  return undefined;
}

/**
 * The depth of each container already measured. Values are immutable once built, so a container's
 * depth never changes; a constructor measures only its own children, whose depths are known, and a
 * value that crossed from outside (a completion, a decoded state) is walked once. Weak, so it keeps
 * nothing alive.
 */
const DEPTHS = new WeakMap<object, number>();

function containerKids(x: object): Iterable<Value> {
  return Array.isArray(x) ? (x as readonly Value[]) : (x as ValueObject).values();
}

/** How many containers nest on the deepest path of `v` (a scalar is 0 deep). Iterative, amortised linear. */
export function valueDepth(v: Value): number {
  if (v === null || typeof v !== "object") return 0;
  const known = DEPTHS.get(v);
  if (known !== undefined) return known;
  // Post-order: a container is measured once all its containers are.
  const stack: [object, boolean][] = [[v, false]];
  while (stack.length > 0) {
    const [x, expanded] = stack.pop()!;
    if (DEPTHS.has(x)) continue;
    if (!expanded) {
      stack.push([x, true]);
      for (const k of containerKids(x))
        if (k !== null && typeof k === "object" && !DEPTHS.has(k)) stack.push([k, false]);
      continue;
    }
    let d = 0;
    for (const k of containerKids(x)) {
      if (k !== null && typeof k === "object") {
        const kd = DEPTHS.get(k)!;
        if (kd > d) d = kd;
      }
    }
    DEPTHS.set(x, d + 1);
  }
  return DEPTHS.get(v)!;
}
