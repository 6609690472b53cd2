import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { canonicalDigest, olpcCanonical, parseStrictJson } from "../../src/a3s/cjson.js";
import { SHARED_A3S } from "./helpers.js";

const CORE = join(SHARED_A3S, "Use", "crates", "core", "fixtures");
const cases = readdirSync(CORE, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) => readdirSync(join(CORE, d.name)).filter((f) => f.endsWith(".sha256")).map((f) => join(d.name, f.replace(/\.sha256$/, ""))));

describe("OLPC canonical JSON digests of the shared fixtures", () => {
  test("there are 24 digest fixtures", () => expect(cases.length).toBe(24));
  test.each(cases)("%s", (name) => {
    const raw = readFileSync(join(CORE, `${name}.json`), "utf8");
    const value = parseStrictJson(raw);
    expect(olpcCanonical(value)).toBe(raw.replace(/\n$/, ""));
    expect(canonicalDigest(value)).toBe(readFileSync(join(CORE, `${name}.sha256`), "utf8").trim());
  });
});

describe("canonical form rules", () => {
  test("keys sort by UTF-8 bytes, not UTF-16", () => {
    // U+FF61 (EF BD A1) sorts before U+1F600 (F0 9F 98 80) in UTF-8 but after it in UTF-16.
    expect(olpcCanonical({ "\u{1F600}": 1, "\uFF61": 2 })).toBe('{"\uFF61":2,"\u{1F600}":1}');
  });
  test("only quote and backslash are escaped; controls are raw; strings are NFC", () => {
    expect(olpcCanonical(["a\"b\\c\n\u0001", "e\u0301"])).toBe('["a\\"b\\\\c\n\u0001","\u00e9"]');
  });
  test("floats are rejected when read and when written", () => {
    expect(() => parseStrictJson("1.0")).toThrow(/floating-point/);
    expect(() => parseStrictJson("1e3")).toThrow(/floating-point/);
    expect(() => olpcCanonical(0.5)).toThrow(/float/);
  });
  test("large integers survive as bigint", () => {
    expect(olpcCanonical(parseStrictJson("[18446744073709551615,-3]"))).toBe("[18446744073709551615,-3]");
  });
  test("duplicate keys are rejected", () => expect(() => parseStrictJson('{"a":1,"a":2}')).toThrow(/duplicate/));
});
