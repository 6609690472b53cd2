/** The one code-point order and the one JSON Pointer escape every frontend now shares. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapePointerToken } from "../../src/json/pointer.js";
import { compareCodePoints } from "../../src/text/code-point-order.js";

const enc = new TextEncoder();
function utf8Order(a: string, b: string): number {
  const x = enc.encode(a);
  const y = enc.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

describe("compareCodePoints", () => {
  it("orders well-formed strings exactly as their UTF-8 bytes", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), fc.string({ unit: "grapheme" }), (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(utf8Order(a, b)));
      }),
      { numRuns: 2000 },
    );
  });

  it("puts astral code points after the top of the BMP, unlike UTF-16 order", () => {
    expect("\u{1F600}" < "\uFFFF").toBe(true);
    expect(compareCodePoints("\u{1F600}", "\uFFFF")).toBeGreaterThan(0);
    expect(compareCodePoints("a", "ab")).toBeLessThan(0);
    expect(compareCodePoints("same", "same")).toBe(0);
  });

  it("keeps distinct lone surrogates distinct (UTF-8 encoding would equate them as U+FFFD)", () => {
    expect(utf8Order("\uD800", "\uDFFF")).toBe(0);
    expect(compareCodePoints("\uD800", "\uDFFF")).toBeLessThan(0);
  });
});

describe("escapePointerToken", () => {
  it("escapes ~ before / (RFC 6901 §3)", () => {
    expect(escapePointerToken("a/b~c")).toBe("a~1b~0c");
    expect(escapePointerToken("~1")).toBe("~01");
    expect(escapePointerToken("plain")).toBe("plain");
  });
});
