/**
 * Property tests for the reader's hand-written scanner: on arbitrary input it produces exactly what
 * the reader built on the Chevrotain Lexer (the grammar's executable specification, kept in
 * ./chevrotain-reader.ts) produces — the same trees with the same spans, or the same first error
 * with the same code, message and span — and it never throws.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAll } from "../../src/syntax/reader.js";
import { readAll as oracleReadAll } from "./chevrotain-reader.js";

/** Characters that matter to the lexer, plus Unicode that matters to positions. */
const tricky = fc.constantFrom(
  "(",
  ")",
  '"',
  '"""',
  "\\",
  "\\n",
  "\\q",
  ";",
  "\n",
  "\r",
  "\r\n",
  "\t",
  "\v",
  "\f",
  " ",
  "a",
  "b-c",
  "1.5",
  "\u0085",
  "\u00a0",
  "\u2028",
  "\u3000",
  "\ufeff",
  "é",
  "爻",
  "\u{1F600}",
  "\ud800",
  "\udc00",
  "\u0000",
  "\u200b",
);
const source = fc.oneof(
  fc.array(tricky, { maxLength: 40 }).map((a) => a.join("")),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: fc.constantFrom("(", ")", " ", "x", '"', "\n"), maxLength: 60 }),
);

describe("reader scanner against the Chevrotain Lexer", () => {
  it("yields the same trees, spans and errors on arbitrary text", () => {
    fc.assert(
      fc.property(source, (text) => {
        expect(readAll(text, { file: "p.yao" })).toEqual(oracleReadAll(text, { file: "p.yao" }));
      }),
      { numRuns: 1500 },
    );
  });

  it("agrees under a small nesting limit (the error is the first in source order)", () => {
    fc.assert(
      fc.property(source, fc.integer({ min: 0, max: 3 }), (text, maxNesting) => {
        expect(readAll(text, { maxNesting })).toEqual(oracleReadAll(text, { maxNesting }));
      }),
      { numRuns: 500 },
    );
  });

  it("never throws on arbitrary bytes, and reports invalid UTF-8 as a diagnostic", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const r = readAll(bytes);
        expect(r).toEqual(oracleReadAll(bytes));
        if (!r.ok) expect(r.diagnostic.code).toMatch(/^yao\./);
      }),
      { numRuns: 500 },
    );
  });

  it("a 200,000-deep nesting is rejected at level 129 without recursion", () => {
    const deep = "(".repeat(200_000) + ")".repeat(200_000);
    const limited = readAll(deep);
    expect(!limited.ok && limited.diagnostic.code).toBe("yao.source_limit"); // 400,000 bytes: rejected before lexing
    const r = readAll(deep, { maxBytes: 1 << 20 });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.diagnostic.code).toBe("yao.nesting_limit");
      expect(r.diagnostic.span?.start).toEqual({ byte: 128, line: 1, column: 129 });
    }
  });
});
