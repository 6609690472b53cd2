/**
 * Values as JSON text and back. The text is the reference's (serde_json): object members sorted by
 * key, an Int as an integer and a Float always with a fraction or an exponent (`1.0`, `1e16`, as
 * ryu writes it), so a Float survives a round trip as a Float. Reading is the one strict JSON
 * parser: duplicate keys, trailing text and over-deep nesting are errors, never a crash.
 */
import { parseJsonTree, type JsonParseError } from "../json/parse.js";
import type { JsonParseOptions } from "../json/options.js";
import type { JsonTree } from "../json/tree.js";
import { compareCodePoints } from "../text/code-point-order.js";
import { I64_MAX, I64_MIN, MAX_VALUE_DEPTH, type Value } from "./values.js";

/** Values nest at most this deep (values.ts); deeper input is refused, not recursed into. */
export { MAX_VALUE_DEPTH };

const VALUE_JSON: JsonParseOptions = {
  maxDepth: MAX_VALUE_DEPTH,
  depthCounts: "containers",
  duplicateKeys: "reject",
  loneSurrogates: "reject-value",
  numbers: "float",
  finiteNumbers: true,
  maxNumberLength: 400,
  notAfterNumber: "0123456789.eE",
  byteOrderMark: "reject",
  comments: "reject",
};

export class ValueTextError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** A Float as serde_json (ryu) writes it: shortest digits, `1.0` for integral values, `1e-7`, `1e16`. */
export function floatText(x: number): string {
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const [mantissa, exp] = Math.abs(x).toExponential().split("e") as [string, string];
  const digits = mantissa.replace(".", "");
  const kk = Number(exp) + 1; // position of the decimal point relative to the digits
  if (kk >= digits.length && kk <= 16) return `${sign}${digits}${"0".repeat(kk - digits.length)}.0`;
  if (kk > 0 && kk <= 16) return `${sign}${digits.slice(0, kk)}.${digits.slice(kk)}`;
  if (kk > -5 && kk <= 0) return `${sign}0.${"0".repeat(-kk)}${digits}`;
  const e = kk - 1;
  const m = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
  return `${sign}${m}e${e}`;
}

const encodeString = (s: string): string => JSON.stringify(s);

/** Compact JSON text of a value (iterative: deep values cannot overflow the stack). */
export function valueText(root: Value): string {
  const out: string[] = [];
  const stack: (Value | { raw: string })[] = [root];
  while (stack.length > 0) {
    const v = stack.pop()!;
    if (v === null) out.push("null");
    else if (typeof v === "boolean") out.push(v ? "true" : "false");
    else if (typeof v === "bigint") out.push(v.toString());
    else if (typeof v === "number") out.push(floatText(v));
    else if (typeof v === "string") out.push(encodeString(v));
    else if (Array.isArray(v)) {
      out.push("[");
      stack.push({ raw: "]" });
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push(v[i]!);
        if (i > 0) stack.push({ raw: "," });
      }
    } else if (v instanceof Map) {
      const keys = [...v.keys()].sort(compareCodePoints);
      out.push("{");
      stack.push({ raw: "}" });
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push(v.get(keys[i]!)!, { raw: `${encodeString(keys[i]!)}:` });
        if (i > 0) stack.push({ raw: "," });
      }
    } else out.push((v as { raw: string }).raw);
  }
  return out.join("");
}

/** The completion object around a value adds one level: its value may still nest MAX_VALUE_DEPTH deep. */
const ENVELOPE_JSON: JsonParseOptions = { ...VALUE_JSON, maxDepth: MAX_VALUE_DEPTH + 1 };

/** Read JSON text as a value: an integer within i64 is an Int, any other number a Float. */
export function parseValueText(text: string): Value {
  return parseWith(text, VALUE_JSON);
}

/**
 * Read JSON text that wraps values one level down (a completion `{"id","value":V}`): the wrapper may
 * nest one deeper than a value, so V itself may nest MAX_VALUE_DEPTH deep; its reader checks V's depth.
 */
export function parseEnvelopeText(text: string): Value {
  return parseWith(text, ENVELOPE_JSON);
}

function parseWith(text: string, options: JsonParseOptions): Value {
  const r = parseJsonTree(text, options);
  if (!r.ok) throw new ValueTextError(describe(r.error), r.error.offset);
  return fromTree(r.root, text);
}

function describe(e: JsonParseError): string {
  switch (e.code) {
    case "duplicate_key":
      return `duplicate key '${e.key}'`;
    case "trailing_data":
      return "trailing text after the JSON value";
    case "too_deep":
      return `nesting deeper than ${MAX_VALUE_DEPTH}`;
    case "empty":
      return "empty input";
    case "number_not_finite":
      return "a number that is not finite";
    default:
      return `invalid JSON (${e.code.replaceAll("_", " ")})`;
  }
}

function scalar(n: JsonTree, text: string): Value {
  if (n.type === "number") {
    const written = text.slice(n.offset, n.offset + n.length);
    if (!/[.eE]/.test(written)) {
      const i = BigInt(written);
      if (i >= I64_MIN && i <= I64_MAX) return i;
    }
    return n.value as number;
  }
  if (n.type === "object") return new Map();
  if (n.type === "array") return [];
  return n.value;
}

function fromTree(root: JsonTree, text: string): Value {
  const top = scalar(root, text);
  const stack: [JsonTree, Value][] = [[root, top]];
  while (stack.length > 0) {
    const [n, v] = stack.pop()!;
    if (n.type === "object") {
      for (const m of n.members) {
        const child = scalar(m.value, text);
        (v as Map<string, Value>).set(m.key, child);
        stack.push([m.value, child]);
      }
    } else if (n.type === "array") {
      for (const item of n.items) {
        const child = scalar(item, text);
        (v as Value[]).push(child);
        stack.push([item, child]);
      }
    }
  }
  return top;
}
