/**
 * Ordered JSON for the IR encoding (yao-v0.1.md §9.8): objects keep an explicit key order (JS objects
 * would hoist integer-like keys), integers stay exact as bigint, and both the writer and the reader
 * are iterative so deeply nested input cannot overflow the stack. Reading is the one strict JSON
 * parser's (src/json/parse.ts); this module words its errors and builds the ordered values.
 */
import type { JsonParseOptions } from "../json/options.js";
import { parseJsonTree, type JsonParseError } from "../json/parse.js";
import type { JsonTree } from "../json/tree.js";
import { compareCodePoints } from "./text.js";

/**
 * The last object built, kept until the next is built (a shape no live object has is
 * collected at a full collection, and the optimised analysis with it: see `treeBuilder` in
 * syntax/reader.ts).
 */
const kept: { object?: JObject } = {};

export class JObject {
  constructor(readonly entries: [string, JValue][]) {
    kept.object = this;
  }

  get(key: string): JValue | undefined {
    return this.entries.find((e) => e[0] === key)?.[1];
  }

  has(key: string): boolean {
    return this.entries.some((e) => e[0] === key);
  }
}

export type JValue = null | boolean | string | bigint | JValue[] | JObject;

export function jobj(...entries: [string, JValue][]): JObject {
  return new JObject(entries);
}

/** An object from a list of entries of any length (a list is never spread into a call). */
export function jobjOf(entries: [string, JValue][]): JObject {
  return new JObject(entries);
}

/** Keys deleted everywhere for identity (§9.10 step 2). */
const IDENTITY_STRIPPED = new Set(["span", "canonical_source", "source_hash"]);

/** Text written as it is (the separators live for the whole run, which keeps this shape alive). */
class Raw {
  constructor(readonly text: string) {}
}

// The separators, one object each for every write (a new one per bracket and comma was most of
// what writing a program's identity text allocated).
const CLOSE_ARRAY = new Raw("]");
const CLOSE_OBJECT = new Raw("}");
const COMMA = new Raw(",");

/** `"key":` for each key written: the IR's keys are a small vocabulary, quoted once each. */
const keyTexts = new Map<string, Raw>();
const MAX_KEY_TEXTS = 4096;

function keyText(key: string): Raw {
  let raw = keyTexts.get(key);
  if (raw === undefined) {
    // Type and record names are keys too: the table is emptied rather than grown past its bound.
    if (keyTexts.size >= MAX_KEY_TEXTS) keyTexts.clear();
    raw = new Raw(`${JSON.stringify(key)}:`);
    keyTexts.set(key, raw);
  }
  return raw;
}

/**
 * Compact JSON. `identity` applies §9.10: strip keys, sort `dict` entries by key, sort all keys by
 * UTF-8 bytes.
 */
export function writeJson(root: JValue, identity = false): string {
  const out: string[] = [];
  const stack: (JValue | Raw)[] = [root];
  while (stack.length > 0) {
    const v = stack.pop()!;
    if (v instanceof Raw) out.push(v.text);
    else if (v === null) out.push("null");
    else if (typeof v === "boolean") out.push(v ? "true" : "false");
    else if (typeof v === "bigint") out.push(v.toString());
    else if (typeof v === "string") out.push(JSON.stringify(v));
    else if (Array.isArray(v)) {
      out.push("[");
      stack.push(CLOSE_ARRAY);
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push(v[i]!);
        if (i > 0) stack.push(COMMA);
      }
    } else {
      let entries = v.entries;
      if (identity) {
        // `filter` copies, so the sort below never reorders the object's own entries.
        entries = entries.filter(([k]) => !IDENTITY_STRIPPED.has(k));
        if (v.get("op") === "dict") entries = entries.map(([k, x]) => [k, k === "entries" ? sortDictEntries(x) : x]);
        entries.sort((a, b) => compareCodePoints(a[0], b[0]));
      }
      out.push("{");
      stack.push(CLOSE_OBJECT);
      for (let i = entries.length - 1; i >= 0; i--) {
        stack.push(entries[i]![1], keyText(entries[i]![0]));
        if (i > 0) stack.push(COMMA);
      }
    }
  }
  return out.join("");
}

function sortDictEntries(x: JValue): JValue {
  if (!Array.isArray(x)) return x;
  const key = (e: JValue): string => (Array.isArray(e) && typeof e[0] === "string" ? e[0] : "");
  return [...x].sort((a, b) => compareCodePoints(key(a), key(b)));
}

export class IrJsonError extends Error {}

/**
 * Yao's policies for the one strict JSON parser (docs/architecture.md, "JSON"): duplicate names are
 * kept in order (the IR decoder rejects what it does not expect), unpaired surrogates decode as
 * `JSON.parse` decodes them, numbers must be integers and stay exact as bigint.
 */
function yaoJson(maxDepth: number): JsonParseOptions {
  return {
    maxDepth,
    depthCounts: "containers",
    duplicateKeys: "keep",
    loneSurrogates: "allow",
    numbers: "integer",
    finiteNumbers: false,
    // The reader has always looked at most 400 characters into a number.
    maxNumberLength: 400,
    notAfterNumber: "",
    byteOrderMark: "unexpected",
    comments: "unexpected",
  };
}

/**
 * Parse JSON text into ordered values. Integers become bigint; numbers with a fraction or exponent
 * are rejected (the IR has none). Nesting deeper than `maxDepth` is rejected.
 */
export function parseIrJson(text: string, maxDepth = 4096): JValue {
  const r = parseJsonTree(text, yaoJson(maxDepth));
  if (!r.ok) {
    const [offset, what] = problem(r.error, maxDepth);
    throw new IrJsonError(`${what} at offset ${offset}`);
  }
  return toJValue(r.root);
}

/** The tree as ordered values, with an explicit stack: IR nests thousands deep. */
function toJValue(root: JsonTree): JValue {
  const convert = (n: JsonTree): JValue =>
    n.type === "object"
      ? new JObject([])
      : n.type === "array"
        ? []
        : n.type === "number"
          ? (n.value as bigint)
          : n.value;
  const top = convert(root);
  const stack: [JsonTree, JValue][] = [[root, top]];
  while (stack.length > 0) {
    const [n, v] = stack.pop()!;
    if (n.type === "object") {
      for (const m of n.members) {
        const child = convert(m.value);
        (v as JObject).entries.push([m.key, child]);
        stack.push([m.value, child]);
      }
    } else if (n.type === "array") {
      for (const item of n.items) {
        const child = convert(item);
        (v as JValue[]).push(child);
        stack.push([item, child]);
      }
    }
  }
  return top;
}

/** The offset and words this reader has always reported for each problem. */
function problem(e: JsonParseError, maxDepth: number): [number, string] {
  switch (e.code) {
    case "unterminated_string":
    case "control_character":
    case "invalid_escape":
    case "invalid_unicode_escape":
      return [e.start!, "invalid string"];
    case "number_not_integer":
      return [e.offset, "non-integer numbers do not occur in Yao IR"];
    case "expected_name":
      return [e.offset, "expected object key"];
    case "expected_colon":
      return [e.offset, "expected ':'"];
    case "expected_comma_or_close":
      return [e.offset, `expected ',' or '${e.container === "object" ? "}" : "]"}'`];
    case "trailing_comma":
      return [e.offset, e.container === "object" ? "expected object key" : "unexpected character"];
    case "trailing_data":
      return [e.offset, "trailing text after JSON value"];
    case "too_deep":
      return [e.offset, `JSON nesting exceeds ${maxDepth}`];
    default:
      // empty, expected_value, number_no_digits (and a byte order mark, which is just a character here)
      return [e.offset, "unexpected character"];
  }
}
