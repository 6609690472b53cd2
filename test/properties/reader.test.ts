/**
 * Property tests for the reader's hand-written scanner: on arbitrary input it produces exactly what
 * the reader built on the Chevrotain Lexer (the grammar's executable specification, kept in
 * ./chevrotain-reader.ts) produces — the same trees with the same spans, or the same first error
 * with the same code, message and span — and it never throws.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ReadResult, readAll } from "../../src/syntax/reader.js";
import type { SNode } from "../../src/syntax/tree.js";
import { readAll as oracleReadAll } from "./chevrotain-reader.js";

/**
 * A tree as its public fields show it (`span` is a getter on the reader's nodes, so a deep equality
 * of own fields would not see it); `order` says in which order the spans are first asked for, since
 * the reader computes them on demand from a line index and must not depend on that order.
 */
function plain(r: ReadResult, order: "forward" | "reverse" = "forward"): unknown {
  if (!r.ok) return r;
  const all: SNode[] = [];
  const collect = (n: SNode): void => {
    all.push(n);
    if (n.kind !== "list") return;
    // The reader sizes items arrays from the scanner's counts: a wrong count would leave holes.
    if (Object.keys(n.items).length !== n.items.length) throw new Error("a list's items array has holes");
    for (const c of n.items) collect(c);
  };
  for (const f of r.forms) collect(f);
  if (order === "reverse") for (let k = all.length - 1; k >= 0; k--) void all[k]!.span;
  const node = (n: SNode): unknown =>
    n.kind === "symbol"
      ? { kind: n.kind, name: n.name, span: n.span }
      : n.kind === "string"
        ? { kind: n.kind, value: n.value, block: n.block, span: n.span }
        : { kind: n.kind, items: n.items.map(node), span: n.span };
  return { ok: true, forms: r.forms.map(node), text: r.text };
}

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
        expect(plain(readAll(text, { file: "p.yao" }))).toEqual(plain(oracleReadAll(text, { file: "p.yao" })));
      }),
      { numRuns: 1500 },
    );
  });

  it("yields the same spans on texts longer than a line-index block, asked for in any order", () => {
    // Over 256 UTF-16 units, so lookups cross the line index's blocks, some of which start inside
    // a surrogate pair or hold only ASCII.
    const long = fc.oneof(
      fc.array(tricky, { minLength: 200, maxLength: 600 }).map((a) => a.join("")),
      fc
        .array(
          fc.constantFrom(
            "(a é)",
            "(\u{1F600}爻 (x))",
            "\n",
            '"s\\n"',
            "b",
            ";c爻\n",
            '"""x\n爻"""',
            "((\u{1F600}))",
            '(p """x\n爻""" "q")',
          ),
          {
            minLength: 100,
            maxLength: 300,
          },
        )
        .map((a) => a.join(" ")),
    );
    fc.assert(
      fc.property(long, fc.constantFrom("forward" as const, "reverse" as const), (text, order) => {
        expect(plain(readAll(text, { file: "p.yao", maxBytes: 1 << 20 }), order)).toEqual(
          plain(oracleReadAll(text, { file: "p.yao", maxBytes: 1 << 20 })),
        );
      }),
      { numRuns: 300 },
    );
  });

  it("agrees under a small nesting limit (the error is the first in source order)", () => {
    fc.assert(
      fc.property(source, fc.integer({ min: 0, max: 3 }), (text, maxNesting) => {
        expect(plain(readAll(text, { maxNesting }))).toEqual(plain(oracleReadAll(text, { maxNesting })));
      }),
      { numRuns: 500 },
    );
  });

  it("never throws on arbitrary bytes, and reports invalid UTF-8 as a diagnostic", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const r = readAll(bytes);
        expect(plain(r)).toEqual(plain(oracleReadAll(bytes)));
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
