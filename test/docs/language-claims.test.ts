/**
 * docs/language.md's sentences outside its examples are promises too (issue 34, item 1): each
 * rule the guide states in prose — names, function clauses, effect positions, effect bounds,
 * captures, requirements, what `yaoc new` writes — is shown here with a program that keeps it and
 * one that breaks it. Every sentence is quoted from the guide, so a reworded rule fails here
 * until its test is looked at again. (The examples are test/docs/language.test.ts; the limits
 * table is test/yao/limit-help.test.ts.)
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkSource } from "../../src/check/check.js";
import { packageFiles } from "../../src/cli/new-command.js";
import { readOne } from "../../src/syntax/reader.js";
import { analyzeProgram, morphzProfile, toolsFromManifest } from "../../src/yao/index.js";
import { displayEffects } from "../../src/yao/type-display.js";
import { REPO_ROOT } from "../support/repo.js";

const GUIDE = readFileSync(join(REPO_ROOT, "docs/language.md"), "utf8").replace(/\s+/g, " ");

function says(sentence: string): void {
  expect(GUIDE, "the guide no longer says this; look at its test again").toContain(sentence);
}

/** Error codes of a program (tools: read, dynamic), or its effects when it has none. */
function program(source: string): string {
  const read = readOne(source, { file: "claim.yao" });
  if (!read.ok) return read.diagnostic.code;
  const r = analyzeProgram(read.form, { profile: morphzProfile(toolsFromManifest(["read"], {}).tools) });
  return r.diagnostics.length > 0 ? r.diagnostics.map((d) => d.code).join(" ") : displayEffects(r.program!.effects);
}

const MANIFEST = '(manifest (id t) (version "1") (title "T") (capabilities (tools read)))\n(contract (purpose "p"))\n';

/** Error codes of a package made of the manifest and `rest`; "ok" when it is valid. */
async function pkg(rest: string): Promise<string> {
  const r = await checkSource("t.hns", `${MANIFEST}${rest}`);
  const codes = r.diagnostics.filter((d) => d.severity === "error").map((d) => d.code);
  return r.valid ? "ok" : codes.join(" ");
}

describe("docs/language.md's rules, each kept and broken", () => {
  it("A first package: what yaoc new writes, in both forms", () => {
    says("`yaoc new hello` writes this file, `hello.hns`; `yaoc check hello.hns` accepts it.");
    const shown = /```hns\n([\s\S]*?)```/.exec(readFileSync(join(REPO_ROOT, "docs/language.md"), "utf8"))![1];
    expect(shown).toBe(packageFiles("hello", "file").get("hello.hns"));
    says(
      "`yaoc new hello --dir` writes the same package as a directory (`manifest.yao`, `contract.yao`, `functions/read-notes.yao`, `programs/main.yao`).",
    );
    expect([...packageFiles("hello", "dir").keys()]).toEqual([
      "hello.hns/manifest.yao",
      "hello.hns/contract.yao",
      "hello.hns/functions/read-notes.yao",
      "hello.hns/programs/main.yao",
    ]);
  });

  it("the forms of a single-file package may come in any order; mind is optional", async () => {
    says("a `(mind …)` is optional. The forms of a single-file package may come in any order.");
    expect(await pkg("(eval (requires (tools)) (f))\n(fn f (params) (returns Int) (body 1))")).toBe("ok");
    expect(
      await checkSource(
        "m.hns",
        '(mind (frame (id a/b)))\n(manifest (id t) (version "1") (title "T"))\n(contract (purpose "p"))\n(eval 1)',
      ).then((r) => r.valid),
    ).toBe(true);
  });

  it("functions are called with named arguments", async () => {
    says('Functions are called like forms, with named arguments: `(read-notes (path "x"))`.');
    const fn = "(fn twice (params (n Int)) (returns Int) (body (mul n 2)))\n";
    expect(await pkg(`${fn}(eval (requires (tools)) (twice (n 3)))`)).toBe("ok");
    expect(await pkg(`${fn}(eval (requires (tools)) (twice 3))`)).not.toBe("ok");
  });

  it("names: never with $, never rebound, and a.b is (get a b)", () => {
    says(
      "Names are never written with `$`, cannot be rebound, and `a.b` reads field `b` of `a` (the same as `(get a b)`).",
    );
    expect(program("(eval (seq (bind a 1) $a))")).toBe("yao.unknown_name");
    expect(program("(eval (seq (bind a 1) (bind a 2) a))")).toMatch(/^yao\./);
    const T = "(types (record P (x Int)))";
    expect(program(`(eval ${T} (seq (bind p (record P (x 1))) (add p.x 1)))`)).toBe("(effects)");
    expect(program(`(eval ${T} (seq (bind p (record P (x 1))) (add (get p x) 1)))`)).toBe("(effects)");
    expect(program(`(eval ${T} (seq (bind p (record P (x 1))) p.y))`)).toBe("yao.type_mismatch");
  });

  it("a function's clauses: any order, each once; params, returns and body required; exported needs description and effects", async () => {
    says("A function's clauses may come in any order, each once");
    says(
      "`params`, `returns` and `body` are required; an exported function also needs a description and an `(effects …)` bound.",
    );
    const call = "\n(eval (requires (tools)) (f))";
    expect(await pkg(`(fn f (body 1) (returns Int) (params))${call}`)).toBe("ok");
    expect(await pkg(`(fn f (params) (params) (returns Int) (body 1))${call}`)).not.toBe("ok");
    for (const missing of ["(returns Int) (body 1)", "(params) (body 1)", "(params) (returns Int)"])
      expect(await pkg(`(fn f ${missing})${call}`), missing).not.toBe("ok");
    const exported = "(visibility exported) (params) (returns Int) (body 1)";
    expect(await pkg(`(fn f ${exported} (description "d") (effects))${call}`)).toBe("ok");
    expect(await pkg(`(fn f ${exported} (effects))${call}`)).toBe("yao.missing_description");
    expect(await pkg(`(fn f ${exported} (description "d"))${call}`)).not.toBe("ok");
  });

  it("in a package with functions the entry must say (requires (tools …))", async () => {
    says("In a package with functions the entry must say `(requires (tools …))`.");
    const fn = "(fn f (params) (returns Int) (body 1))\n";
    expect(await pkg(`${fn}(eval (requires (tools)) (f))`)).toBe("ok");
    expect(await pkg(`${fn}(eval (f))`)).toBe("hns.missing_module_requires");
  });

  it("requires narrows: (tools) means none", async () => {
    says("the tools it may call (a closed list; `(tools)` means none)");
    expect(program('(eval (requires (tools read)) (call read (path "a")))')).toBe("(effects (tool read))");
    expect(program('(eval (requires (tools)) (call read (path "a")))')).toMatch(/^yao\./);
  });

  it("each effect comes from what the guide says it comes from", () => {
    says(
      "`(tool NAME)` for `(call NAME …)`, `infer` for asking the model, `(host OP)` for a host operation, `(program E…)` for running a Program value.",
    );
    expect(program('(eval (call read (path "a")))')).toBe("(effects (tool read))");
    expect(program('(eval (infer (returns String) "say hi"))')).toBe("(effects infer)");
    expect(program("(eval (host.view runtime.context (returns Json)))")).toBe("(effects (host view.Context))");
    expect(
      program('(eval (seq (bind p (infer (returns (Program Int (effects (tool read)))) "write one")) (run p)))'),
    ).toBe("(effects infer (program (tool read)))");
    expect(program("(eval (add 1 2))")).toBe("(effects)");
  });

  it("a function's (effects …) bounds its body and every function it applies", async () => {
    says("A function's `(effects …)` is an upper bound: its body, and every function it applies, must stay inside it.");
    const g = '(fn g (params) (returns Json) (effects (tool read)) (body (call read (path "a"))))\n';
    const entry = "\n(eval (requires (tools read)) (f))";
    expect(await pkg(`${g}(fn f (params) (returns Json) (effects (tool read)) (body (g)))${entry}`)).toBe("ok");
    expect(await pkg(`${g}(fn f (params) (returns Json) (effects) (body (g)))${entry}`)).toBe("yao.effect_escape");
    expect(await pkg(`(fn f (params) (returns Json) (effects) (body (call read (path "a"))))${entry}`)).toBe(
      "yao.effect_escape",
    );
  });

  it("effectful expressions only in the positions the guide lists; elsewhere bind first", () => {
    says(
      "Effectful expressions may appear only as `seq` steps, `bind` values, `if`/`fallback` branches, `map` and `match` bodies, `par` branches, `infer` bodies, function bodies and the program body.",
    );
    const r = '(call read (path "a"))';
    const U = "(types (union U (a) (b)))";
    const allowed = {
      "seq step": `(eval (seq ${r} 1))`,
      "bind value": `(eval (seq (bind x ${r}) 1))`,
      "if branch": `(eval (if true ${r} ${r}))`,
      "fallback branch": `(eval (fallback ${r} ${r}))`,
      "map body": `(eval (map (list 1 2) n ${r}))`,
      "match body": `(eval ${U} (match (variant U.a) ((case U.a) ${r}) ((case U.b) ${r})))`,
      "par branch": `(eval (par (branch a ${r}) (branch b 1)))`,
      "infer body": `(eval (infer (returns Json) ${r}))`,
      "program body": `(eval ${r})`,
    };
    for (const [where, source] of Object.entries(allowed)) expect(program(source), where).not.toMatch(/yao\./);
    says("Everywhere else (a list element, an argument, an operand) the value must be pure: bind it first.");
    const refused = {
      "list element": `(eval (list ${r}))`,
      "form argument": `(eval (to-json ${r}))`,
      operand: `(eval (eq ${r} ${r}))`,
      "if condition": `(eval (if (is Bool ${r}) 1 2))`,
    };
    for (const [where, source] of Object.entries(refused)) expect(program(source), where).toBe("yao.effect_escape");
  });

  it("an infer body sees only what it captures, runtime too; captures before returns", () => {
    says(
      "An `(infer …)` body is evaluated by the model and sees **only** the names it captures; even `runtime` must be captured to be visible. `(captures …)` comes before `(returns …)`",
    );
    expect(program('(eval (seq (bind goal "g") (infer (captures goal) (returns String) goal)))')).toBe(
      "(effects infer)",
    );
    expect(program('(eval (seq (bind goal "g") (infer (returns String) goal)))')).toBe("yao.unknown_name");
    const view = "(host.view runtime.context (returns Json))";
    expect(program(`(eval (infer (captures runtime) (returns Json) ${view}))`)).toBe(
      "(effects infer (host view.Context))",
    );
    expect(program(`(eval (infer (returns Json) ${view}))`)).toBe("yao.unknown_name");
    expect(program('(eval (seq (bind goal "g") (infer (returns String) (captures goal) goal)))')).toBe(
      "yao.invalid_type",
    );
  });
});
