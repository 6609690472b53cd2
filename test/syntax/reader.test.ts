import { describe, expect, it } from "vitest";
import { readAll, readOne, referenceDisplay } from "../../src/syntax/reader.js";
import type { ReadList, SNode } from "../../src/syntax/tree.js";
import { readerCasesOn } from "./reader-cases.js";
import { readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

const fixture = (name: string): string =>
  readFileSync(new URL(`../../fixtures/yao/reader/${name}`, import.meta.url), "utf8");

function one(source: string | Uint8Array): SNode {
  const r = readOne(source);
  if (!r.ok) throw new Error(referenceDisplay(r.diagnostic));
  return r.form;
}

function error(source: string | Uint8Array, options = {}) {
  const r = readAll(source, options);
  if (r.ok) throw new Error("expected a reader error");
  return r.diagnostic;
}

describe("reader: our fixtures (fixtures/yao/reader)", () => {
  // The same table as the reference's syntax cases (test/syntax/reader-cases.ts).
  readerCasesOn("own", fixture);
});

describe("reader: limits", () => {
  it("allows depth 128 and rejects the 129th open list", () => {
    expect(readAll(`${"(".repeat(128)}${")".repeat(128)}`).ok).toBe(true);
    const d = error(`${"(".repeat(129)}${")".repeat(129)}`);
    expect(d.code).toBe("yao.nesting_limit");
    expect(d.span?.start).toEqual({ byte: 128, line: 1, column: 129 });
  });

  it("turns 200 000 nested lists into a nesting diagnostic, not a stack overflow", () => {
    expect(error("(".repeat(200_000)).code).toBe("yao.nesting_limit");
  });

  it("accepts exactly 262 144 bytes and rejects one more, before lexing", () => {
    const atom = "a".repeat(262_144);
    expect(readAll(atom).ok).toBe(true);
    const d = error(`${atom})`);
    expect(d.code).toBe("yao.source_limit");
    expect(d.message).toBe("source contains 262145 bytes; the limit is 262144");
    expect(d.span?.start).toEqual({ byte: 0, line: 1, column: 1 });
  });

  it("measures the limit in UTF-8 bytes, not UTF-16 units", () => {
    expect(error("爻".repeat(87_382)).code).toBe("yao.source_limit"); // 262 146 bytes, 87 382 units
  });
});

describe("reader: errors in source order with reference spans", () => {
  it.each([
    ['"abc', "yao.unterminated_string", "unterminated string literal", [0, 4]],
    ['(a "b\\', "yao.unterminated_string", "unterminated string after escape", [3, 6]],
    ['"a\nb"', "yao.unterminated_string", "unescaped newline in string literal", [0, 3]],
    ['"a\rb"', "yao.unterminated_string", "unescaped newline in string literal", [0, 3]],
    ['"""abc', "yao.unterminated_string", "unterminated triple-quoted block string", [0, 6]],
    ['"a\\qb"', "yao.invalid_escape", "unknown string escape '\\q'", [2, 4]],
    ["(a))", "yao.unexpected_close", "unexpected closing parenthesis", [3, 4]],
    ["(a (b)  ", "yao.unclosed_list", "unclosed list", [0, 8]],
  ] as const)("%j", (source, code, message, [from, to]) => {
    const d = error(source);
    expect([d.code, d.message, d.span?.start.byte, d.span?.end.byte]).toEqual([code, message, from, to]);
  });

  it("reports the first error in source order", () => {
    expect(error(') "unterminated').code).toBe("yao.unexpected_close");
    expect(error('"\\q" )').code).toBe("yao.invalid_escape");
    expect(error('(((( "open').code).toBe("yao.unterminated_string");
  });

  it("rejects invalid UTF-8 with the offset of the bad byte", () => {
    const d = error(new Uint8Array([0x28, 0x61, 0x0a, 0x62, 0xc3, 0x28, 0x29]));
    expect(d.code).toBe("yao.invalid_utf8");
    expect(d.span?.start).toEqual({ byte: 4, line: 2, column: 2 });
    expect(d.message).toContain("offset 4");
  });

  it("rejects a byte order mark instead of reading it as a symbol", () => {
    expect(error(new Uint8Array([0xef, 0xbb, 0xbf, 0x28, 0x29])).code).toBe("yao.bom");
  });

  it("reports empty input for parse_one", () => {
    const r = readOne("  ; only a comment\n");
    expect(r.ok ? "" : r.diagnostic.code).toBe("yao.empty_input");
  });
});

describe("reader: lexical rules", () => {
  it("ends symbols at ; and quotes, and keeps ; inside strings", () => {
    const r = readAll('a;b\nc"d" "e;f"');
    if (!r.ok) throw new Error("read failed");
    expect(r.forms.map((f) => (f.kind === "symbol" ? f.name : f.kind === "string" ? `"${f.value}` : "()"))).toEqual([
      "a",
      "c",
      '"d',
      '"e;f',
    ]);
  });

  it("uses the Unicode White_Space property: U+0085 separates, U+FEFF does not", () => {
    const r = readAll("a\u0085b c\uFEFFd");
    if (!r.ok) throw new Error("read failed");
    expect(r.forms.map((f) => (f.kind === "symbol" ? f.name : ""))).toEqual(["a", "b", "c\uFEFFd"]);
  });

  it("closes a block string at the first triple quote; a fourth quote opens a plain string", () => {
    const r = readAll('"""a""""b"');
    if (!r.ok) throw new Error("read failed");
    expect(r.forms).toMatchObject([
      { kind: "string", value: "a", block: true },
      { kind: "string", value: "b", block: false },
    ]);
  });

  it("counts CR as a column, not a line break", () => {
    const r = readAll("a\r\nb\rc");
    if (!r.ok) throw new Error("read failed");
    expect(r.forms.map((f) => f.span.start)).toEqual([
      { byte: 0, line: 1, column: 1 },
      { byte: 3, line: 2, column: 1 },
      { byte: 5, line: 2, column: 3 },
    ]);
  });

  it("counts an astral character as one column and four bytes", () => {
    const r = readAll("😀 x");
    if (!r.ok) throw new Error("read failed");
    expect(r.forms[1]!.span.start).toEqual({ byte: 5, line: 1, column: 3 });
  });

  it("computes a span on first use from one line index per text, then keeps it", () => {
    const r = readAll('(a "b")\n(c)', { file: "f.yao" });
    if (!r.ok) throw new Error("read failed");
    const [first, second] = r.forms as [ReadList, ReadList];
    // Reading builds no positions: the text's line index does not exist until a span is asked for.
    expect((first.source as unknown as { index?: unknown }).index).toBeUndefined();
    expect([first.from, first.to, second.from, second.to]).toEqual([0, 7, 8, 11]);
    const span = first.span;
    expect(span).toEqual({
      file: "f.yao",
      start: { byte: 0, line: 1, column: 1 },
      end: { byte: 7, line: 1, column: 8 },
    });
    expect(first.span).toBe(span);
    expect(second.source).toBe(first.source);
    expect((first.source as unknown as { index?: unknown }).index).toBeDefined();
    expect(second.span.start).toEqual({ byte: 8, line: 2, column: 1 });
  });

  it("drops span in a spread (a getter on the node's prototype), as docs/architecture.md warns", () => {
    const form = one("(a)");
    expect({ ...form }.span).toBeUndefined();
    expect(form.span.end.byte).toBe(3);
  });

  it("keeps the token index of an atom node off the node: its own keys and JSON are those of a tree node", () => {
    const form = one('(sym "str" """block""")');
    if (form.kind !== "list") throw new Error("list expected");
    for (const atom of form.items) {
      // The scanner passes atom nodes to the parser as tokens (scanner.ts): the parser's field
      // lives on the prototype, never among the node's own fields.
      expect("tokenTypeIdx" in atom).toBe(true);
      expect(Object.keys(atom)).not.toContain("tokenTypeIdx");
      expect(JSON.stringify(atom)).not.toContain("tokenTypeIdx");
    }
    expect(Object.keys({ ...form.items[0]! }).sort()).toEqual(["cachedSpan", "from", "kind", "name", "source", "to"]);
  });

  it("reads correctly after an input with more lists than its reused columns keep", () => {
    const many = "()".repeat(70_000);
    const big = readAll(many);
    expect(big.ok && big.forms.length).toBe(70_000);
    const after = one("(a (b c) d)");
    expect(after.span.end.byte).toBe(11);
    if (after.kind !== "list") throw new Error("list expected");
    expect(after.items.map((n) => n.kind)).toEqual(["symbol", "list", "symbol"]);
    expect((after.items[1] as ReadList).from).toBe(3);
  });

  it("holds no tree but the last read's: a dropped tree is collectable once another read has started", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const refs = (() => {
      const r = readAll('(first "atom") (second (nested list))');
      if (!r.ok) throw new Error("read failed");
      const first = r.forms[0]! as ReadList;
      return [new WeakRef(first.items[0]!), new WeakRef(first.items[1]!), new WeakRef(r.forms[1]!)];
    })();
    // A read the scanner stops: it never reaches the parser, so only letting go of the last tree
    // when a read starts (not handing the parser new tokens) frees the first one, as it must be
    // freed before any read allocates.
    const next = readAll("(another (unclosed tree)");
    expect(next.ok).toBe(false);
    for (let i = 0; i < 5 && refs.some((w) => w.deref() !== undefined); i++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      gc();
    }
    expect(refs.map((w) => w.deref())).toEqual([undefined, undefined, undefined]);
  });

  it("gives every list an items array of its exact length, under and over the shared template's growth bound", () => {
    for (const n of [0, 1, 64, 65, 1000, 70_000]) {
      const r = readAll(`(${Array.from({ length: n }, (_, i) => `a${i}`).join(" ")}) (b)`, { maxBytes: 1 << 21 });
      if (!r.ok) throw new Error(`read failed at ${n}`);
      const items = (r.forms[0] as ReadList).items;
      expect(items.length).toBe(n);
      expect(items.every((x, i) => x.kind === "symbol" && x.name === `a${i}`)).toBe(true);
      expect((r.forms[1] as ReadList).items.map((x) => (x.kind === "symbol" ? x.name : "?"))).toEqual(["b"]);
    }
  });

  it("keeps no atom of an earlier read in the scanner's reused token space once a shorter read has run", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const refs = (() => {
      const r = readAll(Array.from({ length: 200 }, (_, i) => `(item-${i} "text ${i}")`).join("\n"));
      if (!r.ok) throw new Error("read failed");
      // Atoms written far past where the next, shorter read's tokens end.
      return r.forms.slice(-3).map((f) => new WeakRef((f as ReadList).items[1]!));
    })();
    expect(readAll("(short)").ok).toBe(true);
    for (let i = 0; i < 5 && refs.some((w) => w.deref() !== undefined); i++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      gc();
    }
    expect(refs.map((w) => w.deref())).toEqual([undefined, undefined, undefined]);
  });
});
