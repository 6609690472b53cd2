/**
 * Properties of `yaoc fmt` (issue 17), over generated sources and over every shipped fixture and
 * example: idempotent, the same tree (so the same canonical forms), the same comments, reader-valid
 * output; and for packages, unchanged identity and program_hash.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatSource } from "../../src/fmt/format.js";
import { readAll } from "../../src/syntax/reader.js";
import { commentsOf, filesUnder, fmt, packageFacts, shape } from "./helpers.js";

const ROOT = new URL("../../", import.meta.url).pathname;

// ---- generated sources ----------------------------------------------------------------------

const gapChar = fc.constantFrom(" ", "  ", "\t", "\n", "\r\n", "\n\n", "\u0085", "\u3000");
const comment = fc
  .string({ unit: fc.constantFrom("a", " ", ";", "(", ")", '"', "中", "😀", "\t", "\r"), maxLength: 12 })
  .map((s) => `;${s}\n`);
const gap = fc
  .array(fc.oneof({ weight: 4, arbitrary: gapChar }, { weight: 1, arbitrary: comment }), { minLength: 1, maxLength: 3 })
  .map((a) => a.join(""));
const symbol = fc.oneof(
  fc.constantFrom("fn", "eval", "manifest", "id", "body", "call", "x", "Int", "->", "+", "a.b/c", "中文", "😀"),
  fc.string({ unit: fc.constantFrom("a", "b", "-", "9", "é"), minLength: 1, maxLength: 40 }),
);
const plainString = fc
  .array(fc.constantFrom("a", " ", "\\n", "\\t", '\\"', "\\\\", "\\r", ";", "(", "中", "😀"), { maxLength: 30 })
  .map((parts) => `"${parts.join("")}"`);
const blockString = fc
  .array(fc.constantFrom("a", " ", "\n", "\r\n", ";", "\\q", "("), { maxLength: 12 })
  .map((parts) => `"""${parts.join("")}"""`);
const atom = fc.oneof(
  { weight: 4, arbitrary: symbol },
  { weight: 2, arbitrary: plainString },
  { weight: 1, arbitrary: blockString },
);

const { node } = fc.letrec<{ node: string; list: string }>((tie) => ({
  node: fc.oneof({ depthSize: "small", withCrossShrink: true }, atom, tie("list")),
  list: fc
    .tuple(fc.array(fc.tuple(gap, tie("node")), { maxLength: 8 }), gap)
    .map(([items, closing]) => `(${items.map(([g, n]) => g + n).join("")}${closing})`),
}));
const source = fc
  .tuple(fc.array(fc.tuple(gap, node), { maxLength: 4 }), gap)
  .map(([forms, tail]) => forms.map(([g, n]) => g + n).join("") + tail);

function checkFormatted(input: string): void {
  const before = readAll(input);
  if (!before.ok) throw new Error(`generator produced invalid Yao: ${before.diagnostic.message}`);
  const once = fmt(input);
  const after = readAll(once);
  expect(after.ok, "formatted output must read").toBe(true);
  if (!after.ok) return;
  expect(after.forms.map(shape)).toEqual(before.forms.map(shape));
  expect(fmt(once)).toBe(once);
  expect(
    commentsOf(once)
      .filter((c) => c.length > 0)
      .sort(),
  ).toEqual(commentsOf(input).sort());
  expect(once.includes("\r\n") && !/"""[^]*\r\n[^]*"""/.test(once)).toBe(false);
  if (once.length > 0) expect(once.endsWith("\n")).toBe(true);
}

describe("fmt properties over generated sources", () => {
  it("is idempotent, keeps the tree and every comment, and reads back", () => {
    fc.assert(fc.property(source, checkFormatted), { numRuns: 400 });
  });

  it("writes no line over 100 scalars unless it holds a long atom or comment", () => {
    fc.assert(
      fc.property(source, (input) => {
        for (const line of fmt(input).split("\n")) {
          if ([...line].length <= 100) continue;
          // A line may only be long because of something the formatter never splits.
          expect(/"|;|\S{40,}/.test(line)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });
});

// ---- every fixture and example --------------------------------------------------------------

function yaoFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = statSync(p, { throwIfNoEntry: false });
    if (st === undefined) continue;
    if (st.isDirectory()) out.push(...yaoFiles(p));
    else if (st.isFile() && /\.(yao|hns)$/.test(name)) out.push(p);
  }
  return out;
}

/** Package roots: `.hns` files and `.hns` directories (not the files inside a directory package). */
function packageRoots(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = statSync(p, { throwIfNoEntry: false });
    if (st === undefined) continue;
    if (name.endsWith(".hns")) out.push(p);
    else if (st.isDirectory()) out.push(...packageRoots(p));
  }
  return out;
}

const TREES = ["examples", "fixtures/hns", "fixtures/yao"].map((t) => join(ROOT, t));

describe("fmt properties over every fixture and example", () => {
  const files = TREES.flatMap(yaoFiles);

  it("finds the fixtures", () => {
    expect(files.length).toBeGreaterThan(300);
  });

  it("formats every valid file idempotently, keeping its tree and comments, and refuses every invalid one", async () => {
    const { readFileSync } = await import("node:fs");
    let formatted = 0;
    for (const file of files) {
      const bytes = readFileSync(file);
      const r = formatSource(bytes);
      const read = readAll(bytes);
      expect(r.ok, file).toBe(read.ok);
      if (!r.ok || !read.ok) continue;
      formatted++;
      checkFormatted(read.text);
    }
    expect(formatted).toBeGreaterThan(300);
  });

  it("keeps every package's validity, identity, program_hash and diagnostics", async () => {
    const roots = TREES.flatMap(packageRoots);
    expect(roots.length).toBeGreaterThan(100);
    let compared = 0;
    for (const root of roots) {
      const files = filesUnder(root);
      const name = root.split("/").pop()!;
      const before = await packageFacts(files, name, (t) => t);
      // Files that do not read stay as they are (the formatter refuses them).
      const after = await packageFacts(files, name, (t) => {
        const r = formatSource(t);
        return r.ok ? r.text : t;
      });
      expect({ root, ...after, codes: after.codes }).toEqual({ root, ...before });
      if (before.valid) compared++;
    }
    expect(compared).toBeGreaterThan(30);
  }, 120_000);
});
