/**
 * OLPC canonical JSON (reference §3.5, the `olpc-cjson` crate that A3S Use hashes its contracts
 * with) and a strict JSON reader for it.
 *
 * Canonical form: no whitespace; object keys sorted by their UTF-8 bytes; strings NFC-normalised
 * with only `"` and `\` escaped (control characters are written raw); integers in plain decimal;
 * floats rejected. This is not RFC 8785 (JCS escapes controls, sorts by UTF-16 and does not
 * normalise), so src/evidence/jcs.ts is not reused.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { compareCodePoints } from "../text/code-point-order.js";
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
  out.push('"', s.normalize("NFC").replace(/["\\]/g, (c) => `\\${c}`), '"');
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
    const keyed = entries.map(([k, x]) => [k.normalize("NFC"), x] as const).sort((a, b) => compareCodePoints(a[0], b[0]));
    for (let i = 1; i < keyed.length; i++) if (keyed[i - 1]![0] === keyed[i]![0]) throw new CJsonError(`duplicate key '${keyed[i]![0]}' after normalisation`);
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
 * Strict RFC 8259 JSON reader: rejects duplicate keys, floats/exponents (as the canonical form
 * would), trailing data, lone surrogates and nesting deeper than 128.
 */
export function parseStrictJson(text: string): CJson {
  let i = 0;
  const fail = (what: string): never => {
    throw new CJsonError(`invalid JSON at offset ${i}: ${what}`);
  };
  const ws = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const str = (): string => {
    i++; // opening quote
    let s = "";
    for (;;) {
      if (i >= text.length) fail("unterminated string");
      const c = text[i]!;
      if (c === '"') {
        i++;
        break;
      }
      if (c.charCodeAt(0) < 0x20) fail("raw control character in string");
      if (c !== "\\") {
        s += c;
        i++;
        continue;
      }
      const e = text[i + 1];
      i += 2;
      const simple: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
      if (e !== undefined && e in simple) s += simple[e];
      else if (e === "u") {
        const h = text.slice(i, i + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(h)) fail("bad \\u escape");
        s += String.fromCharCode(parseInt(h, 16));
        i += 4;
      } else fail("bad escape");
    }
    if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s)) fail("lone surrogate in string");
    return s;
  };
  const value = (depth: number): CJson => {
    if (depth > 128) fail("nested deeper than 128 levels");
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const o: Record<string, CJson> = Object.create(null) as Record<string, CJson>;
      ws();
      if (text[i] === "}") {
        i++;
        return o;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail("expected a key");
        const k = str();
        if (Object.prototype.hasOwnProperty.call(o, k)) fail(`duplicate key '${k}'`);
        ws();
        if (text[i] !== ":") fail("expected ':'");
        i++;
        o[k] = value(depth + 1);
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return o;
        }
        fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      i++;
      const a: CJson[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return a;
      }
      for (;;) {
        a.push(value(depth + 1));
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return a;
        }
        fail("expected ',' or ']'");
      }
    }
    if (c === '"') return str();
    for (const [lit, v] of [["true", true], ["false", false], ["null", null]] as const) {
      if (text.startsWith(lit, i)) {
        i += lit.length;
        return v;
      }
    }
    const m = /^-?(0|[1-9][0-9]*)([.eE][-+0-9.eE]*)?/.exec(text.slice(i, i + 400));
    if (m === null) return fail("unexpected character");
    if (m[2] !== undefined) fail("floating-point numbers are not allowed in canonical JSON");
    i += m[0].length;
    const b = BigInt(m[0]);
    return b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : b;
  };
  const v = value(0);
  ws();
  if (i !== text.length) fail("trailing data");
  return v;
}
