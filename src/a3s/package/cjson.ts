/**
 * OLPC canonical JSON (reference §3.5, the `olpc-cjson` crate that A3S Use hashes its contracts
 * with) and a strict JSON reader for it.
 *
 * Canonical form: no whitespace; object keys sorted by their UTF-8 bytes; strings NFC-normalised
 * with only `"` and `\` escaped (control characters are written raw); integers in plain decimal;
 * floats rejected. This is not RFC 8785 (JCS escapes controls, sorts by UTF-16 and does not
 * normalise), so src/json/jcs.ts is not reused.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { compareCodePoints } from "../../text/code-point-order.js";
import type { JsonParseOptions } from "../../json/options.js";
import { parseJsonTree, type JsonParseError } from "../../json/parse.js";
import type { JsonTree } from "../../json/tree.js";
import { hex } from "./digest.js";

/** Integers stay `number` when safe and become `bigint` beyond 2^53; floats never appear. */
export type CJson = null | boolean | number | bigint | string | CJson[] | { [key: string]: CJson };

export class CJsonError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CJsonError";
  }
}

const enc = new TextEncoder();

function writeString(s: string, out: string[]): void {
  out.push(
    '"',
    s.normalize("NFC").replace(/["\\]/g, (c) => `\\${c}`),
    '"',
  );
}

function write(v: unknown, out: string[], depth: number): void {
  if (depth > 128) throw new CJsonError("value nested deeper than 128 levels");
  if (v === null) out.push("null");
  else if (v === true) out.push("true");
  else if (v === false) out.push("false");
  else if (typeof v === "bigint") out.push(v.toString());
  else if (typeof v === "number") {
    if (!Number.isSafeInteger(v)) throw new CJsonError(`float or unsafe number ${v} cannot be canonicalized`);
    out.push(Object.is(v, -0) ? "0" : String(v));
  } else if (typeof v === "string") writeString(v, out);
  else if (Array.isArray(v)) {
    out.push("[");
    v.forEach((x, i) => {
      if (i > 0) out.push(",");
      write(x, out, depth + 1);
    });
    out.push("]");
  } else if (typeof v === "object") {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    const keyed = entries
      .map(([k, x]) => [k.normalize("NFC"), x] as const)
      .sort((a, b) => compareCodePoints(a[0], b[0]));
    for (let i = 1; i < keyed.length; i++)
      if (keyed[i - 1]![0] === keyed[i]![0])
        throw new CJsonError(`duplicate key '${keyed[i]![0]}' after normalisation`);
    out.push("{");
    keyed.forEach(([k, x], i) => {
      if (i > 0) out.push(",");
      writeString(k, out);
      out.push(":");
      write(x, out, depth + 1);
    });
    out.push("}");
  } else throw new CJsonError(`${typeof v} cannot be canonicalized`);
}

/** The OLPC canonical text of `value`; `undefined` members are omitted (serde `skip_serializing_if`). */
export function olpcCanonical(value: unknown): string {
  const out: string[] = [];
  write(value, out, 0);
  return out.join("");
}

export function olpcBytes(value: unknown): Uint8Array {
  return enc.encode(olpcCanonical(value));
}

/** `sha256:<hex>` over the OLPC canonical bytes of `value`. */
export function canonicalDigest(value: unknown): string {
  return `sha256:${hex(sha256(olpcBytes(value)))}`;
}

/**
 * A3S's view of the one strict JSON parser (src/json/parse.ts). Policies (docs/architecture.md,
 * "JSON"): duplicate keys are rejected, numbers must be integers (as the canonical form would have
 * them) and stay exact, a value may sit inside at most 128 containers, and a decoded string must be
 * well-formed UTF-16 (no lone surrogates), checked when the string ends.
 */
export const A3S_JSON: JsonParseOptions = {
  maxDepth: 128,
  depthCounts: "values",
  duplicateKeys: "reject",
  loneSurrogates: "reject-value",
  numbers: "integer",
  finiteNumbers: false,
  // The reader has always looked at most 400 characters into a number.
  maxNumberLength: 400,
  notAfterNumber: ".eE",
  byteOrderMark: "unexpected",
  comments: "unexpected",
};

/** Strict RFC 8259 JSON reader with A3S's policies; throws `CJsonError` at the first problem. */
export function parseStrictJson(text: string): CJson {
  const r = parseJsonTree(text, A3S_JSON);
  if (!r.ok) {
    const [offset, what] = problem(r.error);
    throw new CJsonError(`invalid JSON at offset ${offset}: ${what}`);
  }
  return toCJson(r.root);
}

/** The tree as values: objects with a null prototype, safe integers as `number`, larger ones `bigint` (recursion bounded by the depth limit). */
function toCJson(n: JsonTree): CJson {
  switch (n.type) {
    case "object": {
      const o = Object.create(null) as Record<string, CJson>;
      for (const m of n.members) o[m.key] = toCJson(m.value);
      return o;
    }
    case "array":
      return n.items.map(toCJson);
    case "number": {
      const b = n.value as bigint;
      return b >= MIN_SAFE && b <= MAX_SAFE ? Number(b) : b;
    }
    default:
      return n.value;
  }
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The offset and words this reader has always reported for each problem. */
function problem(e: JsonParseError): [number, string] {
  switch (e.code) {
    case "unterminated_string":
      return [e.offset, "unterminated string"];
    case "control_character":
      return [e.offset, "raw control character in string"];
    case "invalid_unicode_escape":
      return [e.offset + 2, "bad \\u escape"];
    case "invalid_escape":
      return [e.offset + 2, "bad escape"];
    case "lone_surrogate_value":
      return [e.offset, "lone surrogate in string"];
    case "expected_name":
      return [e.offset, "expected a key"];
    case "duplicate_key":
      return [e.end!, `duplicate key '${e.key}'`];
    case "expected_colon":
      return [e.offset, "expected ':'"];
    case "expected_comma_or_close":
      return [e.offset, e.container === "object" ? "expected ',' or '}'" : "expected ',' or ']'"];
    case "trailing_comma":
      return [e.offset, e.container === "object" ? "expected a key" : "unexpected character"];
    case "trailing_data":
      return [e.offset, "trailing data"];
    case "number_not_integer":
    case "number_malformed":
      return [e.offset, "floating-point numbers are not allowed in canonical JSON"];
    case "too_deep":
      // The depth was checked before the whitespace in front of the value was skipped.
      return [e.after === "[" ? e.offset : e.gapStart!, "nested deeper than 128 levels"];
    default:
      // empty, expected_value, number_no_digits (and a byte order mark, which is just a character here)
      return [e.offset, "unexpected character"];
  }
}
