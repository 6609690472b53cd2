/** Property tests: canonical text round-trips and identity ignores layout but not content. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalSource, canonicalSourceWithout } from "../../src/canonical/typed.js";
import { loadFromSource } from "../../src/hns/load.js";
import { withoutBodyClauses } from "../../src/syntax/header.js";
import { readOne } from "../../src/syntax/reader.js";
import { type SNode, writtenCanonically } from "../../src/syntax/tree.js";

type Tree = { sym: string } | { str: string } | Tree[];

const symbol = fc.stringMatching(/^[a-z0-9_.\-+*/<>=!?:$%&~^\u4e00-\u4e10]{1,6}$/).map((sym) => ({ sym }));
const string = fc.string({ unit: "binary", maxLength: 8 }).map((str) => ({ str }));
const { tree } = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    symbol,
    string,
    fc.array(tie("tree"), { maxLength: 4 }),
  ),
}));

/** Print a tree with arbitrary layout: random whitespace, comments and escapes that mean the same thing. */
function layout(t: Tree, ws: () => string): string {
  if (Array.isArray(t)) return `(${ws()}${t.map((c) => layout(c, ws)).join(` ${ws()}`)}${ws()})`;
  if ("sym" in t) return t.sym;
  return JSON.stringify(t.str)
    .replace(/\\u00([0-9a-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\\[bf/]/g, (m) => ({ "\\b": "\b", "\\f": "\f", "\\/": "/" })[m]!);
}

const whitespace = fc
  .array(fc.constantFrom(" ", "\n", "\t", "\r\n", "; note\n", "\u3000", "\u0085"), { maxLength: 3 })
  .map((a) => a.join(""));

describe("canonical printer properties", () => {
  it("canonical text re-reads to itself, whatever the layout of the source", () => {
    fc.assert(
      fc.property(fc.array(tree, { minLength: 1, maxLength: 4 }), fc.infiniteStream(whitespace), (items, stream) => {
        const root: Tree = [{ sym: "eval" }, ...items];
        const it = stream[Symbol.iterator]();
        const source = layout(root, () => it.next().value as string);
        const first = readOne(source);
        if (!first.ok) throw new Error(`${first.diagnostic.message} in ${JSON.stringify(source)}`);
        const text = canonicalSource(first.form);
        const again = readOne(text);
        expect(again.ok && canonicalSource(again.form)).toBe(text);
        expect(text).toBe(layout(root, () => ""));
      }),
      { numRuns: 300 },
    );
  });
});

describe("one walk for a form and its reduced form", () => {
  it("canonicalSourceWithout prints what canonicalSource prints for the whole list and for the kept items", () => {
    fc.assert(
      fc.property(
        fc.array(tree, { minLength: 1, maxLength: 6 }),
        fc.array(fc.boolean(), { maxLength: 6 }),
        (items, drops) => {
          const read = readOne(layout(items, () => " "));
          if (!read.ok || read.form.kind !== "list") throw new Error("the generated list does not read");
          const list = read.form;
          const drop = (_: unknown, i: number): boolean => drops[i] ?? false;
          // The canonical text of a generated tree is its layout with no extra white space (above).
          const expectedFull = layout(items, () => "");
          const kept = items.filter((_, i) => !drop(undefined, i));
          const expectedWithout = layout(kept, () => "");
          const texts = canonicalSourceWithout(list, drop);
          expect(texts.full).toBe(expectedFull);
          expect(texts.without).toBe(expectedWithout);
          expect(canonicalSource(list)).toBe(expectedFull);
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** The typed canonical text of a tree, printed node by node from its values (never from its source). */
function printed(n: SNode): string {
  if (n.kind === "symbol") return n.name;
  if (n.kind === "string")
    return `"${n.value.replace(/[\\"\n\r\t]/g, (c) => ({ "\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t" })[c]!)}"`;
  return `(${n.items.map(printed).join(" ")})`;
}

describe("a source already written canonically is printed as its own text", () => {
  // The printer takes the source of a node the reader judged written canonically instead of printing
  // it again; every layout that differs from the canonical one by a single unit must be caught.
  const cases: readonly [string, boolean][] = [
    ["(a b c)", true],
    ["()", true],
    ['(say "x\\ty \\"q\\" \\\\ \\n" 统计)', true],
    ["( )", false],
    ["( a)", false],
    ["(a )", false],
    ["(a  b)", false],
    ["(a\tb)", false],
    ["(a\nb)", false],
    ["(a\u3000b)", false],
    ["(a\u0085b)", false],
    ["((a)(b))", false],
    ['(a"b")', false],
    ["(a ;c\n b)", false],
    ['(a "raw\ttab")', false],
    ['(a """block""")', false],
    ['(a """x\ny""" (b c))', false],
    ["(a (b  c) (d e))", false],
  ];
  for (const [source, canonical] of cases) {
    it(`${JSON.stringify(source)} is ${canonical ? "" : "not "}written canonically, and prints as the tree does`, () => {
      const read = readOne(source);
      if (!read.ok) throw new Error(`${read.diagnostic.message} in ${JSON.stringify(source)}`);
      expect(writtenCanonically(read.form)).toBe(canonical);
      expect(canonicalSource(read.form)).toBe(printed(read.form));
      if (canonical) expect(canonicalSource(read.form)).toBe(source);
    });
  }

  it("a list rebuilt with items dropped (withoutBodyClauses) is not its source, and prints its items", () => {
    const read = readOne('(fn f (params) (returns Int) (body 1) (description "d"))');
    if (!read.ok || read.form.kind !== "list") throw new Error("does not read");
    expect(writtenCanonically(read.form)).toBe(true);
    const reduced = withoutBodyClauses(read.form);
    expect(writtenCanonically(reduced)).toBe(false);
    expect(canonicalSource(reduced)).toBe('(fn f (params) (returns Int) (description "d"))');
  });

  it("whatever the layout, raw TABs in strings included, the text is the tree printed node by node", () => {
    fc.assert(
      fc.property(
        fc.array(tree, { minLength: 1, maxLength: 5 }),
        fc.infiniteStream(fc.oneof(fc.constant(""), fc.constant(""), whitespace)),
        fc.boolean(),
        (items, stream, tabs) => {
          const it = stream[Symbol.iterator]();
          let source = layout(items, () => it.next().value as string);
          // A TAB in a string written raw instead of as `\t` (the reader takes both).
          if (tabs) source = source.replace(/\\t/g, "\t");
          const read = readOne(source);
          if (!read.ok) return; // a raw TAB after a backslash may make an escape the reader refuses
          expect(canonicalSource(read.form)).toBe(printed(read.form));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("package identity properties", () => {
  const artifacts = [
    '(manifest (id demo) (version "1.0.0") (title "Demo") (capabilities (tools read)))',
    '(contract (purpose "answer briefly"))',
    "(mind (frame (id demo/core)))",
    "(fn helper (params) (returns Int) (body 1))",
    '(eval (requires (tools read)) (call read (path "README.md")))',
  ];

  it("is independent of artifact order, whitespace, comments and CRLF", () => {
    const base = loadFromSource("demo.hns", artifacts.join("\n"));
    if (!base.ok) throw new Error(base.diagnostics[0]!.message);
    fc.assert(
      fc.property(
        fc.shuffledSubarray(artifacts, { minLength: 5, maxLength: 5 }),
        whitespace,
        fc.boolean(),
        (order, ws, crlf) => {
          const inline = ws.replace(/;[^\n]*\n/g, "");
          // Widen the whitespace between tokens only, never inside string literals.
          const widen = (artifact: string): string =>
            artifact
              .split(/("[^"]*")/)
              .map((part, i) => (i % 2 === 1 ? part : part.replace(/ /g, ` ${inline}`)))
              .join("");
          let text = order.map(widen).join(`\n${ws}\n`);
          if (crlf) text = text.replace(/\n/g, "\r\n");
          const loaded = loadFromSource("demo.hns", text);
          expect(loaded.ok && loaded.package.identity).toBe(base.package.identity);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("changes when any atom changes", () => {
    const base = loadFromSource("demo.hns", artifacts.join("\n"));
    if (!base.ok) throw new Error("base package must load");
    const text = artifacts.join("\n");
    const atoms = [...text.matchAll(/"[^"]+"|[A-Za-z][\w./-]*/g)].filter(
      (m) => !["manifest", "contract", "mind", "fn", "eval", "requires", "tools", "capabilities"].includes(m[0]),
    );
    let changed = 0;
    for (const m of atoms) {
      const mutated = `${text.slice(0, m.index)}${m[0].startsWith('"') ? `"${m[0].slice(1, -1)}x"` : `${m[0]}x`}${text.slice(m.index! + m[0].length)}`;
      const loaded = loadFromSource("demo.hns", mutated);
      if (!loaded.ok) continue; // some mutations make the package invalid (e.g. an unknown tool)
      expect(loaded.package.identity, `mutating ${m[0]}`).not.toBe(base.package.identity);
      changed++;
    }
    expect(changed).toBeGreaterThan(10);
  });
});
