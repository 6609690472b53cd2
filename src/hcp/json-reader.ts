/**
 * A strict RFC 8259 JSON reader that keeps source offsets, so every HCP diagnostic can point at the
 * offending value. Written here rather than taken from a library because the frontend needs three
 * things together: offsets for every value and key, duplicate-key detection (JSON.parse silently keeps
 * the last one), and a hard nesting limit checked before recursion can exhaust the stack.
 *
 * Offsets are UTF-16 indices into the decoded text; `TextPositions` turns them into spans.
 */
import { escapePointerToken } from "../json/pointer.js";

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

class JsonFailure {
  constructor(
    readonly problem: "syntax" | "too_deep",
    readonly message: string,
    readonly offset: number,
  ) {}
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

export function readJson(text: string): JsonReadResult {
  const reader = new Reader(text);
  try {
    const root = reader.document();
    return { ok: true, root, duplicates: reader.duplicates };
  } catch (e) {
    if (e instanceof JsonFailure) return { ok: false, problem: e.problem, message: e.message, offset: e.offset };
    throw e;
  }
}

/** RFC 6901 escaping of one reference token (the shared implementation, under HCP's name). */
export { escapePointerToken as pointerToken } from "../json/pointer.js";

class Reader {
  private i = 0;
  readonly duplicates: JsonDuplicateKey[] = [];

  constructor(private readonly t: string) {}

  document(): JsonNode {
    if (this.t.charCodeAt(0) === 0xfeff) {
      this.fail("the file starts with a byte order mark (U+FEFF); JSON text must not", 0);
    }
    this.ws();
    if (this.i >= this.t.length) this.fail("the file is empty; expected a JSON value", this.i);
    const root = this.value(0, "");
    this.ws();
    if (this.i < this.t.length) this.fail(`unexpected ${this.describeHere()} after the end of the JSON value`, this.i);
    return root;
  }

  private value(depth: number, pointer: string): JsonNode {
    const c = this.t.charCodeAt(this.i);
    switch (c) {
      case 0x7b /* { */:
        return this.object(depth + 1, pointer);
      case 0x5b /* [ */:
        return this.array(depth + 1, pointer);
      case 0x22 /* " */: {
        const start = this.i;
        const value = this.string();
        return { kind: "string", value, start, end: this.i };
      }
      case 0x74 /* t */:
        return this.literal("true", { kind: "boolean", value: true });
      case 0x66 /* f */:
        return this.literal("false", { kind: "boolean", value: false });
      case 0x6e /* n */:
        return this.literal("null", { kind: "null" });
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
        return this.fail(`expected a JSON value but found ${this.describeHere()}`, this.i);
    }
  }

  private object(depth: number, pointer: string): JsonObject {
    this.checkDepth(depth);
    const start = this.i;
    this.i++;
    const members: JsonMember[] = [];
    const byKey = new Map<string, JsonMember>();
    this.ws();
    if (this.t.charCodeAt(this.i) === 0x7d /* } */) {
      this.i++;
      return { kind: "object", members, byKey, start, end: this.i };
    }
    for (;;) {
      this.ws();
      if (this.t.charCodeAt(this.i) !== 0x22) {
        this.fail(`expected a member name in double quotes but found ${this.describeHere()}`, this.i);
      }
      const keyStart = this.i;
      const key = this.string();
      const keyEnd = this.i;
      this.ws();
      if (this.t.charCodeAt(this.i) !== 0x3a /* : */) {
        this.fail(`expected ':' after member name "${clip(key)}" but found ${this.describeHere()}`, this.i);
      }
      this.i++;
      this.ws();
      const value = this.value(depth, `${pointer}/${escapePointerToken(key)}`);
      const member: JsonMember = { key, keyStart, keyEnd, value };
      members.push(member);
      const first = byKey.get(key);
      if (first === undefined) byKey.set(key, member);
      else {
        this.duplicates.push({
          key,
          start: keyStart,
          end: keyEnd,
          firstStart: first.keyStart,
          firstEnd: first.keyEnd,
          objectPointer: pointer,
        });
      }
      this.ws();
      const c = this.t.charCodeAt(this.i);
      if (c === 0x2c /* , */) {
        const comma = this.i;
        this.i++;
        this.ws();
        if (this.t.charCodeAt(this.i) === 0x7d) this.fail("trailing comma before '}'", comma);
        continue;
      }
      if (c === 0x7d) {
        this.i++;
        return { kind: "object", members, byKey, start, end: this.i };
      }
      this.fail(`expected ',' or '}' in the object but found ${this.describeHere()}`, this.i);
    }
  }

  private array(depth: number, pointer: string): JsonArray {
    this.checkDepth(depth);
    const start = this.i;
    this.i++;
    const items: JsonNode[] = [];
    this.ws();
    if (this.t.charCodeAt(this.i) === 0x5d /* ] */) {
      this.i++;
      return { kind: "array", items, start, end: this.i };
    }
    for (;;) {
      this.ws();
      items.push(this.value(depth, `${pointer}/${items.length}`));
      this.ws();
      const c = this.t.charCodeAt(this.i);
      if (c === 0x2c) {
        const comma = this.i;
        this.i++;
        this.ws();
        if (this.t.charCodeAt(this.i) === 0x5d) this.fail("trailing comma before ']'", comma);
        continue;
      }
      if (c === 0x5d) {
        this.i++;
        return { kind: "array", items, start, end: this.i };
      }
      this.fail(`expected ',' or ']' in the array but found ${this.describeHere()}`, this.i);
    }
  }

  private string(): string {
    const t = this.t;
    const open = this.i;
    this.i++;
    let out = "";
    let runStart = this.i;
    for (;;) {
      if (this.i >= t.length) this.fail("unterminated string", open);
      const c = t.charCodeAt(this.i);
      if (c === 0x22) {
        out += t.slice(runStart, this.i);
        this.i++;
        return out;
      }
      if (c < 0x20) {
        this.fail(`control character U+${hex4(c)} inside a string; escape it`, this.i);
      }
      if (c !== 0x5c /* \ */) {
        this.i++;
        continue;
      }
      out += t.slice(runStart, this.i);
      const e = t.charCodeAt(this.i + 1);
      switch (e) {
        case 0x22:
          out += '"';
          break;
        case 0x5c:
          out += "\\";
          break;
        case 0x2f:
          out += "/";
          break;
        case 0x62:
          out += "\b";
          break;
        case 0x66:
          out += "\f";
          break;
        case 0x6e:
          out += "\n";
          break;
        case 0x72:
          out += "\r";
          break;
        case 0x74:
          out += "\t";
          break;
        case 0x75 /* u */: {
          const digits = t.slice(this.i + 2, this.i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(digits)) this.fail("invalid \\u escape; expected four hex digits", this.i);
          out += String.fromCharCode(parseInt(digits, 16));
          this.i += 4;
          break;
        }
        default:
          this.fail("invalid escape sequence in a string", this.i);
      }
      this.i += 2;
      runStart = this.i;
    }
  }

  private number(): JsonNumber {
    const start = this.i;
    NUMBER.lastIndex = start;
    const m = NUMBER.exec(this.t);
    if (m === null) return this.fail("malformed number", start);
    const raw = m[0];
    this.i = start + raw.length;
    const next = this.t.charCodeAt(this.i);
    if ((next >= 0x30 && next <= 0x39) || next === 0x2e || next === 0x65 || next === 0x45) {
      this.fail("malformed number (leading zero or incomplete fraction/exponent)", start);
    }
    return { kind: "number", value: Number(raw), raw, start, end: this.i };
  }

  private literal<T extends { kind: "boolean"; value: boolean } | { kind: "null" }>(word: string, node: T): T & NodeBase {
    const start = this.i;
    if (!this.t.startsWith(word, start)) this.fail(`expected a JSON value but found ${this.describeHere()}`, start);
    this.i += word.length;
    return { ...node, start, end: this.i };
  }

  private ws(): void {
    const t = this.t;
    for (;;) {
      const c = t.charCodeAt(this.i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.i++;
      else return;
    }
  }

  private checkDepth(depth: number): void {
    if (depth > MAX_JSON_DEPTH) {
      throw new JsonFailure("too_deep", `objects and arrays are nested more than ${MAX_JSON_DEPTH} levels deep`, this.i);
    }
  }

  private describeHere(): string {
    if (this.i >= this.t.length) return "the end of the file";
    const cp = this.t.codePointAt(this.i)!;
    if (cp < 0x20 || cp === 0x7f || cp === 0xfeff) return `character U+${hex4(cp)}`;
    return `'${String.fromCodePoint(cp)}'`;
  }

  private fail(message: string, offset: number): never {
    throw new JsonFailure("syntax", message, offset);
  }
}

function hex4(c: number): string {
  return c.toString(16).toUpperCase().padStart(4, "0");
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}
