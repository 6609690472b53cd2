/** Property tests: canonical text round-trips and identity ignores layout but not content. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalSource, canonicalSourceWithout } from "../../src/canonical/typed.js";
import { loadFromSource } from "../../src/hns/load.js";
import { readOne } from "../../src/syntax/reader.js";

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
