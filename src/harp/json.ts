/**
 * A strict RFC 8259 JSON parser that remembers where every value sits, keyed by JSON Pointer.
 *
 * Why not `JSON.parse`: a manifest is untrusted input, and `JSON.parse` silently keeps the last of
 * duplicate keys (so a reviewer and the host could read different manifests) and gives no positions
 * for the "field path + reason" errors agents rely on (seed §17). Nesting depth is bounded so a
 * hostile file cannot exhaust the stack.
 */
import type { Position, Span } from "../diagnostics/diagnostic.js";
import { escapePointerToken } from "../json/pointer.js";

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface JsonSyntaxError {
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

class Fail extends Error {
  constructor(readonly info: JsonSyntaxError) {
    super(info.message);
  }
}

/** Parse `text`; on failure return the first error with its position. */
export function parseJson(text: string): { ok: true; json: ParsedJson } | { ok: false; error: JsonSyntaxError } {
  const p = new Parser(text);
  try {
    return { ok: true, json: p.parseDocument() };
  } catch (e) {
    if (e instanceof Fail) return { ok: false, error: e.info };
    throw e;
  }
}

class Parser {
  private i = 0;
  // Line/column bookkeeping: columns count Unicode scalars, bytes count UTF-8 (diagnostic.ts contract).
  private line = 1;
  private column = 1;
  private byte = 0;
  private readonly spans = new Map<string, Span>();
  private readonly keySpans = new Map<string, Span>();

  constructor(private readonly text: string) {}

  parseDocument(): ParsedJson {
    if (this.text.charCodeAt(0) === 0xfeff) this.fail("the file starts with a byte order mark; save it as UTF-8 without BOM");
    this.ws();
    const value = this.value("", 0);
    this.ws();
    if (this.i < this.text.length) this.fail(`unexpected ${this.describe()} after the end of the JSON value`);
    return { value, spans: this.spans, keySpans: this.keySpans };
  }

  private pos(): Position {
    return { byte: this.byte, line: this.line, column: this.column };
  }

  private advance(): void {
    const c = this.text.codePointAt(this.i)!;
    const units = c > 0xffff ? 2 : 1;
    this.i += units;
    this.byte += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    if (c === 0x0a) {
      this.line++;
      this.column = 1;
    } else {
      this.column++;
    }
  }

  private fail(message: string, start?: Position, kind: JsonSyntaxError["kind"] = "syntax", pointer?: string): never {
    const s = start ?? this.pos();
    const end = start ? this.pos() : { ...s };
    const info: JsonSyntaxError = pointer === undefined ? { kind, message, span: { start: s, end } } : { kind, message, span: { start: s, end }, pointer };
    throw new Fail(info);
  }

  private describe(): string {
    if (this.i >= this.text.length) return "end of file";
    const ch = String.fromCodePoint(this.text.codePointAt(this.i)!);
    return /[\x00-\x1f]/.test(ch) ? `control character U+${ch.charCodeAt(0).toString(16).padStart(4, "0")}` : `'${ch}'`;
  }

  private ws(): void {
    for (;;) {
      const c = this.text[this.i];
      if (c === " " || c === "\t" || c === "\n" || c === "\r") this.advance();
      else if (c === "/" && (this.text[this.i + 1] === "/" || this.text[this.i + 1] === "*")) {
        this.fail("comments are not allowed in JSON");
      } else return;
    }
  }

  private value(pointer: string, depth: number): JsonValue {
    if (depth > MAX_JSON_DEPTH) this.fail(`values are nested more than ${MAX_JSON_DEPTH} levels deep`, undefined, "too_deep");
    const start = this.pos();
    const c = this.text[this.i];
    let v: JsonValue;
    if (c === "{") v = this.object(pointer, depth);
    else if (c === "[") v = this.array(pointer, depth);
    else if (c === '"') v = this.string();
    else if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) v = this.number();
    else if (this.text.startsWith("true", this.i)) v = this.literal("true", true);
    else if (this.text.startsWith("false", this.i)) v = this.literal("false", false);
    else if (this.text.startsWith("null", this.i)) v = this.literal("null", null);
    else this.fail(`expected a JSON value but found ${this.describe()}`);
    this.spans.set(pointer, { start, end: this.pos() });
    return v;
  }

  private literal<T extends JsonValue>(word: string, v: T): T {
    for (let k = 0; k < word.length; k++) this.advance();
    return v;
  }

  private object(pointer: string, depth: number): { [key: string]: JsonValue } {
    this.advance();
    // A null-prototype object so a "__proto__" key is just data.
    const out = Object.create(null) as { [key: string]: JsonValue };
    this.ws();
    if (this.text[this.i] === "}") {
      this.advance();
      return out;
    }
    for (;;) {
      this.ws();
      if (this.text[this.i] !== '"') this.fail(`expected a member name in double quotes but found ${this.describe()}`);
      const keyStart = this.pos();
      const key = this.string();
      const keySpan = { start: keyStart, end: this.pos() };
      const child = `${pointer}/${escapePointerToken(key)}`;
      if (Object.prototype.hasOwnProperty.call(out, key)) {
        throw new Fail({ kind: "duplicate_key", message: `member "${key}" appears twice in the same object`, span: keySpan, pointer: child });
      }
      this.keySpans.set(child, keySpan);
      this.ws();
      if (this.text[this.i] !== ":") this.fail(`expected ':' after the member name but found ${this.describe()}`);
      this.advance();
      this.ws();
      out[key] = this.value(child, depth + 1);
      this.ws();
      const c = this.text[this.i];
      if (c === ",") {
        this.advance();
        this.ws();
        if (this.text[this.i] === "}") this.fail("trailing commas are not allowed in JSON");
        continue;
      }
      if (c === "}") {
        this.advance();
        return out;
      }
      this.fail(`expected ',' or '}' but found ${this.describe()}`);
    }
  }

  private array(pointer: string, depth: number): JsonValue[] {
    this.advance();
    const out: JsonValue[] = [];
    this.ws();
    if (this.text[this.i] === "]") {
      this.advance();
      return out;
    }
    for (;;) {
      this.ws();
      out.push(this.value(`${pointer}/${out.length}`, depth + 1));
      this.ws();
      const c = this.text[this.i];
      if (c === ",") {
        this.advance();
        this.ws();
        if (this.text[this.i] === "]") this.fail("trailing commas are not allowed in JSON");
        continue;
      }
      if (c === "]") {
        this.advance();
        return out;
      }
      this.fail(`expected ',' or ']' but found ${this.describe()}`);
    }
  }

  private string(): string {
    const start = this.pos();
    this.advance(); // opening quote
    let out = "";
    // Unescaped characters are copied in runs (one slice per run, not one concatenation per
    // character: a 1 MiB string built character by character spent most of its time in the GC).
    let run = this.i;
    for (;;) {
      if (this.i >= this.text.length) this.fail("unterminated string", start);
      const c = this.text[this.i]!;
      const code = c.charCodeAt(0);
      if (c === '"') {
        out += this.text.slice(run, this.i);
        this.advance();
        return out;
      }
      if (code < 0x20) this.fail(`unescaped ${this.describe()} inside a string`);
      if (code >= 0xd800 && code <= 0xdbff) {
        const next = this.text.charCodeAt(this.i + 1);
        if (!(next >= 0xdc00 && next <= 0xdfff)) this.fail("the string contains an unpaired surrogate");
      } else if (code >= 0xdc00 && code <= 0xdfff) this.fail("the string contains an unpaired surrogate");
      if (c !== "\\") {
        this.advance();
        continue;
      }
      out += this.text.slice(run, this.i);
      this.advance();
      const e = this.text[this.i];
      const simple: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
      if (e !== undefined && e in simple) {
        out += simple[e];
        this.advance();
      } else if (e === "u") {
        const hex = this.text.slice(this.i + 1, this.i + 5);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("invalid \\u escape; expected four hex digits");
        for (let k = 0; k < 5; k++) this.advance();
        let unit = parseInt(hex, 16);
        if (unit >= 0xd800 && unit <= 0xdbff) {
          const low = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})/.exec(this.text.slice(this.i, this.i + 6));
          if (!low) this.fail("the string contains an unpaired surrogate escape");
          for (let k = 0; k < 6; k++) this.advance();
          unit = 0x10000 + ((unit - 0xd800) << 10) + (parseInt(low[1]!, 16) - 0xdc00);
        } else if (unit >= 0xdc00 && unit <= 0xdfff) this.fail("the string contains an unpaired surrogate escape");
        out += String.fromCodePoint(unit);
      } else this.fail(`invalid escape sequence '\\${e ?? ""}'`);
      run = this.i;
    }
  }

  private number(): number {
    const m = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(this.text.slice(this.i, this.i + 400));
    if (!m) this.fail(`invalid number starting at ${this.describe()}`);
    const start = this.pos();
    for (let k = 0; k < m[0].length; k++) this.advance();
    const next = this.text[this.i];
    if (next !== undefined && /[0-9.eE+\-]/.test(next)) this.fail("invalid number", start);
    const v = Number(m[0]);
    if (!Number.isFinite(v)) this.fail("the number is too large to represent", start);
    return v;
  }
}
