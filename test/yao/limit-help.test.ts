/**
 * Issue 34, item 5, and docs/language.md's "A diagnostic for a limit names the limit, its value and
 * the count": every row of the guide's limits table, crossed by one, through `check` as a user runs
 * it. Each diagnostic names its limit, says the limit's value and the count it found, and points at
 * the construct that crosses it (the 129th function, the 257th field, the 33rd branch), not at the
 * entry. The reference's wording stays in `referenceMessage`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { check, checkSource } from "../../src/check/check.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { REPO_ROOT } from "../support/repo.js";

const HEAD = '(manifest (id t) (version "1") (title "T"))\n(contract (purpose "p"))\n';
const ENTRY_LINE = 3;

/** The one error of a package, and everything a person reads of it in one string. */
async function limitError(text: string): Promise<{ d: Diagnostic; said: string }> {
  const errors = (await checkSource("t.hns", text)).diagnostics.filter((d) => d.severity === "error");
  expect(errors.map((d) => d.code)).toHaveLength(1);
  const d = errors[0]!;
  return { d, said: [d.message, d.label, d.hint, ...(d.related ?? []).map((r) => r.message)].join(" | ") };
}

/** 1-based line and column of the `nth` (0-based) occurrence of `needle` in `text`. */
function placeOf(text: string, needle: string, nth = 0): { line: number; column: number } {
  let at = -1;
  for (let i = 0; i <= nth; i++) at = text.indexOf(needle, at + 1);
  expect(at, `${needle} #${nth}`).toBeGreaterThanOrEqual(0);
  const before = text.slice(0, at).split("\n");
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

function expectSays(said: string, name: string, value: number, count: number): void {
  expect(said).toContain(name);
  expect(said).toContain(String(value));
  expect(said).toContain(String(count));
}

const list = (n: number, f: (i: number) => string): string => Array.from({ length: n }, (_, i) => f(i)).join(" ");

describe("every limit names itself, its value and the count, at the construct that crosses it", () => {
  it("the guide's limits table is the one these cases cover", () => {
    const guide = readFileSync(join(REPO_ROOT, "docs/language.md"), "utf8");
    const table = /## Limits\n\n\| limit \| value \|\n\| --- \| --- \|\n((?:\|.*\n)+)/.exec(guide);
    expect(table).not.toBeNull();
    expect(table![1]!.trim().split("\n")).toHaveLength(9);
    expect(guide).toContain("A diagnostic for a limit names the limit, its value and the count.");
  });

  it("one source text: 262144 bytes", async () => {
    const text = `${HEAD}(eval "${"x".repeat(262_144)}")\n`;
    const { d, said } = await limitError(text);
    expect(d.code).toBe("yao.source_limit");
    expectSays(said, "source limit", 262_144, Buffer.byteLength(text));
  });

  it("list nesting: 128 levels, at the '(' that opens level 129", async () => {
    const text = `${HEAD}(eval ${"(list ".repeat(130)}1${")".repeat(130)})\n`;
    const { d, said } = await limitError(text);
    expect(d.code).toBe("yao.nesting_limit");
    expectSays(said, "nesting limit", 128, 129);
    // (eval is level 1, so the 128th "(list " opens level 129.
    expect(d.span?.start).toMatchObject(placeOf(text, "(list ", 127));
  });

  it("expression depth: 32, at the form 33 deep", async () => {
    const text = `${HEAD}(eval ${"(not ".repeat(33)}true${")".repeat(33)})\n`;
    const { d, said } = await limitError(text);
    expect(d.code).toBe("yao.resource_limit");
    expectSays(said, "expression depth limit", 32, 33);
    expect(d.span?.start).toMatchObject(placeOf(text, "true"));
  });

  it("functions in a package: 128, at the 129th function in the file, not at the entry", async () => {
    // Named so that name order and file order differ: the 129th in the file is z128.
    const fns = Array.from({ length: 130 }, (_, i) => `(fn z${i} (params) (returns Int) (body 1))`).join("\n");
    const text = `${HEAD}${fns}\n(eval (requires (tools)) 1)\n`;
    const { d, said } = await limitError(text);
    expect(d.code).toBe("yao.resource_limit");
    expect(d.message).toBe("the package declares 130 functions, over the limit of 128");
    expect(d.referenceMessage).toBe("too many package functions");
    expectSays(said, "module function limit", 128, 130);
    expect(d.span?.start).toMatchObject(placeOf(text, "(fn z128 "));
    expect(d.label).toBe("function 129 of 130, over the limit of 128");
  });

  it("canonical text of a package's program, types and functions: 262144 bytes", async () => {
    const fn = (name: string) => `(fn ${name} (params) (returns String) (body "${"y".repeat(140_000)}"))\n`;
    const fs = MemoryFs.from({
      "/p.hns/manifest.yao": '(manifest (id t) (version "1") (title "T") (entry "programs/main.yao"))\n',
      "/p.hns/contract.yao": '(contract (purpose "p"))\n',
      "/p.hns/functions/a.yao": fn("a"),
      "/p.hns/functions/b.yao": fn("b"),
      "/p.hns/programs/main.yao": "(eval (requires (tools)) (a))\n",
    });
    const errors = (await check(fs, "/p.hns")).diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => d.code)).toEqual(["yao.resource_limit"]);
    const d = errors[0]!;
    expect(d.message).toBe("combined package program exceeds source byte limit");
    const said = [d.message, d.label, d.hint].join(" | ");
    const count = Number(/this package has (\d+)/.exec(said)?.[1]);
    expect(count).toBeGreaterThan(280_000);
    expectSays(said, "module source limit", 262_144, count);
  });

  it("the module source limit counts UTF-8 bytes of the canonical texts, not UTF-16 units", async () => {
    // The loader measures the texts while it hashes the identity and hands the count on; it must be
    // the count the analyzer would make itself: every byte of each function's and the entry's text.
    const fn = (name: string) => `(fn ${name} (params) (returns String) (body "${"检é".repeat(28_000)}"))`;
    const entry = "(eval (requires (tools)) (a))";
    const fs = MemoryFs.from({
      "/p.hns/manifest.yao": '(manifest (id t) (version "1") (title "T") (entry "programs/main.yao"))\n',
      "/p.hns/contract.yao": '(contract (purpose "p"))\n',
      "/p.hns/functions/a.yao": `${fn("a")}\n`,
      "/p.hns/functions/b.yao": `${fn("b")}\n`,
      "/p.hns/programs/main.yao": `${entry}\n`,
    });
    const errors = (await check(fs, "/p.hns")).diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => d.code)).toEqual(["yao.resource_limit"]);
    const bytes = (s: string) => new TextEncoder().encode(s).length;
    const expected = bytes(fn("a")) + bytes(fn("b")) + bytes(entry);
    expect(expected).toBeGreaterThan(262_144);
    expect(fn("a").length * 2 + entry.length).toBeLessThan(262_144);
    expect(errors[0]!.label).toBe(`the entry, types and functions print as ${expected} bytes`);
  });

  it("analysed nodes: 4096, at node 4097", async () => {
    const text = `${HEAD}(eval (list ${list(4096, () => "1")}))\n`;
    const { d, said } = await limitError(text);
    expect(d.code).toBe("yao.resource_limit");
    expect(d.referenceMessage).toBe("typed HIR exceeds 4096 nodes");
    expect(d.message).not.toContain("HIR");
    expectSays(said, "analysed-node limit", 4096, 4097);
    // The list form is node 1, so node 4097 is its 4096th element.
    const elements = `${HEAD}(eval (list `.length;
    expect(d.span?.start.column).toBe(elements - HEAD.length + 2 * 4095 + 1);
    expect(d.span?.start.line).toBe(ENTRY_LINE);
  });

  it("statically linked nodes: 4096, every function body counted once per call", async () => {
    const fns = ["(fn f0 (params) (returns Int) (body 1))"];
    for (let i = 1; i <= 12; i++) fns.push(`(fn f${i} (params) (returns Int) (body (add (f${i - 1}) (f${i - 1}))))`);
    const text = `${HEAD}${fns.join("\n")}\n(eval (requires (tools)) (f12))\n`;
    const { d, said } = await limitError(text);
    expect(d.code).toBe("yao.resource_limit");
    const count = Number(/links (\d+) nodes/.exec(said)?.[1]);
    expect(count).toBeGreaterThan(4096);
    expect(d.referenceMessage).toBe(`statically linked Yao HIR contains ${count} nodes, exceeding the limit of 4096`);
    expectSays(said, "linked-node limit", 4096, count);
    expect(d.span?.start).toMatchObject(placeOf(text, "(eval"));
  });

  it("fields of a record or variant, entries of a dict or json-object: 256, at the 257th", async () => {
    const record = `${HEAD}(eval (types (record R ${list(257, (i) => `(f${i} Int)`)})) 1)\n`;
    const r = await limitError(record);
    expect(r.d.code).toBe("yao.resource_limit");
    expectSays(r.said, "field limit", 256, 257);
    expect(r.d.span?.start).toMatchObject(placeOf(record, "(f256 Int)"));
    for (const form of ["dict", "json-object"]) {
      const text = `${HEAD}(eval (${form} ${list(257, (i) => `(k${i} 1)`)}))\n`;
      const e = await limitError(text);
      expectSays(e.said, "field limit", 256, 257);
      expect(e.said).toContain(`a ${form} holds`);
      expect(e.d.span?.start).toMatchObject(placeOf(text, "(k256 1)"));
    }
  });

  it("par branches: at most 32, at the 33rd branch", async () => {
    const text = `${HEAD}(eval (par ${list(33, (i) => `(branch b${i} 1)`)}))\n`;
    const { d, said } = await limitError(text);
    expect(d.code).toBe("yao.resource_limit");
    expectSays(said, "par branch limit", 32, 33);
    expect(d.span?.start).toMatchObject(placeOf(text, "(branch b32 1)"));
  });

  it("function call depth: 32, at the function 33 calls deep", async () => {
    const fns = Array.from({ length: 33 }, (_, i) =>
      i === 32 ? `(fn c${i} (params) (returns Int) (body 1))` : `(fn c${i} (params) (returns Int) (body (c${i + 1})))`,
    ).join("\n");
    const text = `${HEAD}${fns}\n(eval (requires (tools)) (c0))\n`;
    const { d, said } = await limitError(text);
    expect(d.code).toBe("yao.resource_limit");
    expectSays(said, "call depth limit", 32, 33);
    expect(d.span?.start).toMatchObject(placeOf(text, "(fn c32 "));
    expect(d.label).toContain("c0 -> … -> c32");
  });
});
