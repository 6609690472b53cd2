/**
 * Issue 34, item 5: help wherever the fix is known — a form's signature for a wrong operand count,
 * decode for a field of a Json value, the valid type constructors, the order of declarations, a limit
 * with its value and the count, and the manifest's (entry …) when the entry file is missing.
 */
import { describe, expect, it } from "vitest";
import { check, checkSource } from "../../src/check/check.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { FORMS, formHelp } from "../../src/yao/forms.js";

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

  it("every form written with the wrong shape gets its signature, from the language table", async () => {
    // (op) with no operands, and (op 1 2 3 4 5) with too many, for every form of the table: where the
    // error is at the form itself (its shape), the help is the table's signature and type rule.
    let shaped = 0;
    for (const f of FORMS) {
      for (const call of [`(${f.name})`, `(${f.name} 1 2 3 4 5)`]) {
        const text = `(eval (requires (tools read)) ${call})`;
        const at = MANIFEST.length + text.indexOf(call);
        const errors = await errorsOf(text);
        const here = errors.filter((d) => d.span?.start.byte === at && d.span?.end.byte === at + call.length);
        // Several bodies of an infer: the fix is a seq, which its help says instead.
        const seq = "wrap the steps in (seq STEP …): an (infer …) holds one body expression";
        for (const d of here)
          expect(d.hint, `${call}: ${d.message}`).toBe(
            f.name === "infer" && call !== "(infer)" ? seq : formHelp(f.name),
          );
        shaped += here.length;
      }
    }
    expect(shaped).toBeGreaterThan(30);
    expect((await only("(eval (if true 1))")).hint).toBe(
      "write it as (if CONDITION THEN ELSE): the common type of THEN and ELSE; CONDITION is Bool",
    );
    expect((await only('(eval (requires (tools read)) (get (call read (path "a"))))')).hint).toContain(
      "write it as (get E FIELD)",
    );
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

  it("a type constructor or an effect written wrongly says how to write it", async () => {
    const type = async (t: string) =>
      only(`(fn f (params (x ${t})) (returns Int) (body 1))\n(eval (requires (tools)) (f (x 1)))`);
    expect((await type("(List)")).hint).toBe("write it as (List T), e.g. (List Int)");
    expect((await type("(Option Int String)")).hint).toBe("write it as (Option T), e.g. (Option Int)");
    expect((await type("(Result Int)")).hint).toBe("write it as (Result T E), e.g. (Result Int String)");
    expect((await type("(Program String)")).hint).toContain("write it as (Program T (effects EFFECT...))");
    expect((await type("(Program String (tool read))")).hint).toContain("(Program String (effects (tool read)))");
    const effect = async (e: string) =>
      only(`(fn f (params) (returns Int) (effects ${e}) (body 1))\n(eval (requires (tools)) (f))`);
    const kind = await effect("(tol read)");
    expect(kind.message).toBe("unknown effect kind 'tol'");
    expect(kind.hint).toContain("an effect is (tool NAME), (host OPERATION), (program EFFECT…) or infer");
    expect(kind.hint).toContain("did you mean 'tool'?");
    expect((await effect("(tool)")).hint).toBe("write it as (tool NAME), e.g. (tool read)");
    expect((await effect("read")).hint).toContain("an effect is (tool NAME)");
  });

  it("(types …) before (requires …) says the order of declarations, at the misplaced one", async () => {
    const text = "(eval (types (record P (x Int))) (requires (tools read)) 1)";
    const d = await only(text);
    expect(d.message).toBe("(requires …) is out of its place: it must come before (types …)");
    expect(d.referenceMessage).toBe("eval requires exactly one body after declarations; use seq for multiple steps");
    expect(d.hint).toContain("(eval (requires …) (types …) BODY)");
    expect(d.hint).not.toContain("seq");
    expect(d.label).toBe("(requires …) comes after (types …), so it is read as a second body");
    // At the eval, where the reference and the loader put a misplaced declaration's error, with a
    // note at the declaration itself.
    expect(d.span?.start).toMatchObject({ line: 3, column: 1 });
    expect(d.related?.[0]).toMatchObject({
      message: "this (requires …) belongs before (types …)",
      span: { start: { line: 3, column: text.indexOf("(requires") + 1 } },
    });
  });

  it("a declaration after the body, twice, or out of order in an infer says so too", async () => {
    const after = await only("(eval (requires (tools)) 1 (types (record P (x Int))))");
    expect(after.message).toBe("(types …) is out of its place: it must come before the body");
    const twice = await only("(eval (requires (tools)) (types (record P (x Int))) (types (record Q (y Int))) 1)");
    expect(twice.message).toBe("(types …) is declared twice in this eval");
    expect(twice.related?.map((r) => r.message)).toEqual(["the first (types …)", "the second (types …)"]);
    const infer = await only('(eval (seq (bind g "x") (infer (returns String) (captures g) g)))');
    expect(infer.message).toBe("(captures …) is out of its place: it must come before (returns …)");
    expect(infer.hint).toContain("(infer (captures …) (returns …) BODY)");
    expect(infer.referenceMessage).toMatch(/^infer requires exactly one complete Yao body/);
    // (requires …) or (types …) in an infer inside a program: they belong to the eval's header.
    const inner = await only('(eval (requires (tools read)) (infer (returns Int) (requires (tools read)) "x"))');
    expect(inner.message).toBe("(requires …) cannot be declared in an infer inside a program");
    expect(inner.referenceMessage).toMatch(/^infer requires exactly one complete Yao body/);
    expect(inner.hint).toContain("(eval (requires …) (types …) BODY)");
    expect(inner.hint).toContain("(infer (captures …) (returns …) BODY)");
    expect(inner.hint).not.toContain("seq");
    expect(inner.related?.[0]?.message).toBe("this (requires …) belongs in the (eval …) header");
    const innerTypes = await only('(eval (infer (types (record P (x Int))) (returns Int) "x"))');
    expect(innerTypes.message).toBe("(types …) cannot be declared in an infer inside a program");
    // Two bodies and no declaration out of place: the reference's error, with seq as the fix.
    const two = await only("(eval (requires (tools)) 1 2)");
    expect(two.message).toBe("eval requires exactly one body after declarations; use seq for multiple steps");
    expect(two.hint).toContain("(seq STEP …)");
  });

  it("too many package functions names the limit and the count, at the first one over", async () => {
    const fns = Array.from({ length: 130 }, (_, i) => `(fn f${i} (params) (returns Int) (body ${i}))`).join("\n");
    const d = (await errorsOf(`${fns}\n(eval (requires (tools)) 1)`)).find((e) => e.code === "yao.resource_limit")!;
    expect(d.message).toBe("the package declares 130 functions, over the limit of 128");
    expect(d.hint).toContain("at most 128 functions");
    expect(d.hint).toContain("declares 130");
    expect(d.label).toBe("function 129 of 130, over the limit of 128");
    // The 129th function of the file (line 3 is the first), not the entry.
    expect(d.span?.start.line).toBe(3 + 128);
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
