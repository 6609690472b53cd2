/**
 * The one strict JSON parser of the tree: a single left-to-right pass over the text with an explicit
 * stack (no recursion, so 200,000 `[` give a `too_deep` error, never a RangeError), producing a
 * tree with offset+length spans (tree.ts) or the first error as a code with offsets. Messages are
 * the frontends' business: each adapter (src/hcp/json-reader.ts, src/harp/json.ts, src/a3s/package/cjson.ts,
 * src/yao/json-text.ts) words the error codes as it always has.
 *
 * Linear time: unescaped string runs are copied with one slice each, every object keeps a Map of
 * its names only when duplicates are checked, and a pointer is built only for a reported duplicate.
 *
 * Why our own and not @humanwhocodes/momoa or jsonc-parser: see docs/architecture.md ("JSON").
 */
import type { JsonParseOptions } from "./options.js";
import type { JsonDuplicate, JsonTree, JsonTreeMember } from "./tree.js";
import { escapePointerToken } from "./pointer.js";

export type JsonErrorCode =
  | "byte_order_mark"
  | "comment"
  | "empty"
  | "expected_value"
  | "number_no_digits"
  | "number_malformed"
  | "number_not_integer"
  | "number_not_finite"
  | "unterminated_string"
  | "control_character"
  | "invalid_escape"
  | "invalid_unicode_escape"
  | "lone_surrogate"
  | "lone_surrogate_escape"
  | "lone_surrogate_value"
  | "expected_name"
  | "duplicate_key"
  | "expected_colon"
  | "expected_comma_or_close"
  | "trailing_comma"
  | "trailing_data"
  | "too_deep";

/**
 * The first problem. `offset` is where it is noticed: the unexpected character, the backslash of a
 * bad escape, the unit of a lone surrogate, just past the escape for `lone_surrogate_escape`, just
 * past the closing quote for `lone_surrogate_value`, the end of the text for `unterminated_string`,
 * the closing bracket for `trailing_comma`, the start of the value for `too_deep`.
 */
export interface JsonParseError {
  readonly code: JsonErrorCode;
  readonly offset: number;
  /** The token the problem belongs to: the string (from its opening quote), the number, or the member name. */
  readonly start?: number;
  readonly end?: number;
  /** The container the problem is in (`expected_comma_or_close`, `trailing_comma`). */
  readonly container?: "object" | "array";
  /** The member name (`expected_colon`, `duplicate_key`). */
  readonly key?: string;
  /** `duplicate_key`: the first member's name span and the pointer of the holding object. */
  readonly firstStart?: number;
  readonly firstEnd?: number;
  readonly objectPointer?: string;
  /** `trailing_comma`: where the comma is. */
  readonly commaOffset?: number;
  /** `too_deep`: the end of the token before the value (`[`, `,` or `:`), and which token it is. */
  readonly gapStart?: number;
  readonly after?: "[" | "," | ":";
}

export type JsonParseResult =
  | { readonly ok: true; readonly root: JsonTree; readonly duplicates: readonly JsonDuplicate[] }
  | { readonly ok: false; readonly error: JsonParseError };

export function parseJsonTree(text: string, options: JsonParseOptions): JsonParseResult {
  try {
    const parser = new Parser(text, options);
    const root = parser.document();
    return { ok: true, root, duplicates: parser.duplicates };
  } catch (e) {
    if (e instanceof Failure) return { ok: false, error: e.error };
    throw e;
  }
}

class Failure {
  constructor(readonly error: JsonParseError) {}
}

interface ObjectFrame {
  readonly kind: "object";
  readonly offset: number;
  readonly members: JsonTreeMember[];
  /** First member of each name (only when duplicates are checked). */
  readonly names: Map<string, JsonTreeMember> | null;
  /** The member whose value is being read. */
  key: string;
  keyOffset: number;
  keyLength: number;
  readonly parent: Frame | null;
  /** This container's reference token in its parent (escaped), for pointers of duplicates. */
  readonly token: string;
  pointer: string | null;
}

interface ArrayFrame {
  readonly kind: "array";
  readonly offset: number;
  readonly items: JsonTree[];
  readonly parent: Frame | null;
  readonly token: string;
  pointer: string | null;
}

type Frame = ObjectFrame | ArrayFrame;

const SIMPLE_ESCAPES: Readonly<Record<number, string>> = {
  34: '"',
  92: "\\",
  47: "/",
  98: "\b",
  102: "\f",
  110: "\n",
  114: "\r",
  116: "\t",
};

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

function hexValue(text: string, at: number): number {
  let v = 0;
  for (let k = at; k < at + 4; k++) {
    const c = text.charCodeAt(k);
    const d = isDigit(c) ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 0x37 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

function wellFormed(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isHigh(c) && isLow(s.charCodeAt(i + 1))) i++;
    else if (isHigh(c) || isLow(c)) return false;
  }
  return true;
}

class Parser {
  private i = 0;
  private depth = 0;
  readonly duplicates: JsonDuplicate[] = [];

  constructor(
    private readonly t: string,
    private readonly o: JsonParseOptions,
  ) {}

  private fail(error: JsonParseError): never {
    throw new Failure(error);
  }

  document(): JsonTree {
    if (this.o.byteOrderMark === "reject" && this.t.charCodeAt(0) === 0xfeff)
      this.fail({ code: "byte_order_mark", offset: 0 });
    this.ws();
    if (this.i >= this.t.length) this.fail({ code: "empty", offset: this.i });
    const root = this.values();
    this.ws();
    if (this.i < this.t.length) this.fail({ code: "trailing_data", offset: this.i });
    return root;
  }

  /** Reads one whole value at `i` (whitespace already skipped), containers included, without recursion. */
  private values(): JsonTree {
    const t = this.t;
    let top: Frame | null = null;
    // Where the token before the value ended, for `too_deep` (A3S reports that offset).
    let gapStart = this.i;
    let after: "[" | "," | ":" | undefined;
    for (;;) {
      // A value is expected at this.i.
      const start = this.i;
      if (this.o.depthCounts === "values" && this.depth > this.o.maxDepth) this.tooDeep(start, gapStart, after);
      const c = t.charCodeAt(start);
      let done: JsonTree;
      if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
        if (this.o.depthCounts === "containers" && this.depth + 1 > this.o.maxDepth)
          this.tooDeep(start, gapStart, after);
        const token: string =
          top === null ? "" : top.kind === "array" ? String(top.items.length) : escapePointerToken(top.key);
        this.i++;
        this.depth++;
        top =
          c === 0x7b
            ? {
                kind: "object",
                offset: start,
                members: [],
                names: this.o.duplicateKeys === "keep" ? null : new Map(),
                key: "",
                keyOffset: 0,
                keyLength: 0,
                parent: top,
                token,
                pointer: null,
              }
            : { kind: "array", offset: start, items: [], parent: top, token, pointer: null };
        this.ws();
        if (t.charCodeAt(this.i) === (c === 0x7b ? 0x7d : 0x5d)) {
          this.i++;
          done = this.close(top);
          top = top.parent;
        } else {
          if (top.kind === "object") {
            this.memberName(top);
            after = ":";
          } else after = "[";
          gapStart = this.i;
          this.ws();
          continue;
        }
      } else {
        done = this.scalar(start);
      }
      // Attach finished values to their containers; close containers whose last value this was.
      for (;;) {
        if (top === null) return done;
        this.attach(top, done);
        this.ws();
        const d = t.charCodeAt(this.i);
        const close = top.kind === "object" ? 0x7d : 0x5d;
        if (d === 0x2c /* , */) {
          const comma = this.i;
          this.i++;
          gapStart = this.i;
          after = ",";
          this.ws();
          if (t.charCodeAt(this.i) === close)
            this.fail({ code: "trailing_comma", offset: this.i, commaOffset: comma, container: top.kind });
          if (top.kind === "object") {
            this.memberName(top);
            gapStart = this.i;
            after = ":";
            this.ws();
          }
          break;
        }
        if (d === close) {
          this.i++;
          done = this.close(top);
          top = top.parent;
          continue;
        }
        this.fail({ code: "expected_comma_or_close", offset: this.i, container: top.kind });
      }
    }
  }

  private tooDeep(offset: number, gapStart: number, after: "[" | "," | ":" | undefined): never {
    this.fail(
      after === undefined ? { code: "too_deep", offset, gapStart } : { code: "too_deep", offset, gapStart, after },
    );
  }

  private close(frame: Frame): JsonTree {
    this.depth--;
    const offset = frame.offset;
    const length = this.i - offset;
    return frame.kind === "object"
      ? { type: "object", offset, length, members: frame.members }
      : { type: "array", offset, length, items: frame.items };
  }

  private attach(frame: Frame, value: JsonTree): void {
    if (frame.kind === "array") {
      frame.items.push(value);
      return;
    }
    const member: JsonTreeMember = { key: frame.key, keyOffset: frame.keyOffset, keyLength: frame.keyLength, value };
    frame.members.push(member);
    if (this.o.duplicateKeys !== "report") return;
    const first = frame.names!.get(member.key);
    if (first === undefined) frame.names!.set(member.key, member);
    else {
      this.duplicates.push({
        key: member.key,
        keyOffset: member.keyOffset,
        keyLength: member.keyLength,
        firstKeyOffset: first.keyOffset,
        firstKeyLength: first.keyLength,
        objectPointer: this.pointerOf(frame),
      });
    }
  }

  /** The JSON Pointer of a container, built once per container and only when asked for. */
  private pointerOf(frame: Frame): string {
    // Iterative: a caller may allow nesting deeper than the stack.
    const missing: Frame[] = [];
    for (let f: Frame | null = frame; f !== null && f.pointer === null; f = f.parent) missing.push(f);
    for (let k = missing.length - 1; k >= 0; k--) {
      const f = missing[k]!;
      f.pointer = f.parent === null ? "" : `${f.parent.pointer}/${f.token}`;
    }
    return frame.pointer!;
  }

  /** Reads `"name" :` (whitespace before the name skipped here) into the frame; leaves `i` just past the colon. */
  private memberName(frame: ObjectFrame): void {
    this.ws();
    const t = this.t;
    if (t.charCodeAt(this.i) !== 0x22) this.fail({ code: "expected_name", offset: this.i, container: "object" });
    const keyOffset = this.i;
    const key = this.string();
    const keyEnd = this.i;
    if (this.o.duplicateKeys === "reject") {
      const first = frame.names!.get(key);
      if (first !== undefined) {
        this.fail({
          code: "duplicate_key",
          offset: keyOffset,
          start: keyOffset,
          end: keyEnd,
          key,
          firstStart: first.keyOffset,
          firstEnd: first.keyOffset + first.keyLength,
          objectPointer: this.pointerOf(frame),
        });
      }
      // Registered by name now: the value is read later, and the member object is not built yet.
      frame.names!.set(key, { key, keyOffset, keyLength: keyEnd - keyOffset, value: NULL_PLACEHOLDER });
    }
    this.ws();
    if (t.charCodeAt(this.i) !== 0x3a /* : */)
      this.fail({ code: "expected_colon", offset: this.i, key, start: keyOffset, end: keyEnd });
    this.i++;
    frame.key = key;
    frame.keyOffset = keyOffset;
    frame.keyLength = keyEnd - keyOffset;
  }

  private scalar(start: number): JsonTree {
    const t = this.t;
    const c = t.charCodeAt(start);
    if (c === 0x22) {
      const value = this.string();
      return { type: "string", value, offset: start, length: this.i - start };
    }
    if (c === 0x2d || isDigit(c)) return this.number(start);
    if (c === 0x74 && t.startsWith("true", start)) return this.literal(start, 4, { type: "boolean", value: true });
    if (c === 0x66 && t.startsWith("false", start)) return this.literal(start, 5, { type: "boolean", value: false });
    if (c === 0x6e && t.startsWith("null", start)) return this.literal(start, 4, { type: "null", value: null });
    return this.fail({ code: "expected_value", offset: start });
  }

  private literal<T extends { type: "boolean"; value: boolean } | { type: "null"; value: null }>(
    start: number,
    length: number,
    node: T,
  ): T & { offset: number; length: number } {
    this.i = start + length;
    return { ...node, offset: start, length };
  }

  /** The longest prefix matching `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?` within `maxNumberLength` characters. */
  private number(start: number): JsonTree {
    const t = this.t;
    const limit = Math.min(t.length, start + this.o.maxNumberLength);
    let j = start;
    if (t.charCodeAt(j) === 0x2d) j++;
    if (j >= limit || !isDigit(t.charCodeAt(j))) this.fail({ code: "number_no_digits", offset: start, start });
    if (t.charCodeAt(j) === 0x30) j++;
    else while (j < limit && isDigit(t.charCodeAt(j))) j++;
    let integer = true;
    if (j + 1 < limit && t.charCodeAt(j) === 0x2e && isDigit(t.charCodeAt(j + 1))) {
      j += 2;
      while (j < limit && isDigit(t.charCodeAt(j))) j++;
      integer = false;
    }
    const e = t.charCodeAt(j);
    if (j < limit && (e === 0x65 || e === 0x45)) {
      let k = j + 1;
      const s = t.charCodeAt(k);
      if (k < limit && (s === 0x2b || s === 0x2d)) k++;
      if (k < limit && isDigit(t.charCodeAt(k))) {
        while (k < limit && isDigit(t.charCodeAt(k))) k++;
        j = k;
        integer = false;
      }
    }
    const raw = t.slice(start, j);
    if (this.o.numbers === "integer" && !integer)
      this.fail({ code: "number_not_integer", offset: start, start, end: j });
    if (j < t.length && this.o.notAfterNumber.includes(t[j]!))
      this.fail({ code: "number_malformed", offset: start, start, end: j });
    let value: number | bigint;
    if (this.o.numbers === "integer") value = BigInt(raw);
    else {
      value = Number(raw);
      if (this.o.finiteNumbers && !Number.isFinite(value))
        this.fail({ code: "number_not_finite", offset: start, start, end: j });
    }
    this.i = j;
    return { type: "number", value, offset: start, length: j - start };
  }

  /** Reads the string whose opening quote is at `i`; leaves `i` past the closing quote. */
  private string(): string {
    const t = this.t;
    const open = this.i;
    const surrogates = this.o.loneSurrogates;
    let i = open + 1;
    let out = "";
    let run = i;
    for (;;) {
      if (i >= t.length) this.fail({ code: "unterminated_string", offset: t.length, start: open });
      const c = t.charCodeAt(i);
      if (c === 0x22) {
        out += t.slice(run, i);
        this.i = i + 1;
        if (surrogates === "reject-value" && !wellFormed(out))
          this.fail({ code: "lone_surrogate_value", offset: this.i, start: open, end: this.i });
        return out;
      }
      if (c < 0x20) this.fail({ code: "control_character", offset: i, start: open });
      if (surrogates === "reject-text" && (isHigh(c) || isLow(c))) {
        if (isHigh(c) && isLow(t.charCodeAt(i + 1))) {
          i += 2;
          continue;
        }
        this.fail({ code: "lone_surrogate", offset: i, start: open });
      }
      if (c !== 0x5c /* \ */) {
        i++;
        continue;
      }
      out += t.slice(run, i);
      const e = t.charCodeAt(i + 1);
      const simple = SIMPLE_ESCAPES[e];
      if (simple !== undefined) {
        out += simple;
        i += 2;
      } else if (e === 0x75 /* u */) {
        let unit = hexValue(t, i + 2);
        if (unit < 0) this.fail({ code: "invalid_unicode_escape", offset: i, start: open });
        i += 6;
        if (surrogates === "reject-text" && isHigh(unit)) {
          const low = t.charCodeAt(i) === 0x5c && t.charCodeAt(i + 1) === 0x75 ? hexValue(t, i + 2) : -1;
          if (!isLow(low)) this.fail({ code: "lone_surrogate_escape", offset: i, start: open });
          out += String.fromCharCode(unit);
          unit = low;
          i += 6;
        } else if (surrogates === "reject-text" && isLow(unit))
          this.fail({ code: "lone_surrogate_escape", offset: i, start: open });
        out += String.fromCharCode(unit);
      } else this.fail({ code: "invalid_escape", offset: i, start: open });
      run = i;
    }
  }

  private ws(): void {
    const t = this.t;
    let i = this.i;
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else if (
        c === 0x2f &&
        this.o.comments === "reject" &&
        (t.charCodeAt(i + 1) === 0x2f || t.charCodeAt(i + 1) === 0x2a)
      ) {
        this.i = i;
        this.fail({ code: "comment", offset: i });
      } else break;
    }
    this.i = i;
  }
}

/** Stands in for a member's value while only its name is known (reject mode checks names before values). */
const NULL_PLACEHOLDER: JsonTree = { type: "null", value: null, offset: 0, length: 0 };
