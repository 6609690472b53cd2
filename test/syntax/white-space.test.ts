/** The linear White_Space trim agrees with the Unicode property on every code unit, at both ends. */
import { describe, expect, it } from "vitest";
import { trimWhiteSpace } from "../../src/syntax/white-space.js";

const byProperty = (s: string) => s.replace(/^\p{White_Space}+|\p{White_Space}+$/gu, "");

describe("trimWhiteSpace", () => {
  it("trims exactly the White_Space code points (U+0085 yes, U+FEFF no), like the property regex", () => {
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      const s = `${ch}${ch}a${ch}b${ch}${ch}`;
      if (trimWhiteSpace(s) !== byProperty(s)) expect(`U+${c.toString(16)}`).toBe("trimmed as the property says");
    }
    expect(trimWhiteSpace("\u0085x\u0085")).toBe("x");
    expect(trimWhiteSpace("\ufeffx\ufeff")).toBe("\ufeffx\ufeff");
    expect(trimWhiteSpace(" \t\n ")).toBe("");
  });

  it("is linear on a long string of spaces between words (no regex retry at each space)", () => {
    const s = `a${" ".repeat(200_000)}b`;
    expect(trimWhiteSpace(s)).toBe(s);
    expect(trimWhiteSpace(` ${s} `)).toBe(s);
  });
});
