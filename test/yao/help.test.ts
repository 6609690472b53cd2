/**
 * Issue 34, item 5: help wherever the fix is known — a form's signature for a wrong operand count,
 * decode for a field of a Json value, the valid type constructors, the order of declarations, a limit
 * with its value and the count, and the manifest's (entry …) when the entry file is missing.
 */
import { describe, expect, it } from "vitest";
import { check, checkSource } from "../../src/check/check.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { MemoryFs } from "../../src/fs/memory-fs.js";

const MANIFEST = '(manifest (id t) (version "1") (title "T") (capabilities (tools read)))\n(contract (purpose "p"))\n';

async function errorsOf(text: string): Promise<Diagnostic[]> {
  return (await checkSource("t.hns", `${MANIFEST}${text}`)).diagnostics.filter((d) => d.severity === "error");
}

async function only(text: string): Promise<Diagnostic> {
  const es = await errorsOf(text);
  expect(es.map((d) => d.code)).toHaveLength(1);
  return es[0]!;
}

describe("help where the fix is known", () => {
  it("a wrong operand count gives the form's signature", async () => {
    const d = await only("(eval (gt 1))");
    expect(d.message).toBe("gt requires 2 operands, found 1");
    expect(d.hint).toContain("(gt A B)");
    expect(d.label).toBe("1 operand here");
    expect((await only("(eval (add 1))")).hint).toContain("(add A B...)");
  });

  it("a field of a Json value says to decode it into a record", async () => {
    const d = await only('(eval (requires (tools read)) (seq (bind j (call read (path "t"))) (get j title)))');
    expect(d.message).toBe("type Json has no readable field 'title'");
    expect(d.hint).toContain("(decode NAME E)");
    expect(d.hint).toContain("(title TYPE)");
  });

  it("an unknown type constructor lists the valid ones", async () => {
    const d = await only("(fn f (params (t (record x))) (returns Int) (body 1))\n(eval (requires (tools)) (f (t 1)))");
    expect(d.message).toContain("unknown type constructor 'record'");
    expect(d.hint).toContain("List, Map, Option, Result, Ref and Program");
    expect(d.hint).toContain("(types (record NAME");
    expect((await only("(eval (none (Lisst Int)))")).hint).toContain("did you mean 'List'?");
  });

  it("(types …) before (requires …) says the order of declarations", async () => {
    const d = await only("(eval (types (record P (x Int))) (requires (tools read)) 1)");
    expect(d.message).toBe("eval requires exactly one body after declarations; use seq for multiple steps");
    expect(d.hint).toContain("(eval (requires …) (types …) BODY)");
    expect(d.label).toContain("(requires …) is out of its place");
  });

  it("too many package functions names the limit and the count, and points at the first one over", async () => {
    const fns = Array.from({ length: 130 }, (_, i) => `(fn f${i} (params) (returns Int) (body ${i}))`).join("\n");
    const d = (await errorsOf(`${fns}\n(eval (requires (tools)) 1)`)).find((e) => e.code === "yao.resource_limit")!;
    expect(d.message).toBe("too many package functions");
    expect(d.hint).toContain("at most 128 functions");
    expect(d.hint).toContain("declares 130");
    expect(d.related?.[0]?.message).toBe("function 129 of 130, over the limit of 128");
  });

  it("a missing entry file points at the manifest's (entry …)", async () => {
    const fs = MemoryFs.from({
      "/p.hns/manifest.yao": '(manifest (id t) (version "1") (title "T") (entry "programs/main.yao"))\n',
      "/p.hns/contract.yao": "(contract)\n",
    });
    const r = await check(fs, "/p.hns");
    const d = r.diagnostics.find((e) => e.code === "hns.entry_not_found")!;
    expect(d.related?.[0]?.message).toBe("the manifest names the entry here");
    expect(d.related?.[0]?.file).toBe("/p.hns/manifest.yao");
    expect(d.related?.[0]?.span?.start).toMatchObject({ line: 1, column: 44 });
    expect(d.hint).toContain("create programs/main.yao");
  });
});
