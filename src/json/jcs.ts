/**
 * RFC 8785 JSON Canonicalization Scheme (JCS): the byte form every ReproHash is taken over.
 *
 * - no whitespace; object members sorted by name compared as arrays of UTF-16 code units
 *   (locale-independent; JavaScript's default string comparison is exactly that);
 * - strings escaped as ECMAScript `JSON.stringify` does (short escapes, other C0 controls as
 *   lowercase `\u00xx`, everything else raw, no Unicode normalisation);
 * - numbers by ECMAScript Number-to-String (shortest round trip, `-0` → `0`);
 * - input must be I-JSON: lone surrogates, NaN/±Infinity, `undefined`, functions, symbols, BigInt,
 *   cycles and non-plain objects are rejected with a `CanonicalizationError` (never skipped).
 *
 * Receipts are passed through `canonicalizeReceipt` (R1–R3) before they reach this function, so
 * no number survives into the hashed bytes of a receipt; JCS number output is still implemented
 * (and checked against the RFC vectors) because it is the canonical form of any JSON value.
 */
import { escapePointerToken } from "./pointer.js";

export class CanonicalizationError extends Error {
  constructor(
    readonly pointer: string,
    message: string,
  ) {
    super(`${pointer === "" ? "(root)" : pointer}: ${message}`);
    this.name = "CanonicalizationError";
  }
}

export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** The RFC 8785 canonical text of `value` (encode it as UTF-8 to get the canonical bytes). */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  write(value, "", out, new Set());
  return out.join("");
}

/** Compare two strings as arrays of UTF-16 code units (RFC 8785 §3.2.3). */
export function compareUtf16(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function write(value: unknown, pointer: string, out: string[], seen: Set<object>): void {
  if (value === null) {
    out.push("null");
    return;
  }
  switch (typeof value) {
    case "boolean":
      out.push(value ? "true" : "false");
      return;
    case "number":
      out.push(serializeNumber(value, pointer));
      return;
    case "string":
      out.push(serializeString(value, pointer));
      return;
    case "object":
      break;
    default:
      throw new CanonicalizationError(pointer, `a ${typeof value} is not a JSON value`);
  }
  const obj = value as object;
  if (seen.has(obj)) throw new CanonicalizationError(pointer, "cyclic structure");
  seen.add(obj);
  if (Array.isArray(obj)) {
    out.push("[");
    for (let i = 0; i < obj.length; i++) {
      if (i > 0) out.push(",");
      if (!(i in obj)) throw new CanonicalizationError(`${pointer}/${i}`, "sparse array hole is not a JSON value");
      write(obj[i], `${pointer}/${i}`, out, seen);
    }
    out.push("]");
  } else {
    const proto = Object.getPrototypeOf(obj) as unknown;
    if (proto !== Object.prototype && proto !== null) {
      throw new CanonicalizationError(
        pointer,
        "only plain objects are JSON objects (convert Dates, Maps and class instances first)",
      );
    }
    const keys = Object.keys(obj).sort(compareUtf16);
    out.push("{");
    let first = true;
    for (const key of keys) {
      const child = `${pointer}/${escapePointerToken(key)}`;
      if (!first) out.push(",");
      first = false;
      out.push(serializeString(key, child), ":");
      write((obj as Record<string, unknown>)[key], child, out, seen);
    }
    out.push("}");
  }
  seen.delete(obj);
}

/** ECMAScript Number::toString, which is what RFC 8785 §3.2.2.3 prescribes. */
export function serializeNumber(n: number, pointer = ""): string {
  if (!Number.isFinite(n)) throw new CanonicalizationError(pointer, `${n} is not allowed in I-JSON`);
  if (Object.is(n, -0)) return "0";
  return String(n);
}

const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  8: "\\b",
  9: "\\t",
  10: "\\n",
  12: "\\f",
  13: "\\r",
  34: '\\"',
  92: "\\\\",
};

/** Characters that need an escape or a surrogate check; strings without any are copied whole. */
const NEEDS_CARE = /[\u0000-\u001f"\\\ud800-\udfff]/;

export function serializeString(s: string, pointer = ""): string {
  // The common case (no escapes, no surrogates) in one scan instead of one concatenation per
  // character: receipts of 100,000 diagnostics spent most of their time here and in the GC.
  if (!NEEDS_CARE.test(s)) return `"${s}"`;
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = i + 1 < s.length ? s.charCodeAt(i + 1) : -1;
      if (next < 0xdc00 || next > 0xdfff)
        throw new CanonicalizationError(pointer, `lone surrogate U+${c.toString(16).toUpperCase()} at index ${i}`);
      out += s[i]! + s[i + 1]!;
      i++;
      continue;
    }
    if (c >= 0xdc00 && c <= 0xdfff)
      throw new CanonicalizationError(pointer, `lone surrogate U+${c.toString(16).toUpperCase()} at index ${i}`);
    const short = SHORT_ESCAPES[c];
    if (short !== undefined) out += short;
    else if (c < 0x20) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += s[i];
  }
  return `${out}"`;
}
