import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, readJson, type JsonNode } from "../../src/hcp/json-reader.js";
import { TextPositions } from "../../src/diagnostics/text-positions.js";

function toValue(n: JsonNode): unknown {
  switch (n.kind) {
    case "object":
      return Object.fromEntries(n.members.map((m) => [m.key, toValue(m.value)]));
    case "array":
      return n.items.map(toValue);
    case "null":
      return null;
    default:
      return n.value;
  }
}

function jsonParses(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

describe("readJson", () => {
  it("reads the same values as JSON.parse", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (v) => {
        const text = JSON.stringify(v, null, 1);
        const r = readJson(text);
        expect(r.ok).toBe(true);
        if (r.ok) expect(toValue(r.root)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it("accepts exactly what JSON.parse accepts on near-JSON strings, and never throws", () => {
    const alphabet = fc.constantFrom(...'{}[],:"\\ \n\t0123456789.-+eEtruefalsn\u00e9\ufeff/ab'.split(""));
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 40 }).map((cs) => cs.join("")),
        (s) => {
          expect(readJson(s).ok).toBe(jsonParses(s));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("keeps offsets of values and keys", () => {
    const text = '{"a": [1, "x"], "b": null}';
    const r = readJson(text);
    if (!r.ok || r.root.kind !== "object") throw new Error("expected an object");
    const a = r.root.byKey.get("a")!;
    expect(text.slice(a.keyStart, a.keyEnd)).toBe('"a"');
    expect(text.slice(a.value.start, a.value.end)).toBe('[1, "x"]');
    const b = r.root.byKey.get("b")!;
    expect(text.slice(b.value.start, b.value.end)).toBe("null");
  });

  it("reports duplicate keys with both locations and the object pointer", () => {
    const r = readJson('{"x": {"k~/": 1, "k~/": 2}}');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.duplicates).toHaveLength(1);
    expect(r.duplicates[0]).toMatchObject({ key: "k~/", objectPointer: "/x", start: 17, firstStart: 7 });
  });

  it.each([
    ["", "empty"],
    ['{"a":1,}', "trailing comma"],
    ["[1,]", "trailing comma"],
    ["{'a':1}", "member name"],
    ['{"a" 1}', "':'"],
    ["01", "malformed number"],
    ["1.", "malformed number"],
    ['"a\u0001"', "control character"],
    ['"\\x"', "invalid escape"],
    ['"\\u12G4"', "\\u escape"],
    ['"abc', "unterminated"],
    ["tru", "expected a JSON value"],
    ["{} {}", "after the end"],
    ["\ufeff{}", "byte order mark"],
    ["/* c */ {}", "expected a JSON value"],
  ])("rejects %j (%s)", (text, fragment) => {
    const r = readJson(text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.problem).toBe("syntax");
      expect(r.message).toContain(fragment);
    }
  });

  it("rejects nesting past the limit without exhausting the stack", () => {
    const deep = "[".repeat(200_000) + "]".repeat(200_000);
    const r = readJson(deep);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.problem).toBe("too_deep");
      expect(r.offset).toBe(MAX_JSON_DEPTH);
    }
    const atLimit = "[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH);
    expect(readJson(atLimit).ok).toBe(true);
    const objects = `${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${"}".repeat(MAX_JSON_DEPTH + 1)}`;
    expect(readJson(objects)).toMatchObject({ ok: false, problem: "too_deep" });
  });

  it("reads a megabyte of JSON in linear time", () => {
    const big = JSON.stringify({
      verbs: Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`v${i}`, { s: "x".repeat(10) }])),
    });
    const t0 = performance.now();
    const r = readJson(big);
    expect(r.ok).toBe(true);
    // A hang guard, not a speed test (speed is measured in `npm run bench`): a quadratic reader takes
    // minutes on this input, a linear one milliseconds, so the bound holds on any loaded machine.
    expect(performance.now() - t0).toBeLessThan(30_000);
  }, 60_000);
});

describe("TextPositions", () => {
  it("counts UTF-8 bytes and Unicode scalars, with LF, CRLF and CR line breaks", () => {
    const text = "a\u00e9\ud83d\ude00b\r\nx\ry\nz";
    const p = new TextPositions(text);
    expect(p.position(0)).toEqual({ byte: 0, line: 1, column: 1 });
    expect(p.position(2)).toEqual({ byte: 3, line: 1, column: 3 }); // after a, é (2 bytes)
    expect(p.position(4)).toEqual({ byte: 7, line: 1, column: 4 }); // after the emoji (4 bytes, 1 scalar)
    expect(p.position(7)).toEqual({ byte: 10, line: 2, column: 1 }); // x, after CRLF
    expect(p.position(9)).toEqual({ byte: 12, line: 3, column: 1 }); // y, after lone CR
    expect(p.position(11)).toEqual({ byte: 14, line: 4, column: 1 }); // z
    expect(p.position(text.length)).toEqual({ byte: 15, line: 4, column: 2 });
  });

  it("gives the same position whatever lookups came before (continuing from the last lookup is exact)", () => {
    const text = "ab\u00e9\ud83d\ude00\n\u4e2d\r\nx\ry".repeat(300);
    const shared = new TextPositions(text);
    fc.assert(
      fc.property(fc.array(fc.nat({ max: text.length }), { maxLength: 30 }), (indices) => {
        for (const i of indices) expect(shared.position(i)).toEqual(new TextPositions(text).position(i));
      }),
      { numRuns: 200 },
    );
  });

  it("agrees with a naive walk at every index of a long mixed text (checkpoints are exact)", () => {
    const unit = "ab\u00e9\ud83d\ude00\n\u4e2d\r\n";
    const text = unit.repeat(700);
    const p = new TextPositions(text);
    const enc = new TextEncoder();
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i <= text.length; i++) {
      if (i > 0 && text[i - 1] === "\n") {
        line++;
        lineStart = i;
      }
      const lowSurrogate = i > 0 && /[\udc00-\udfff]/.test(text[i]!);
      if (lowSurrogate) continue;
      const expected = {
        byte: enc.encode(text.slice(0, i)).length,
        line,
        column: [...text.slice(lineStart, i)].length + 1,
      };
      expect(p.position(i)).toEqual(expected);
    }
  });
});
