/**
 * HCP's view of the one strict JSON parser (src/json/parse.ts): its node types with `start`/`end`
 * offsets, which every HCP rule reads, and its messages. Policies (docs/architecture.md, "JSON"):
 * duplicate names are reported with both positions (the rules read the first), objects and arrays
 * nest at most 64 deep, numbers are `number` with the text as written kept, and unpaired
 * surrogates are accepted here, as `JSON.parse` accepts them, and reported by parse-documents.ts as
 * `hcp.json.lone_surrogate` at the string that holds them.
 *
 * Offsets are UTF-16 indices into the decoded text; `TextPositions` turns them into spans.
 */
import type { JsonParseError } from "../json/parse.js";
import { parseJsonTree } from "../json/parse.js";
import type { JsonParseOptions } from "../json/options.js";
import type { JsonTree } from "../json/tree.js";

/** Objects and arrays nested deeper than this are rejected (the pack model needs about 5). */
export const MAX_JSON_DEPTH = 64;

interface NodeBase {
  /** Index of the first character of the value. */
  readonly start: number;
  /** Index just past the value. */
  readonly end: number;
}

export interface JsonMember {
  readonly key: string;
  readonly keyStart: number;
  readonly keyEnd: number;
  readonly value: JsonNode;
}

export interface JsonObject extends NodeBase {
  readonly kind: "object";
  readonly members: readonly JsonMember[];
  /** First member of each name; duplicates are reported by the reader. */
  readonly byKey: ReadonlyMap<string, JsonMember>;
}

export interface JsonArray extends NodeBase {
  readonly kind: "array";
  readonly items: readonly JsonNode[];
}

export interface JsonString extends NodeBase {
  readonly kind: "string";
  readonly value: string;
}

export interface JsonNumber extends NodeBase {
  readonly kind: "number";
  readonly value: number;
  /** The number as written, e.g. `1.0` or `1e0`. */
  readonly raw: string;
}

export interface JsonBoolean extends NodeBase {
  readonly kind: "boolean";
  readonly value: boolean;
}

export interface JsonNull extends NodeBase {
  readonly kind: "null";
}

export type JsonNode = JsonObject | JsonArray | JsonString | JsonNumber | JsonBoolean | JsonNull;

export interface JsonDuplicateKey {
  readonly key: string;
  readonly start: number;
  readonly end: number;
  /** Key span of the first occurrence. */
  readonly firstStart: number;
  readonly firstEnd: number;
  /** JSON Pointer of the object holding the duplicate. */
  readonly objectPointer: string;
}

export type JsonReadResult =
  | { readonly ok: true; readonly root: JsonNode; readonly duplicates: readonly JsonDuplicateKey[] }
  | {
      readonly ok: false;
      readonly problem: "syntax" | "too_deep";
      readonly message: string;
      readonly offset: number;
    };

export const HCP_JSON: JsonParseOptions = {
  maxDepth: MAX_JSON_DEPTH,
  depthCounts: "containers",
  duplicateKeys: "report",
  loneSurrogates: "allow",
  numbers: "float",
  finiteNumbers: false,
  maxNumberLength: Infinity,
  notAfterNumber: "0123456789.eE",
  byteOrderMark: "reject",
  comments: "unexpected",
};

export function readJson(text: string): JsonReadResult {
  const r = parseJsonTree(text, HCP_JSON);
  if (!r.ok) {
    const { problem, offset } =
      r.error.code === "too_deep"
        ? { problem: "too_deep" as const, offset: r.error.offset }
        : { problem: "syntax" as const, offset: syntaxOffset(r.error) };
    return { ok: false, problem, message: message(text, r.error), offset };
  }
  const duplicates = r.duplicates.map((d) => ({
    key: d.key,
    start: d.keyOffset,
    end: d.keyOffset + d.keyLength,
    firstStart: d.firstKeyOffset,
    firstEnd: d.firstKeyOffset + d.firstKeyLength,
    objectPointer: d.objectPointer,
  }));
  return { ok: true, root: toNode(text, r.root), duplicates };
}

/** RFC 6901 escaping of one reference token (the shared implementation, under HCP's name). */
export { escapePointerToken as pointerToken } from "../json/pointer.js";

/** The core tree as HCP nodes (recursion is bounded by MAX_JSON_DEPTH). */
function toNode(text: string, n: JsonTree): JsonNode {
  const start = n.offset;
  const end = n.offset + n.length;
  switch (n.type) {
    case "object": {
      const members: JsonMember[] = [];
      const byKey = new Map<string, JsonMember>();
      for (const m of n.members) {
        const member: JsonMember = {
          key: m.key,
          keyStart: m.keyOffset,
          keyEnd: m.keyOffset + m.keyLength,
          value: toNode(text, m.value),
        };
        members.push(member);
        if (!byKey.has(m.key)) byKey.set(m.key, member);
      }
      return { kind: "object", members, byKey, start, end };
    }
    case "array":
      return { kind: "array", items: n.items.map((x) => toNode(text, x)), start, end };
    case "string":
      return { kind: "string", value: n.value, start, end };
    case "number":
      return { kind: "number", value: n.value as number, raw: text.slice(start, end), start, end };
    case "boolean":
      return { kind: "boolean", value: n.value, start, end };
    case "null":
      return { kind: "null", start, end };
  }
}

function syntaxOffset(e: JsonParseError): number {
  switch (e.code) {
    case "unterminated_string":
    case "number_no_digits":
    case "number_malformed":
      return e.start!;
    case "trailing_comma":
      return e.commaOffset!;
    default:
      return e.offset;
  }
}

function message(text: string, e: JsonParseError): string {
  const here = describe(text, e.offset);
  switch (e.code) {
    case "byte_order_mark":
      return "the file starts with a byte order mark (U+FEFF); JSON text must not";
    case "empty":
      return "the file is empty; expected a JSON value";
    case "expected_value":
      return `expected a JSON value but found ${here}`;
    case "number_no_digits":
      return "malformed number";
    case "number_malformed":
      return "malformed number (leading zero or incomplete fraction/exponent)";
    case "unterminated_string":
      return "unterminated string";
    case "control_character":
      return `control character U+${hex4(text.charCodeAt(e.offset))} inside a string; escape it`;
    case "invalid_unicode_escape":
      return "invalid \\u escape; expected four hex digits";
    case "invalid_escape":
      return "invalid escape sequence in a string";
    case "expected_name":
      return `expected a member name in double quotes but found ${here}`;
    case "expected_colon":
      return `expected ':' after member name "${clip(e.key!)}" but found ${here}`;
    case "expected_comma_or_close":
      return e.container === "object"
        ? `expected ',' or '}' in the object but found ${here}`
        : `expected ',' or ']' in the array but found ${here}`;
    case "trailing_comma":
      return `trailing comma before '${e.container === "object" ? "}" : "]"}'`;
    case "trailing_data":
      return `unexpected ${here} after the end of the JSON value`;
    case "too_deep":
      return `objects and arrays are nested more than ${MAX_JSON_DEPTH} levels deep`;
    default:
      // Codes HCP's options never produce (comments, lone surrogates, integers, duplicates rejected).
      return `invalid JSON (${e.code})`;
  }
}

function describe(text: string, at: number): string {
  if (at >= text.length) return "the end of the file";
  const cp = text.codePointAt(at)!;
  if (cp < 0x20 || cp === 0x7f || cp === 0xfeff) return `character U+${hex4(cp)}`;
  return `'${String.fromCodePoint(cp)}'`;
}

function hex4(c: number): string {
  return c.toString(16).toUpperCase().padStart(4, "0");
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}
