/**
 * Issue 16 item 1: one `check` run reports every independent HNS/Yao error — each manifest field,
 * each artifact, each function on its own (a broken function keeps its declared signature so its
 * callers are still checked), the entry against the module — with the reference's first error
 * first, cascades suppressed and at most 200 errors per package.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { NodeFs } from "../../src/fs/node-fs.js";
import { check as checkPackage } from "../../src/check/check.js";
import { MAX_PACKAGE_ERRORS } from "../../src/check/hns.js";
import { REPO } from "./helpers.js";

const HEADER =
  '(manifest (id demo) (version "1") (title "Demo") (capabilities (tools read)))\n(contract (purpose "p"))\n';

async function check(source: string): Promise<Diagnostic[]> {
  const fs = MemoryFs.from({ "/p.hns": source });
  const r = await checkPackage(fs, "/p.hns");
  return [...r.diagnostics];
}

async function checkFiles(files: Record<string, string>, path: string): Promise<Diagnostic[]> {
  const r = await checkPackage(MemoryFs.from(files), path, { kind: "hns" });
  return [...r.diagnostics];
}

const errors = (ds: readonly Diagnostic[]) => ds.filter((d) => d.severity === "error");
const codes = (ds: readonly Diagnostic[]) => errors(ds).map((d) => d.code);

describe("the four-mistake package", () => {
  it("shows all four errors in one run, each with a label, and a did-you-mean where one applies", async () => {
    const file = join(REPO, "fixtures/teaching/four-mistakes.hns");
    const r = await checkPackage(new NodeFs(), file, { kind: "hns" });
    const es = errors(r.diagnostics);
    // In position order: next-number (line 15), label-for (20), load-lines' form (22) and its (path Strin) (24).
    expect(es.map((d) => d.code)).toEqual([
      "yao.unknown_operator",
      "yao.type_mismatch",
      "yao.missing_description",
      "yao.invalid_type",
    ]);
    const [plus, mismatch, description, strin] = es as [Diagnostic, Diagnostic, Diagnostic, Diagnostic];
    expect(strin.message).toBe("unknown type 'Strin'");
    expect(strin.hint).toBe("did you mean 'String'?");
    // The caret is on the misspelt name, not on the whole (path Strin) clause.
    const source = readFileSync(file, "utf8");
    expect(source.slice(strin.span!.start.byte, strin.span!.end.byte)).toBe("Strin");
    expect(plus.message).toBe("in fn 'next-number': unknown Yao operator '+'");
    expect(plus.hint).toContain("'add'");
    expect(plus.function).toBe("next-number");
    expect(mismatch.label).toBe("expected Int, found String");
    expect(mismatch.related?.[0]?.message).toBe("'label-for' is declared to return Int here");
    expect(source.slice(mismatch.related![0]!.span!.start.byte, mismatch.related![0]!.span!.end.byte)).toBe(
      "(returns Int)",
    );
    expect(description.message).toBe("exported fn 'load-lines' requires a non-empty description");
    expect(description.hint).toContain("(description");
  });
});

describe("every function is checked on its own", () => {
  it("a function with an error keeps its declared signature, so callers are checked against it", async () => {
    const ds = await check(
      `${HEADER}(fn broken (params (n Int)) (returns String) (body (add n "x")))\n` +
        `(fn caller (params) (returns Int) (body (broken (n "not an int"))))\n(eval (requires (tools read)) (caller))`,
    );
    expect(codes(ds)).toEqual(["yao.type_mismatch", "yao.type_mismatch"]);
    expect(errors(ds)[0]!.function).toBe("broken");
    const callerError = errors(ds)[1]!;
    expect(callerError.function).toBe("caller");
    expect(callerError.label).toBe("expected Int, found String");
    expect(callerError.related?.[0]?.message).toBe("parameter 'n' is declared Int here");
  });

  it("a caller that uses a broken function correctly adds no error", async () => {
    const ds = await check(
      `${HEADER}(fn broken (params (n Int)) (returns Int) (body (nope n)))\n` +
        `(fn caller (params) (returns Int) (body (add 1 (broken (n 2)))))\n(eval (requires (tools read)) (caller))`,
    );
    expect(codes(ds)).toEqual(["yao.unknown_operator"]);
  });

  it("an unknown parameter type is one error; uses of the parameter do not cascade", async () => {
    const ds = await check(
      `${HEADER}(fn f (params (x Strng)) (returns Int) (body (add x.length (get x size) 1)))\n(eval (requires (tools read)) (f (x "a")))`,
    );
    expect(codes(ds)).toEqual(["yao.invalid_type"]);
    expect(errors(ds)[0]!.hint).toBe("did you mean 'String'?");
  });

  it("a function whose parameters cannot be read accepts any application without further errors", async () => {
    const ds = await check(
      `${HEADER}(fn f (params x) (returns Int) (body 1))\n(eval (requires (tools read)) (f (y 1) (z 2)))`,
    );
    expect(codes(ds)).toEqual(["yao.type_mismatch"]);
    expect(errors(ds)[0]!.message).toBe("fn parameter must be (NAME TYPE)");
  });

  it("the entry is checked against the module even when functions fail", async () => {
    const ds = await check(
      `${HEADER}(fn f (params (n Int)) (returns Int) (body (mul n "2")))\n(eval (requires (tools read)) (f (m 1)))`,
    );
    expect(codes(ds)).toEqual(["yao.type_mismatch", "yao.type_mismatch"]);
    expect(errors(ds)[1]!.message).toBe("missing required fn argument 'n'");
    expect(errors(ds)[1]!.function).toBeUndefined();
  });

  it("an unknown binding, field, tool and fn argument each get a did-you-mean", async () => {
    const ds = await check(
      `${HEADER}(fn a (params (count Int)) (returns Int) (body (add cuont 1)))\n` +
        `(fn b (params (box Box)) (returns Int) (body box.widht))\n` +
        `(fn c (params) (returns Json) (body (call raed (path "x"))))\n` +
        `(fn d (params (limit Int)) (returns Int) (body limit))\n` +
        `(eval (requires (tools read)) (types (record Box (width Int))) (d (limt 1)))`,
    );
    const hints = Object.fromEntries(errors(ds).map((d) => [d.message, d.hint]));
    expect(hints).toEqual({
      "in fn 'a': unknown binding 'cuont'": "did you mean 'count'?",
      "in fn 'b': type Box has no readable field 'widht'": "did you mean 'width'?",
      "in fn 'c': unknown tool 'raed'": "did you mean 'read'?",
      "missing required fn argument 'limit'": "add (limit VALUE) to the application of 'd'",
    });
  });

  it("a recursion cycle names its edges as secondary spans", async () => {
    const ds = await check(
      `${HEADER}(fn a (params) (returns Int) (body (b)))\n(fn b (params) (returns Int) (body (c)))\n(fn c (params) (returns Int) (body (a)))\n(eval (requires (tools read)) (a))`,
    );
    const cycle = errors(ds).find((d) => d.code === "yao.recursive_function")!;
    expect(cycle.message).toBe(
      "in fn 'a': in fn 'b': in fn 'c': recursive HNS function cycle is not supported: a -> b -> c -> a",
    );
    expect(cycle.related?.map((r) => r.message)).toEqual(["'b' calls 'c'", "'c' calls 'a'"]);
    expect(codes(ds)).toEqual(["yao.recursive_function"]);
  });
});

describe("manifest and artifacts", () => {
  it("every manifest field problem is reported, in position order", async () => {
    const ds = await check(
      '(manifest (id " x ") (title "T") (title "U") (capabilities (tools read) tools))\n(contract (p "q"))\n(eval 1)',
    );
    // The reference stops at the missing version, which is also first by position (the manifest's head).
    expect(codes(ds)).toEqual(["hns.missing_field", "hns.empty_field", "hns.duplicate_field", "hns.bad_capabilities"]);
    expect(errors(ds)[0]!.message).toBe("(manifest ...) is missing (version VALUE)");
    const duplicate = errors(ds)[2]!;
    expect(duplicate.related?.[0]?.message).toBe("the first (title …) is here");
  });

  it("a misspelt manifest field is one error at the field, with the did-you-mean, and no unknown-field warning", async () => {
    const source = '(manifest (id x) (verison "1") (title "T"))\n(contract (p "q"))\n(eval 1)';
    const ds = await check(source);
    expect(ds.map((d) => d.code)).toEqual(["hns.missing_field"]);
    const missing = ds[0]!;
    expect(missing.message).toBe("(manifest ...) is missing (version VALUE)");
    expect(source.slice(missing.span!.start.byte, missing.span!.end.byte)).toBe('(verison "1")');
    expect(missing.label).toBe("did you mean (version …)?");
    expect(missing.hint).toBe("rename (verison …) to (version …)");
    expect(missing.related?.map((r) => [r.message, r.span?.start.byte])).toEqual([
      ["this (manifest …) has no (version …) field", 0],
    ]);
  });

  it("an unknown field beside the real one is only the warning (the near miss)", async () => {
    const ds = await check('(manifest (id x) (version "1") (verison "1") (title "T"))\n(contract (p "q"))\n(eval 1)');
    expect(ds.map((d) => [d.code, d.hint])).toEqual([["hns.unknown_field", "did you mean 'version'?"]]);
  });

  it("a missing field with nothing like it is reported at the manifest, with no note", async () => {
    const ds = await check('(manifest (id x) (title "T"))\n(contract (p "q"))\n(eval 1)');
    expect(ds.map((d) => [d.code, d.span?.start.byte, d.related])).toEqual([["hns.missing_field", 0, undefined]]);
  });

  it("a misspelt (capabilities …) is one tool error at the field, each required tool a note", async () => {
    const source =
      '(manifest (id x) (version "1") (title "T") (capabilites (tools read write)))\n(contract (p "q"))\n' +
      '(eval (requires (tools read write)) (seq (call read (path "a")) (call write (path "b"))))';
    const r = await checkPackage(MemoryFs.from({ "/p.hns": source }), "/p.hns");
    expect(r.valid).toBe(false);
    expect(r.diagnostics.map((d) => d.code)).toEqual(["hns.tool_not_in_manifest"]);
    const [one] = r.diagnostics as [Diagnostic];
    expect(source.slice(one.span!.start.byte, one.span!.end.byte)).toBe("(capabilites (tools read write))");
    expect(one.message).toBe(
      "tools 'read', 'write' declared by program requires are absent from Harness Manifest package capabilities",
    );
    // The fail-fast reference names the first tool alone; its wording stays available.
    expect(one.referenceMessage).toBe(
      "tool 'read' declared by program requires is absent from Harness Manifest package capabilities",
    );
    expect(one.label).toBe("did you mean (capabilities …)?");
    expect(one.hint).toContain("rename (capabilites …) to (capabilities …)");
    expect(one.related?.map((n) => [n.message, source.slice(n.span!.start.byte, n.span!.end.byte)])).toEqual([
      ["'read' is required here", "read"],
      ["'write' is required here", "write"],
    ]);
  });

  it("a misspelt (capabilities …) with one required tool keeps the reference's message", async () => {
    const ds = await check(
      '(manifest (id x) (version "1") (title "T") (capabilites (tools read)))\n(contract (p "q"))\n(eval (requires (tools read)) (call read (path "a")))',
    );
    expect(ds.map((d) => [d.code, d.message, d.referenceMessage])).toEqual([
      [
        "hns.tool_not_in_manifest",
        "tool 'read' declared by program requires is absent from Harness Manifest package capabilities",
        undefined,
      ],
    ]);
  });

  it("a misspelt (capabilities …) when no tool is required is only the warning (the near miss)", async () => {
    const r = await checkPackage(
      MemoryFs.from({
        "/p.hns":
          '(manifest (id x) (version "1") (title "T") (capabilites (tools read)))\n(contract (p "q"))\n(eval (requires (tools)) 1)',
      }),
      "/p.hns",
    );
    expect(r.valid).toBe(true);
    expect(r.diagnostics.map((d) => [d.code, d.hint])).toEqual([["hns.unknown_field", "did you mean 'capabilities'?"]]);
  });

  it("with the real (capabilities …) present, each ungranted tool is its own error", async () => {
    const ds = await check(
      '(manifest (id x) (version "1") (title "T") (capabilities (tools read)) (capabilites (tools write)))\n(contract (p "q"))\n(eval (requires (tools read write sarch)) 1)',
    );
    expect(ds.map((d) => d.code)).toEqual([
      "hns.unknown_field",
      "hns.tool_not_in_manifest",
      "hns.tool_not_in_manifest",
    ]);
  });

  it("a directory package reports its broken contract, each broken function file and the entry's error", async () => {
    const ds = await checkFiles(
      {
        "/d.hns/manifest.yao": '(manifest (id d) (version "1") (title "D") (entry "main.yao"))',
        "/d.hns/main.yao": "(eval (requires (tools)) (g (x 1)))",
        "/d.hns/contract.yao": '(contract (p "q")',
        "/d.hns/functions/f.yao": "(fn f (params) (returns Int) (body 1)",
        "/d.hns/functions/g.yao": "(fn g (params (x Int)) (returns Int) (body 1))",
        "/d.hns/functions/h.txt": "x",
      },
      "/d.hns",
    );
    expect(codes(ds)).toEqual(["yao.unclosed_list", "yao.unclosed_list", "hns.non_yao_function_file"]);
    expect(errors(ds)[0]!.file).toBe("/d.hns/contract.yao");
  });

  it("a string root is reported once and the artifact is still read", async () => {
    const ds = await check('("manifest" (id x) (version "1") (title "T"))\n(contract (p "q"))\n(eval 1)');
    expect(codes(ds)).toEqual(["hns.wrong_root"]);
  });

  it("diagnostics are sorted by position only, even when the reference would report a later one first", async () => {
    const ds = await check(
      `${HEADER}(fn z (params) (returns Int) (body "z"))\n(fn a (params) (returns Int) (body "a"))\n(fn m (params (x Nope)) (returns Int) (body 1))\n(eval (requires (tools read)) 1)`,
    );
    // The fail-fast reference stops at the declaration error of m (declarations are read before
    // bodies); shown by position, it comes last, after the body errors of z and a above it.
    expect(ds.map((d) => d.function ?? d.message)).toEqual(["z", "a", "unknown type 'Nope'"]);
    const places = ds.map((d) => d.span!.start.byte);
    expect(places).toEqual([...places].sort((x, y) => x - y));
  });
});

describe("the error cap", () => {
  it(`stops at ${MAX_PACKAGE_ERRORS} errors with a closing note`, async () => {
    const fns = Array.from(
      { length: 110 },
      (_, i) => `(fn f${i} (params (a A${i}) (b B${i})) (returns Int) (body 1))`,
    ).join("\n");
    const ds = await check(`${HEADER}${fns}\n(eval (requires (tools read)) 1)`);
    expect(errors(ds)).toHaveLength(MAX_PACKAGE_ERRORS);
    const note = ds[ds.length - 1]!;
    expect(note.code).toBe("hns.error_limit");
    expect(note.severity).toBe("info");
    expect(note.message).toContain(`${MAX_PACKAGE_ERRORS} errors shown`);
  });
});
