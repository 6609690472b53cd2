/**
 * One case per rule of the reference formatter (yao-v0.1.md §12), with the expected output written
 * by hand from the rule, not taken from the implementation.
 */
import { describe, expect, it } from "vitest";
import { formatSource } from "../../src/fmt/format.js";
import { readAll } from "../../src/syntax/reader.js";
import { fmt } from "./helpers.js";

describe("§12.1–2 top level", () => {
  it("gives the empty string for a source with no forms and no comments", () => {
    expect(fmt("")).toBe("");
    expect(fmt("  \n\t\r\n  ")).toBe("");
  });

  it("ends every output that holds a form with LF, one form per line", () => {
    expect(fmt("(a)")).toBe("(a)\n");
    expect(fmt("(a) (b)   c")).toBe("(a)\n(b)\nc\n");
  });

  it("keeps comments before, between and after the forms, dropping blank lines", () => {
    expect(fmt("; head\n\n\n(a)\n\n; middle\n\n(b)\n\n; tail\n\n")).toBe("; head\n(a)\n; middle\n(b)\n; tail\n");
  });

  it("formats a source of comments only (no leading blank line)", () => {
    expect(fmt("\n\n   ; one\n;two   \n")).toBe("; one\n;two\n");
  });
});

describe("§12.3 comments in a gap", () => {
  it("moves a comment that followed code onto its own line", () => {
    expect(fmt("(a) ; after a\n(b)")).toBe("(a)\n; after a\n(b)\n");
  });

  it("trims each comment line on both sides by White_Space, including U+0085 but not U+FEFF", () => {
    expect(fmt("(a)\n\t ;  c \u0085\u3000\n")).toBe("(a)\n;  c\n");
    expect(fmt("(a)\n; c\uFEFF\n")).toBe("(a)\n; c\uFEFF\n");
  });

  it("drops a line's trailing CR and writes LF line endings", () => {
    expect(fmt("(a\r\n  b)\r\n; c\r\n(d)\r\n")).toBe("(a b)\n; c\n(d)\n");
  });

  it("writes the comments of a list's gaps at indent+2, breaking the list", () => {
    expect(fmt("(a ; why\n b)")).toBe("(a\n  ; why\n  b)\n");
  });

  it("puts comments before item 0 after the open parenthesis", () => {
    expect(fmt("( ; first\n a b)")).toBe("(\n  ; first\n  a b)\n");
  });

  it("writes comments of the closing gap and puts `)` on its own line at the list's indent", () => {
    expect(fmt("(a b ; end\n)")).toBe("(a b\n  ; end\n)\n");
    expect(fmt("(x (a ; end\n))")).toBe("(x\n  (a\n    ; end\n  ))\n");
  });

  it("keeps an empty list with a comment", () => {
    expect(fmt("( ; nothing\n)")).toBe("(\n  ; nothing\n)\n");
  });
});

describe("§12.4 compact", () => {
  const symbols = (n: number, width: number): string =>
    Array.from({ length: n }, (_, i) => String(i % 10).repeat(width)).join(" ");

  it("keeps a list of exactly 100 scalars on one line and breaks one of 101", () => {
    const at100 = `(${symbols(14, 6)}z)`; // 2 + 14×6 + 13 spaces + 1 = 100
    expect([...at100].length).toBe(100);
    expect(fmt(at100)).toBe(`${at100}\n`);
    const at101 = `(${symbols(14, 6)} y)`;
    expect([...at101].length).toBe(101);
    // Item 0 and the symbol item 1 stay inline; every later item goes on its own line.
    const lines = symbols(14, 6).split(" ");
    expect(fmt(at101)).toBe(
      `(${lines[0]} ${lines[1]}\n${lines
        .slice(2)
        .map((l) => `  ${l}\n`)
        .join("")}  y)\n`,
    );
  });

  it("counts Unicode scalars, not UTF-16 units or bytes", () => {
    // 49 astral scalars (98 UTF-16 units) + parentheses = 51 scalars: compact.
    const astral = `(${"😀".repeat(49)})`;
    expect(fmt(astral)).toBe(`${astral}\n`);
    const cjk = `(${"中".repeat(98)})`; // 100 scalars, 296 bytes
    expect(fmt(cjk)).toBe(`${cjk}\n`);
  });

  it("never writes a multi-line block string compactly (its list breaks)", () => {
    expect(fmt('(a """x\ny""")')).toBe('(a\n  """x\ny""")\n');
    expect(fmt('(a """one line""")')).toBe('(a """one line""")\n');
  });

  it("collapses whitespace between items to single spaces", () => {
    expect(fmt("(  a\n\n   (b\tc)\n )")).toBe("(a (b c))\n");
  });
});

describe("§12.5 render", () => {
  it("breaks a list whose compact form plus the indent passes 100", () => {
    const inner = `(${"b".repeat(96)})`; // 98 scalars: fits at indent 0, not at indent 4
    expect(fmt(inner)).toBe(`${inner}\n`);
    expect(fmt(`(x (y ${inner}))`)).toBe(`(x\n  (y\n    (${"b".repeat(96)})))\n`);
  });

  it("keeps item 0 inline whatever it is, and item 1 inline only when it is a symbol", () => {
    const long = "z".repeat(100);
    expect(fmt(`(fn name ${long})`)).toBe(`(fn name\n  ${long})\n`);
    expect(fmt(`(fn "name" ${long})`)).toBe(`(fn\n  "name"\n  ${long})\n`);
    expect(fmt(`(fn (name) ${long})`)).toBe(`(fn\n  (name)\n  ${long})\n`);
    expect(fmt(`((head) b ${long})`)).toBe(`((head) b\n  ${long})\n`);
  });

  it("does not inline item 1 when a comment precedes it", () => {
    expect(fmt("(fn ; c\n name x)")).toBe("(fn\n  ; c\n  name\n  x)\n");
  });

  it("emits an atom longer than the width verbatim", () => {
    const s = `"${"s".repeat(150)}"`;
    expect(fmt(`(a ${s})`)).toBe(`(a\n  ${s})\n`);
  });
});

describe("§12.6 atoms are never changed", () => {
  it("keeps escapes and block strings as written", () => {
    expect(fmt('(a "x\\n\\t\\"\\\\")')).toBe('(a "x\\n\\t\\"\\\\")\n');
    const block = '(eval """first\n  中文\\n; still text""")';
    expect(fmt(block)).toBe('(eval\n  """first\n  中文\\n; still text""")\n');
  });

  it("keeps a CR inside a block string (only gaps get LF endings)", () => {
    expect(fmt('(a """x\r\ny""")')).toBe('(a\n  """x\r\ny""")\n');
  });
});

describe("refusing invalid input", () => {
  for (const bad of ["(a", ")", '"open', '("\\q")', "\uFEFF(a)", "(".repeat(129) + ")".repeat(129)]) {
    it(`refuses ${JSON.stringify(bad.slice(0, 20))} with the reader's own diagnostic`, () => {
      const r = formatSource(bad);
      const read = readAll(bad);
      expect(r.ok).toBe(false);
      expect(read.ok).toBe(false);
      if (!r.ok && !read.ok) expect(r.diagnostic).toEqual(read.diagnostic);
    });
  }

  it("refuses invalid UTF-8 bytes and a source over the limit", () => {
    const r = formatSource(new Uint8Array([0x28, 0xff, 0x29]));
    expect(!r.ok && r.diagnostic.code).toBe("yao.invalid_utf8");
    const big = formatSource(`(a "${"x".repeat(262_144)}")`);
    expect(!big.ok && big.diagnostic.code).toBe("yao.source_limit");
  });
});
