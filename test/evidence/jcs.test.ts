import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { canonicalJson, CanonicalizationError, serializeNumber } from "../../src/json/jcs.js";
import { fixedPoint } from "../../src/evidence/numbers.js";
import { jcsVectorsOn } from "./jcs-vectors.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

describe("our RFC 8785 vectors (fixtures/jcs, written from the RFC's rules)", () => {
  jcsVectorsOn(join(repo, "fixtures/jcs"), ["key-order.json", "numbers.json", "strings.json", "structures.json"]);
});

describe("JCS edge cases", () => {
  it("numbers use ECMAScript Number-to-String", () => {
    expect(serializeNumber(-0)).toBe("0");
    expect(serializeNumber(1e21)).toBe("1e+21");
    expect(serializeNumber(1e-7)).toBe("1e-7");
    expect(serializeNumber(0.000001)).toBe("0.000001");
    expect(serializeNumber(56.0)).toBe("56");
    expect(serializeNumber(9007199254740994)).toBe("9007199254740994");
  });
  it("sorts keys by UTF-16 code units, not code points or locale", () => {
    expect(canonicalJson({ "\ufb33": 1, "\ud83d\ude02": 2, "10": 3, "2": 4 })).toBe(
      '{"10":3,"2":4,"\ud83d\ude02":2,"\ufb33":1}',
    );
  });
  it("rejects what I-JSON rejects instead of skipping it", () => {
    for (const bad of [
      NaN,
      Infinity,
      -Infinity,
      "\ud800",
      { a: "x\udc00" },
      [undefined],
      1n,
      new Date(0),
      () => 1,
      { a: undefined },
    ]) {
      expect(() => canonicalJson(bad), String(bad)).toThrow(CanonicalizationError);
    }
    const cyc: Record<string, unknown> = {};
    cyc["self"] = cyc;
    expect(() => canonicalJson(cyc)).toThrow(/cyclic/);
  });
  it("escapes like JSON.stringify for well-formed strings", () => {
    const s = '\u0000\u0007\b\t\n\u000b\f\r\u001f "\\/\u007f\u2028é😂';
    expect(canonicalJson(s)).toBe(JSON.stringify(s));
  });
});

describe("fixed-point numbers (R3)", () => {
  it("follows the documented policy", () => {
    expect(fixedPoint(3)).toBe("3");
    expect(fixedPoint(2.5)).toBe("2.5");
    expect(fixedPoint(0.1 + 0.2)).toBe("0.3");
    expect(fixedPoint(1.9999999999)).toBe("2");
    expect(fixedPoint(-0.0000001)).toBe("0");
    expect(fixedPoint(-0)).toBe("0");
    expect(fixedPoint(1e-7)).toBe("0");
    expect(fixedPoint(123456789.123456789)).toBe("123456789.123457");
    expect(fixedPoint(-12.5)).toBe("-12.5");
    expect(fixedPoint(1e20)).toBe("100000000000000000000");
    expect(() => fixedPoint(1e21)).toThrow();
    expect(() => fixedPoint(NaN)).toThrow();
  });
});
