/**
 * HARP's view of the one strict JSON parser (src/json/parse.ts): the manifest as plain values plus
 * the span of every value and member name keyed by JSON Pointer, for the "field path + reason"
 * errors agents rely on (seed §17).
 *
 * Policies (docs/architecture.md, "JSON"): a manifest is untrusted input, and `JSON.parse` silently
 * keeps the last of duplicate keys (so a reviewer and the host could read different manifests), so a
 * repeated name is an error; a value may sit inside at most 64 containers; an unpaired surrogate in
 * the text or in a `\u` escape is an error where it stands; comments get their own message; numbers
 * must be finite.
 */
import type { Span } from "../diagnostics/diagnostic.js";
import { TextPositions } from "../diagnostics/text-positions.js";
import type { JsonParseOptions } from "../json/options.js";
import { parseJsonTree, type JsonParseError } from "../json/parse.js";
import { escapePointerToken } from "../json/pointer.js";
import type { JsonTree } from "../json/tree.js";

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface HarpJsonError {
  readonly kind: "syntax" | "duplicate_key" | "too_deep";
  readonly message: string;
  readonly span: Span;
  /** Pointer of the object holding a duplicate key (and the key), for `duplicate_key`. */
  readonly pointer?: string;
}

export interface ParsedJson {
  readonly value: JsonValue;
  /** Span of each value by JSON Pointer ("" is the root). */
  readonly spans: ReadonlyMap<string, Span>;
  /** Span of each object member's key by the member's JSON Pointer. */
  readonly keySpans: ReadonlyMap<string, Span>;
}

export const MAX_JSON_DEPTH = 64;

export { escapePointerToken } from "../json/pointer.js";

export const HARP_JSON: JsonParseOptions = {
  maxDepth: MAX_JSON_DEPTH,
  depthCounts: "values",
  duplicateKeys: "reject",
  loneSurrogates: "reject-text",
  numbers: "float",
  finiteNumbers: true,
  // The reader has always looked at most 400 characters into a number: a longer one is malformed.
  maxNumberLength: 400,
  notAfterNumber: "0123456789.eE+-",
  byteOrderMark: "reject",
  comments: "reject",
};

/** Parse `text`; on failure return the first error with its position. */
export function parseHarpJson(text: string): { ok: true; json: ParsedJson } | { ok: false; error: HarpJsonError } {
  const r = parseJsonTree(text, HARP_JSON);
  // Lines break at LF only, as this reader has always counted them (a CR is one column).
  const positions = new TextPositions(text, "lf");
  if (!r.ok) return { ok: false, error: syntaxError(text, r.error, positions) };
  const spans = new Map<string, Span>();
  const keySpans = new Map<string, Span>();
  const value = toValue(r.root, "", positions, spans, keySpans);
  return { ok: true, json: { value, spans, keySpans } };
}

/**
 * The tree as plain values (objects with a null prototype, so a "__proto__" key is just data).
 * Value spans are recorded children first and name spans in document order, as the reader always
 * did; recursion is bounded by MAX_JSON_DEPTH.
 */
function toValue(
  n: JsonTree,
  pointer: string,
  p: TextPositions,
  spans: Map<string, Span>,
  keySpans: Map<string, Span>,
): JsonValue {
  // Positions are looked up in text order (start, names and children, end): linear in TextPositions.
  const start = p.position(n.offset);
  let v: JsonValue;
  if (n.type === "object") {
    const out = Object.create(null) as { [key: string]: JsonValue };
    for (const m of n.members) {
      const child = `${pointer}/${escapePointerToken(m.key)}`;
      keySpans.set(child, p.span(m.keyOffset, m.keyOffset + m.keyLength));
      out[m.key] = toValue(m.value, child, p, spans, keySpans);
    }
    v = out;
  } else if (n.type === "array") v = n.items.map((x, i) => toValue(x, `${pointer}/${i}`, p, spans, keySpans));
  else v = n.value as JsonValue;
  spans.set(pointer, { start, end: p.position(n.offset + n.length) });
  return v;
}

function syntaxError(text: string, e: JsonParseError, p: TextPositions): HarpJsonError {
  const at = (offset: number, end = offset): Span => p.span(offset, end);
  const here = describe(text, e.offset);
  const syntax = (message: string, span: Span = at(e.offset)): HarpJsonError => ({ kind: "syntax", message, span });
  switch (e.code) {
    case "byte_order_mark":
      return syntax("the file starts with a byte order mark; save it as UTF-8 without BOM");
    case "comment":
      return syntax("comments are not allowed in JSON");
    case "empty":
    case "expected_value":
      return syntax(`expected a JSON value but found ${here}`);
    case "number_no_digits":
      return syntax(`invalid number starting at ${here}`);
    case "number_malformed":
      return syntax("invalid number", at(e.start!, e.end));
    case "number_not_finite":
      return syntax("the number is too large to represent", at(e.start!, e.end));
    case "unterminated_string":
      return syntax("unterminated string", at(e.start!, text.length));
    case "control_character":
      return syntax(`unescaped ${here} inside a string`);
    case "lone_surrogate":
      return syntax("the string contains an unpaired surrogate");
    case "lone_surrogate_escape":
      return syntax("the string contains an unpaired surrogate escape");
    // The reader has always pointed at the character after the backslash.
    case "invalid_unicode_escape":
      return syntax("invalid \\u escape; expected four hex digits", at(e.offset + 1));
    case "invalid_escape":
      return syntax(`invalid escape sequence '\\${text[e.offset + 1] ?? ""}'`, at(e.offset + 1));
    case "expected_name":
      return syntax(`expected a member name in double quotes but found ${here}`);
    case "duplicate_key": {
      const pointer = `${e.objectPointer}/${escapePointerToken(e.key!)}`;
      return {
        kind: "duplicate_key",
        message: `member "${e.key}" appears twice in the same object`,
        span: at(e.start!, e.end),
        pointer,
      };
    }
    case "expected_colon":
      return syntax(`expected ':' after the member name but found ${here}`);
    case "expected_comma_or_close":
      return syntax(`expected ',' or '${e.container === "object" ? "}" : "]"}' but found ${here}`);
    case "trailing_comma":
      return syntax("trailing commas are not allowed in JSON");
    case "trailing_data":
      return syntax(`unexpected ${here} after the end of the JSON value`);
    case "too_deep":
      return {
        kind: "too_deep",
        message: `values are nested more than ${MAX_JSON_DEPTH} levels deep`,
        span: at(e.offset),
      };
    default:
      // Codes HARP's options never produce (integers only, a decoded-value surrogate check).
      return syntax(`invalid JSON (${e.code})`);
  }
}

function describe(text: string, at: number): string {
  if (at >= text.length) return "end of file";
  const ch = String.fromCodePoint(text.codePointAt(at)!);
  return /[\x00-\x1f]/.test(ch) ? `control character U+${ch.charCodeAt(0).toString(16).padStart(4, "0")}` : `'${ch}'`;
}
