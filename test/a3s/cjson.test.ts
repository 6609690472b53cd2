/**
 * OLPC canonical JSON: every canonical JSON file of our own A3S fixtures (registry records, locks,
 * the OKF contract) is its own canonical form, and its digest is SHA-256 over those bytes (checked
 * with node:crypto), through the same routine as the reference's core fixtures
 * (test/a3s/cjson-cases.ts, test/reference/a3s-cjson.test.ts).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { canonicalDigest, olpcCanonical, parseStrictJson } from "../../src/a3s/package/cjson.js";
import { canonicalFilesOn } from "./cjson-cases.js";
import { REPO } from "./helpers.js";

const A3S = join(REPO, "fixtures", "a3s");
const files = [
  ...readdirSync(join(A3S, "locks")).map((f) => join("locks", f)),
  ...readdirSync(join(A3S, "registry")).flatMap((r) =>
    readdirSync(join(A3S, "registry", r, "records")).map((f) => join("registry", r, "records", f)),
  ),
  join("okf", "bundle-v02.contract.json"),
];

describe("OLPC canonical JSON digests of our fixtures (locks, records and the contract)", () => {
  canonicalFilesOn(A3S, files, 20);
  test("re-ordering keys and adding whitespace does not change the digest", () => {
    const raw = readFileSync(join(A3S, "okf", "bundle-v02.contract.json"), "utf8");
    const reordered = JSON.stringify(
      Object.fromEntries(Object.entries(JSON.parse(raw) as Record<string, unknown>).reverse()),
      null,
      2,
    );
    expect(reordered).not.toBe(raw.trimEnd());
    expect(canonicalDigest(parseStrictJson(reordered))).toBe(canonicalDigest(parseStrictJson(raw)));
  });
});

describe("canonical form rules", () => {
  test("keys sort by UTF-8 bytes, not UTF-16", () => {
    // U+FF61 (EF BD A1) sorts before U+1F600 (F0 9F 98 80) in UTF-8 but after it in UTF-16.
    expect(olpcCanonical({ "\u{1F600}": 1, "\uFF61": 2 })).toBe('{"\uFF61":2,"\u{1F600}":1}');
  });
  test("only quote and backslash are escaped; controls are raw; strings are NFC", () => {
    expect(olpcCanonical(['a"b\\c\n\u0001', "e\u0301"])).toBe('["a\\"b\\\\c\n\u0001","\u00e9"]');
  });
  test("floats are rejected when read and when written", () => {
    expect(() => parseStrictJson("1.0")).toThrow(/floating-point/);
    expect(() => parseStrictJson("1e3")).toThrow(/floating-point/);
    expect(() => olpcCanonical(0.5)).toThrow(/float/);
  });
  test("large integers survive as bigint", () => {
    expect(olpcCanonical(parseStrictJson("[18446744073709551615,-3]"))).toBe("[18446744073709551615,-3]");
  });
  test("lone surrogates are rejected, escaped or raw, in values and keys; a pair is one character", () => {
    for (const text of ['"\\ud800"', '"\\udc00x"', '"\ud800"', '{"\\ud800":1}'])
      expect(() => parseStrictJson(text), text).toThrow(/lone surrogate/);
    expect(parseStrictJson('"\\ud83d\\ude00"')).toBe("\u{1F600}");
  });
  test("duplicate keys are rejected", () => expect(() => parseStrictJson('{"a":1,"a":2}')).toThrow(/duplicate/));
});
