/**
 * Ordered JSON for the IR encoding (yao-v0.1.md §9.8): objects keep an explicit key order (JS objects
 * would hoist integer-like keys), integers stay exact as bigint, and both the writer and the reader
 * are iterative so deeply nested input cannot overflow the stack.
 */
import { compareCodePoints } from "./text.js";

export class JObject {
  constructor(readonly entries: [string, JValue][]) {}

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

class Raw {
  constructor(readonly text: string) {}
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
      stack.push(new Raw("]"));
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push(v[i]!);
        if (i > 0) stack.push(new Raw(","));
      }
    } else {
      let entries = v.entries;
      if (identity) {
        entries = entries.filter(([k]) => !IDENTITY_STRIPPED.has(k));
        if (v.get("op") === "dict") entries = entries.map(([k, x]) => [k, k === "entries" ? sortDictEntries(x) : x]);
        entries = [...entries].sort((a, b) => compareCodePoints(a[0], b[0]));
      }
      out.push("{");
      stack.push(new Raw("}"));
      for (let i = entries.length - 1; i >= 0; i--) {
        stack.push(entries[i]![1], new Raw(`${JSON.stringify(entries[i]![0])}:`));
        if (i > 0) stack.push(new Raw(","));
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

export class JsonSyntaxError extends Error {}

const SIMPLE_ESCAPES = '"\\/bfnrt';

/**
 * Parse JSON text into ordered values. Integers become bigint; numbers with a fraction or exponent
 * are rejected (the IR has none). Nesting deeper than `maxDepth` is rejected.
 */
export function parseJson(text: string, maxDepth = 4096): JValue {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const err = (msg: string): never => {
    throw new JsonSyntaxError(`${msg} at offset ${i}`);
  };
  // A loop rather than one regular expression over the whole string: V8 keeps a backtracking
  // entry per repetition of `(?:a|b)*`, which overflows on a string of some megabytes.
  const str = (): string => {
    let j = i + 1;
    for (;;) {
      if (j >= text.length) return err("invalid string");
      const c = text.charCodeAt(j);
      if (c === 0x22) break;
      if (c < 0x20) return err("invalid string");
      if (c !== 0x5c) {
        j++;
        continue;
      }
      const e = text[j + 1];
      if (e === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(j + 2, j + 6))) j += 6;
      else if (e !== undefined && SIMPLE_ESCAPES.includes(e)) j += 2;
      else return err("invalid string");
    }
    const raw = text.slice(i, j + 1);
    i = j + 1;
    return JSON.parse(raw) as string;
  };
  type Frame = { container: JValue[] | JObject; parentKey: string | undefined };
  const frames: Frame[] = [];
  let result: JValue | undefined;
  const add = (v: JValue, key: string | undefined): void => {
    const top = frames[frames.length - 1];
    if (top === undefined) result = v;
    else if (Array.isArray(top.container)) top.container.push(v);
    else top.container.entries.push([key!, v]);
  };
  do {
    ws();
    const top = frames[frames.length - 1];
    let key: string | undefined;
    if (top !== undefined) {
      const isArr = Array.isArray(top.container);
      const count = isArr ? (top.container as JValue[]).length : (top.container as JObject).entries.length;
      if (text[i] === (isArr ? "]" : "}")) {
        i++;
        frames.pop();
        add(top.container, top.parentKey);
        continue;
      }
      if (count > 0) {
        if (text[i] !== ",") err(`expected ',' or '${isArr ? "]" : "}"}'`);
        i++;
        ws();
      }
      if (!isArr) {
        if (text[i] !== '"') err("expected object key");
        key = str();
        ws();
        if (text[i] !== ":") err("expected ':'");
        i++;
        ws();
      }
    }
    const c = text[i];
    if (c === "{" || c === "[") {
      if (frames.length >= maxDepth) err(`JSON nesting exceeds ${maxDepth}`);
      i++;
      frames.push({ container: c === "{" ? new JObject([]) : [], parentKey: key });
      continue;
    }
    let value: JValue;
    if (c === '"') value = str();
    else if (text.startsWith("true", i)) (value = true), (i += 4);
    else if (text.startsWith("false", i)) (value = false), (i += 5);
    else if (text.startsWith("null", i)) (value = null), (i += 4);
    else {
      const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
      if (m === null) return err("unexpected character");
      if (m[2] !== undefined || m[3] !== undefined) err("non-integer numbers do not occur in Yao IR");
      value = BigInt(m[0]);
      i += m[0].length;
    }
    add(value, key);
  } while (frames.length > 0);
  ws();
  if (i !== text.length) err("trailing text after JSON value");
  return result!;
}
