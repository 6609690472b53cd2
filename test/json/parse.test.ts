/**
 * The one strict JSON parser (src/json/parse.ts): spans, each option, and its bounds (deep nesting
 * and huge inputs give an error or a tree in linear time, never a RangeError). The frontends'
 * wording of its errors is tested with each frontend (test/hcp/json-reader.test.ts, ...).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonParseOptions } from "../../src/json/options.js";
import { parseJsonTree } from "../../src/json/parse.js";
import type { JsonTree } from "../../src/json/tree.js";
import { readJson } from "../../src/hcp/json-reader.js";
import { parseHarpJson as parseHarp } from "../../src/harp/json.js";
import { parseStrictJson } from "../../src/a3s/package/cjson.js";
import { parseIrJson as parseYao } from "../../src/yao/json-text.js";

const BASE: JsonParseOptions = {
  maxDepth: 64,
  depthCounts: "containers",
  duplicateKeys: "keep",
  loneSurrogates: "allow",
  numbers: "float",
  finiteNumbers: false,
  maxNumberLength: Infinity,
  notAfterNumber: "0123456789.eE",
  byteOrderMark: "reject",
  comments: "unexpected",
};
const opts = (o: Partial<JsonParseOptions>): JsonParseOptions => ({ ...BASE, ...o });

function plain(n: JsonTree): unknown {
  if (n.type === "object") return Object.fromEntries(n.members.map((m) => [m.key, plain(m.value)]));
  if (n.type === "array") return n.items.map(plain);
  return n.value;
}

function tree(text: string, o: Partial<JsonParseOptions> = {}): JsonTree {
  const r = parseJsonTree(text, opts(o));
  if (!r.ok) throw new Error(`unexpected error ${r.error.code} at ${r.error.offset}`);
  return r.root;
}

function errorOf(text: string, o: Partial<JsonParseOptions> = {}) {
  const r = parseJsonTree(text, opts(o));
  if (r.ok) throw new Error("expected an error");
  return r.error;
}

describe("parseJsonTree", () => {
  it("reads what JSON.parse reads", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.boolean(), (v, pretty) => {
        const text = JSON.stringify(v, null, pretty ? 2 : undefined);
        expect(plain(tree(text))).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it("accepts exactly what JSON.parse accepts (lone surrogates allowed, duplicates kept)", () => {
    const alphabet = fc.constantFrom(...'{}[],:"\\ \n\t0123456789.-+eEtruefalsnu\u00e9\ufeff/*abD8\ud800'.split(""));
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 40 }).map((cs) => cs.join("")),
        (s) => {
          let expected = true;
          try {
            JSON.parse(s);
          } catch {
            expected = false;
          }
          expect(parseJsonTree(s, BASE).ok).toBe(expected);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("gives every value and member name an offset+length span", () => {
    const text = '{"a": [1, "x\\n"], "b": {"c": null}}';
    const root = tree(text);
    if (root.type !== "object") throw new Error("object expected");
    const slice = (o: number, l: number): string => text.slice(o, o + l);
    const [a, b] = root.members;
    expect(slice(root.offset, root.length)).toBe(text);
    expect(slice(a!.keyOffset, a!.keyLength)).toBe('"a"');
    expect(slice(a!.value.offset, a!.value.length)).toBe('[1, "x\\n"]');
    if (a!.value.type !== "array") throw new Error("array expected");
    expect(a!.value.items.map((x) => slice(x.offset, x.length))).toEqual(["1", '"x\\n"']);
    expect(slice(b!.value.offset, b!.value.length)).toBe('{"c": null}');
  });

  describe("duplicate keys", () => {
    const text = '{"x": {"k~/": 1, "k~/": 2}, "x": 3}';
    it("keep: every member stays, in order, and nothing is reported", () => {
      const r = parseJsonTree(text, opts({ duplicateKeys: "keep" }));
      expect(r.ok && r.duplicates).toEqual([]);
      const root = tree(text);
      expect(root.type === "object" && root.members.map((m) => m.key)).toEqual(["x", "x"]);
    });
    it("report: both positions and the pointer of the holding object, in the order the members end", () => {
      const r = parseJsonTree(text, opts({ duplicateKeys: "report" }));
      if (!r.ok) throw new Error("expected a tree");
      expect(r.duplicates).toEqual([
        { key: "k~/", keyOffset: 17, keyLength: 5, firstKeyOffset: 7, firstKeyLength: 5, objectPointer: "/x" },
        { key: "x", keyOffset: 28, keyLength: 3, firstKeyOffset: 1, firstKeyLength: 3, objectPointer: "" },
      ]);
    });
    it("reject: the first repeat is an error at its name, with the first name's span", () => {
      expect(errorOf(text, { duplicateKeys: "reject" })).toMatchObject({
        code: "duplicate_key",
        key: "k~/",
        start: 17,
        end: 22,
        firstStart: 7,
        firstEnd: 12,
        objectPointer: "/x",
      });
    });
  });

  describe("depth", () => {
    it("containers: at most maxDepth open containers; values: at most maxDepth containers around any value", () => {
      expect(parseJsonTree("[[[]]]", opts({ maxDepth: 3 })).ok).toBe(true);
      expect(errorOf("[[[[]]]]", { maxDepth: 3 })).toMatchObject({ code: "too_deep", offset: 3 });
      expect(parseJsonTree("[[[1]]]", opts({ maxDepth: 3, depthCounts: "values" })).ok).toBe(true);
      expect(errorOf("[[[[1]]]]", { maxDepth: 3, depthCounts: "values" })).toMatchObject({
        code: "too_deep",
        offset: 4,
      });
    });

    it.each(["containers", "values"] as const)(
      "%s: 200,000 nested brackets and braces are an error, never a RangeError",
      (depthCounts) => {
        const n = 200_000;
        expect(errorOf("[".repeat(n) + "]".repeat(n), { depthCounts })).toMatchObject({ code: "too_deep" });
        expect(errorOf(`${'{"a":'.repeat(n)}1${"}".repeat(n)}`, { depthCounts })).toMatchObject({ code: "too_deep" });
        // With a limit that high, the parser itself must not recurse either.
        const deep = parseJsonTree("[".repeat(n) + "]".repeat(n), opts({ depthCounts, maxDepth: n + 1 }));
        expect(deep.ok).toBe(true);
        // Nor does building the pointer of a duplicate that deep.
        const dup = parseJsonTree(
          `${'{"a":'.repeat(n)}{"k":1,"k":2}${"}".repeat(n)}`,
          opts({ depthCounts, maxDepth: n + 2, duplicateKeys: "reject" }),
        );
        expect(!dup.ok && dup.error.objectPointer).toBe("/a".repeat(n));
      },
    );

    it("every frontend turns 200,000 nested brackets into its own diagnostic, not a RangeError", () => {
      const deep = "[".repeat(200_000) + "]".repeat(200_000);
      expect(readJson(deep)).toMatchObject({ ok: false, problem: "too_deep" });
      expect(parseHarp(deep)).toMatchObject({ ok: false, error: { kind: "too_deep" } });
      expect(() => parseStrictJson(deep)).toThrow(/nested deeper than 128 levels/);
      expect(() => parseYao(deep)).toThrow(/JSON nesting exceeds 4096/);
    });
  });

  describe("lone surrogates", () => {
    const cases: [string, Record<JsonParseOptions["loneSurrogates"], string | true>][] = [
      ['"\\ud800"', { allow: true, "reject-text": "lone_surrogate_escape", "reject-value": "lone_surrogate_value" }],
      ['"\\udc00"', { allow: true, "reject-text": "lone_surrogate_escape", "reject-value": "lone_surrogate_value" }],
      ['"\ud800x"', { allow: true, "reject-text": "lone_surrogate", "reject-value": "lone_surrogate_value" }],
      ['"\\ud83d\\ude00"', { allow: true, "reject-text": true, "reject-value": true }],
      ['"\ud83d\ude00"', { allow: true, "reject-text": true, "reject-value": true }],
      // An escaped high half followed by a raw low half: well-formed once decoded, but not as written.
      ['"\\ud83d\ude00"', { allow: true, "reject-text": "lone_surrogate_escape", "reject-value": true }],
    ];
    it.each(cases)("%j", (text, expected) => {
      for (const policy of ["allow", "reject-text", "reject-value"] as const) {
        const r = parseJsonTree(text, opts({ loneSurrogates: policy }));
        if (expected[policy] === true) expect(r.ok, policy).toBe(true);
        else expect(!r.ok && r.error.code, policy).toBe(expected[policy]);
      }
    });
    it("allow decodes exactly as JSON.parse", () => {
      expect(plain(tree('["\\ud800", "\\ud83d\\ude00"]'))).toEqual(JSON.parse('["\\ud800", "\\ud83d\\ude00"]'));
    });
  });

  describe("numbers", () => {
    it("float keeps the text as written in the span; integer gives exact bigints", () => {
      const t = tree("[1.50, 1e2]");
      expect(
        t.type === "array" && t.items.map((x) => [plain(x), "[1.50, 1e2]".slice(x.offset, x.offset + x.length)]),
      ).toEqual([
        [1.5, "1.50"],
        [100, "1e2"],
      ]);
      expect(plain(tree("[18446744073709551617, -0]", { numbers: "integer" }))).toEqual([18446744073709551617n, 0n]);
      expect(errorOf("[1, 2.5]", { numbers: "integer" })).toMatchObject({ code: "number_not_integer", offset: 4 });
    });
    it("finiteNumbers rejects overflow; notAfterNumber rejects leading zeros and cut-off fractions", () => {
      expect(errorOf("1e400", { finiteNumbers: true })).toMatchObject({ code: "number_not_finite", start: 0, end: 5 });
      expect(plain(tree("1e400"))).toBe(Infinity);
      expect(errorOf("01")).toMatchObject({ code: "number_malformed", start: 0, end: 1 });
      expect(errorOf("1.")).toMatchObject({ code: "number_malformed" });
      expect(errorOf("-")).toMatchObject({ code: "number_no_digits" });
      expect(errorOf("01", { notAfterNumber: "" })).toMatchObject({ code: "trailing_data", offset: 1 });
    });
    it("maxNumberLength: the scanner reads no further, so a longer number is followed by its own digits", () => {
      expect(errorOf("1".repeat(401), { maxNumberLength: 400 })).toMatchObject({ code: "number_malformed", end: 400 });
      expect(plain(tree("1".repeat(400), { maxNumberLength: 400, numbers: "integer" }))).toBe(BigInt("1".repeat(400)));
    });
  });

  it("byte order mark and comments get their own codes only when asked", () => {
    expect(errorOf("\ufeff{}")).toMatchObject({ code: "byte_order_mark", offset: 0 });
    expect(errorOf("\ufeff{}", { byteOrderMark: "unexpected" })).toMatchObject({ code: "expected_value", offset: 0 });
    expect(errorOf("[1, // x\n2]", { comments: "reject" })).toMatchObject({ code: "comment", offset: 4 });
    expect(errorOf("[1, // x\n2]")).toMatchObject({ code: "expected_value", offset: 4 });
  });

  it("reports syntax errors at the offending character", () => {
    expect(errorOf("")).toMatchObject({ code: "empty", offset: 0 });
    expect(errorOf("[1,]")).toMatchObject({ code: "trailing_comma", offset: 3, commaOffset: 2, container: "array" });
    expect(errorOf('{"a" 1}')).toMatchObject({ code: "expected_colon", offset: 5, key: "a" });
    expect(errorOf('{"a":1 "b":2}')).toMatchObject({ code: "expected_comma_or_close", offset: 7, container: "object" });
    expect(errorOf('"ab\\x"')).toMatchObject({ code: "invalid_escape", offset: 3, start: 0 });
    expect(errorOf('"ab\\u12G4"')).toMatchObject({ code: "invalid_unicode_escape", offset: 3 });
    expect(errorOf('"a\u0001"')).toMatchObject({ code: "control_character", offset: 2 });
    expect(errorOf('"abc')).toMatchObject({ code: "unterminated_string", offset: 4, start: 0 });
    expect(errorOf("{} x")).toMatchObject({ code: "trailing_data", offset: 3 });
  });

  describe("linear time (hang guards, not speed tests: a quadratic parser takes minutes here, a linear one milliseconds)", () => {
    const within = (ms: number, f: () => void): void => {
      const t0 = performance.now();
      f();
      expect(performance.now() - t0).toBeLessThan(ms);
    };
    it("a 1 MiB string of escapes", () => {
      const text = `"${"\\n\\u00e9\\\\".repeat(Math.ceil((1024 * 1024) / 10))}"`;
      expect(text.length).toBeGreaterThan(1024 * 1024 - 20);
      for (const loneSurrogates of ["allow", "reject-text", "reject-value"] as const) {
        within(30_000, () => expect(tree(text, { loneSurrogates }).type).toBe("string"));
      }
      within(30_000, () => expect(parseHarp(text).ok).toBe(true));
      within(30_000, () => expect(typeof parseStrictJson(text)).toBe("string"));
    }, 120_000);
    it("100,000 keys in one object, with and without duplicate checks", () => {
      const text = `{${Array.from({ length: 100_000 }, (_, i) => `"k${i}":${i}`).join(",")}}`;
      for (const duplicateKeys of ["keep", "report", "reject"] as const) {
        within(30_000, () => expect(tree(text, { duplicateKeys }).type).toBe("object"));
      }
      within(30_000, () => expect(readJson(text).ok).toBe(true));
      within(30_000, () => expect(parseHarp(text).ok).toBe(true));
    }, 120_000);
    it("100,000 duplicate keys reported in a nested object", () => {
      const text = `{"a":{"b":[{${Array.from({ length: 100_000 }, () => '"k":1').join(",")}}]}}`;
      within(30_000, () => {
        const r = parseJsonTree(text, opts({ duplicateKeys: "report" }));
        expect(r.ok && r.duplicates.length).toBe(99_999);
        expect(r.ok && r.duplicates[0]!.objectPointer).toBe("/a/b/0");
      });
    }, 120_000);
  });
});

describe('each frontend\'s policies, as docs/architecture.md ("JSON") states them', () => {
  it("duplicate names: HCP reports both spans, HARP and A3S reject, Yao keeps both in order", () => {
    const text = '{"a":1,"a":2}';
    expect(readJson(text)).toMatchObject({
      ok: true,
      duplicates: [{ key: "a", start: 7, end: 10, firstStart: 1, firstEnd: 4 }],
    });
    expect(parseHarp(text)).toMatchObject({ ok: false, error: { kind: "duplicate_key", pointer: "/a" } });
    expect(() => parseStrictJson(text)).toThrow(/duplicate key 'a'/);
    expect(parseYao(text)).toMatchObject({
      entries: [
        ["a", 1n],
        ["a", 2n],
      ],
    });
  });

  it("depth: HCP 64 objects/arrays, HARP 64 containers around any value, A3S 128, Yao its maxDepth", () => {
    const nest = (n: number, inner = ""): string => "[".repeat(n) + inner + "]".repeat(n);
    expect(readJson(nest(64)).ok).toBe(true);
    expect(readJson(nest(65))).toMatchObject({ ok: false, problem: "too_deep" });
    expect(parseHarp(nest(64, "1")).ok).toBe(true);
    expect(parseHarp(nest(65, "1"))).toMatchObject({ ok: false, error: { kind: "too_deep" } });
    expect(parseHarp(nest(65)).ok).toBe(true);
    expect(() => parseStrictJson(nest(128, "1"))).not.toThrow();
    expect(() => parseStrictJson(nest(129, "1"))).toThrow(/nested deeper than 128/);
    expect(() => parseYao(nest(3), 3)).not.toThrow();
    expect(() => parseYao(nest(4), 3)).toThrow(/JSON nesting exceeds 3/);
  });

  it("numbers: HCP keeps the text, HARP must be finite, A3S integers (bigint past 2^53), Yao integers as bigint", () => {
    expect(readJson("1.0")).toMatchObject({ ok: true, root: { kind: "number", value: 1, raw: "1.0" } });
    expect(readJson("1e400")).toMatchObject({ ok: true, root: { value: Infinity } });
    expect(parseHarp("1e400")).toMatchObject({ ok: false, error: { message: "the number is too large to represent" } });
    expect(parseStrictJson("[9007199254740991, 9007199254740993]")).toEqual([9007199254740991, 9007199254740993n]);
    expect(() => parseStrictJson("1.5")).toThrow(/floating-point/);
    expect(parseYao("[1]")).toEqual([1n]);
    expect(() => parseYao("1.5")).toThrow(/non-integer/);
  });

  it("lone surrogates: HCP and Yao accept them, HARP rejects them as written, A3S rejects them once decoded", () => {
    expect(readJson('"\\ud800"')).toMatchObject({ ok: true, root: { value: "\ud800" } });
    expect(parseYao('"\\ud800"')).toBe("\ud800");
    expect(parseHarp('"\\ud800"')).toMatchObject({
      ok: false,
      error: { message: "the string contains an unpaired surrogate escape" },
    });
    expect(parseHarp('"\ud800"')).toMatchObject({
      ok: false,
      error: { message: "the string contains an unpaired surrogate" },
    });
    expect(() => parseStrictJson('"\\ud800"')).toThrow(/lone surrogate/);
    // An escaped high half and a raw low half decode to one well-formed character: A3S reads it, HARP does not.
    expect(parseStrictJson('"\\ud83d\ude00"')).toBe("\u{1F600}");
    expect(parseHarp('"\\ud83d\ude00"').ok).toBe(false);
  });

  it("HCP and HARP name a byte order mark, HARP names comments; A3S and Yao find an unexpected character", () => {
    expect(readJson("\ufeff{}")).toMatchObject({ ok: false, message: expect.stringContaining("byte order mark") });
    expect(parseHarp("\ufeff{}")).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining("byte order mark") },
    });
    expect(parseHarp("{} // x")).toMatchObject({ ok: false, error: { message: "comments are not allowed in JSON" } });
    expect(() => parseStrictJson("\ufeff{}")).toThrow("invalid JSON at offset 0: unexpected character");
    expect(() => parseYao("\ufeff{}")).toThrow("unexpected character at offset 0");
  });
});
