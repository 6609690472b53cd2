/**
 * The Yao headers are read in one place (src/syntax/header.ts): the recognisers' records and failure
 * kinds, the two wordings of each kind (loader `hns.*`, analyzer Yao kinds), each layer's own order
 * over `(requires …)` clauses, and the analyzer reusing the loader's records and canonical texts.
 */
import { describe, expect, it } from "vitest";
import { analyzePackage, analyzeSources, loadFromSource, readOne } from "../../src/index.js";
import type { HnsPackage } from "../../src/hns/model.js";
import { recogniseEntryHeader, recogniseFnHeader, withoutBodyClauses } from "../../src/syntax/header.js";
import { canonicalSource } from "../../src/canonical/typed.js";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { check } from "../../src/check/check.js";

function form(text: string) {
  const r = readOne(text, { file: "t.yao" });
  if (!r.ok) throw new Error(r.diagnostic.message);
  return r.form;
}

const MANIFEST =
  '(manifest (id acme.t) (version "1.0.0") (title "T") (capabilities (tools read search)))\n(contract)\n';

function load(entry: string, fns = "") {
  return loadFromSource("t.hns", `${MANIFEST}${fns}\n${entry}`);
}

function loadOk(entry: string, fns = ""): HnsPackage {
  const r = load(entry, fns);
  if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join("; "));
  return r.package;
}

/** The first loader diagnostic, or (when the loader accepts) the first analyzer diagnostic. */
function firstError(entry: string, fns = ""): { layer: "loader" | "analyzer"; code: string; message: string } {
  const r = load(entry, fns);
  if (!r.ok) return { layer: "loader", code: r.diagnostics[0]!.code, message: r.diagnostics[0]!.message };
  const a = analyzePackage(r.package);
  const d = a.diagnostics[0];
  if (d === undefined) throw new Error("no error");
  return { layer: "analyzer", code: d.code, message: d.message };
}

describe("recogniseEntryHeader", () => {
  it("returns the owner, the requires record, the types module and the body", () => {
    const r = recogniseEntryHeader(form("(infer (requires (tools b a) (effects)) (types (record R)) x y)"));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.header.owner).toBe("model");
    expect(r.header.requires?.tools?.map((t) => t.name)).toEqual(["b", "a"]);
    expect(r.header.requires?.objects).toBeUndefined();
    expect(r.header.requires?.clauses.map((c) => c.name)).toEqual(["tools", "effects"]);
    expect(r.header.types?.items.length).toBe(2);
    expect(r.header.body.map((n) => (n.kind === "symbol" ? n.name : n.kind))).toEqual(["x", "y"]);
  });

  it("reads (types …) directly after the owner, and (requires …) only as the first item", () => {
    const r = recogniseEntryHeader(form("(eval (types (record R)) (requires (tools a)) x)"));
    expect(r.ok && r.header.types !== undefined && r.header.requires === undefined).toBe(true);
    if (r.ok) expect(r.header.body.length).toBe(2);
  });

  it.each([
    ["x", "not_list"],
    ["()", "no_owner"],
    ['("eval" x)', "no_owner"],
    ["(evil x)", "unknown_owner"],
    ['(eval (version "1") x)', "in_band_version"],
  ])("%s fails as %s", (text, kind) => {
    const r = recogniseEntryHeader(form(text));
    expect(r.ok ? "ok" : r.failure.kind).toBe(kind);
  });

  it("records each (requires …) clause's own problem without stopping", () => {
    const r = recogniseEntryHeader(form('(eval (requires x ("1") (tools a a) (objects k "2") (tools b) (mystery)) 1)'));
    if (!r.ok) throw new Error("expected a header");
    expect(r.header.requires!.clauses.map((c) => c.problem?.kind)).toEqual([
      "not_list",
      "unnamed",
      "item_repeated",
      "item_not_symbol",
      "repeated",
      undefined,
    ]);
    // A clause with a problem contributes no names.
    expect(r.header.requires!.tools).toBeUndefined();
  });
});

describe("recogniseFnHeader", () => {
  it("returns the name and every clause in source order", () => {
    const r = recogniseFnHeader(form("(fn f (params) 7 (returns String) (body x))"));
    if (!r.ok) throw new Error("expected a header");
    expect(r.header.name).toBe("f");
    expect(r.header.clauses.map((c) => c.name ?? "?")).toEqual(["params", "?", "returns", "body"]);
  });

  it.each([
    ["f", "not_list"],
    ["(fun f)", "not_fn"],
    ["()", "not_fn"],
    ["(fn)", "missing_name"],
    ['(fn "f")', "name_not_symbol"],
  ])("%s fails as %s", (text, kind) => {
    const r = recogniseFnHeader(form(text));
    expect(r.ok ? "ok" : r.failure.kind).toBe(kind);
  });

  it("builds the header and its clauses with `new`, one class each, never as object literals", () => {
    // A literal's allocation site can be moved to the old generation by V8, and old headers then
    // kept every young tree they point at through minor collections (issue 29, figure n).
    const one = recogniseFnHeader(form("(fn f (params) 7 (body x))"));
    const two = recogniseFnHeader(form("(fn g (returns Int) (body 1))"));
    if (!one.ok || !two.ok) throw new Error("expected headers");
    const clauses = [...one.header.clauses, ...two.header.clauses];
    expect(clauses).toHaveLength(5);
    for (const x of [one.header, two.header, ...clauses]) expect(Object.getPrototypeOf(x)).not.toBe(Object.prototype);
    expect(Object.getPrototypeOf(one.header)).toBe(Object.getPrototypeOf(two.header));
    expect(new Set(clauses.map((c) => Object.getPrototypeOf(c))).size).toBe(1);
    expect(Object.keys(one.header.clauses[1]!)).toEqual(["node", "name", "nameNode", "args"]);
  });

  it("withoutBodyClauses keeps every other clause in order", () => {
    const f = form("(fn f (body 1) (params) (body 2) (returns Int))");
    if (f.kind !== "list") throw new Error("list expected");
    expect(canonicalSource(withoutBodyClauses(f))).toBe("(fn f (params) (returns Int))");
  });
});

describe("one failure kind, two wordings", () => {
  it("an unknown owner: hns.entry_root from the loader, unknown_operator from the analyzer", async () => {
    // A single file finds its entry by its head, so an unknown owner reaches the loader's header
    // check only in a directory package, where it is worded against the entry file.
    const files = {
      "/d.hns/manifest.yao": '(manifest (id d) (version "1") (title "D") (entry "main.yao"))',
      "/d.hns/contract.yao": "(contract)",
      "/d.hns/main.yao": "(evil 1)",
    };
    const r = await check(MemoryFs.from(files), "/d.hns", { analyze: false });
    expect(r.diagnostics[0]).toMatchObject({
      code: "hns.entry_root",
      message: "/d.hns/main.yao must have an (eval ...) or (infer ...) root; found (evil ...)",
      hint: "did you mean 'eval'?",
    });
    const a = analyzeSources({ source: "(evil 1)" });
    expect(a.diagnostics[0]?.code).toBe("yao.unknown_operator");
    expect(a.diagnostics[0]?.message).toBe("unknown program root 'evil'; expected eval or infer");
  });

  it("an in-band version: hns.in_band_version from the loader, invalid_type from the analyzer", () => {
    const r = load('(eval (version "1") 1)');
    expect(r.ok ? "" : r.diagnostics[0]!.code).toBe("hns.in_band_version");
    expect(analyzeSources({ source: '(eval (version "1") 1)' }).diagnostics[0]?.code).toBe("yao.invalid_type");
  });

  it("a tool named twice: hns.bad_requires from the loader, duplicate_name from the analyzer", () => {
    expect(firstError("(eval (requires (tools read read)) 1)")).toMatchObject({
      layer: "loader",
      code: "hns.bad_requires",
      message: "(requires (tools ...)) declares tool 'read' more than once",
    });
    expect(analyzeSources({ source: "(eval (requires (tools read read)) 1)" }).diagnostics[0]).toMatchObject({
      code: "yao.duplicate_name",
      message: "duplicate tool 'read'",
    });
  });

  it("a function without a name: hns.malformed_fn from the loader, unknown_name from the analyzer", () => {
    expect(firstError("(eval 1)", "(fn)")).toMatchObject({ layer: "loader", code: "hns.malformed_fn" });
    const a = analyzeSources({ source: "(eval 1)", functionSources: [{ source: "(fn)" }] });
    expect(a.diagnostics[0]).toMatchObject({ code: "yao.unknown_name", message: "fn declaration is missing its name" });
  });
});

describe("each layer's order over (requires …) clauses", () => {
  it("the loader judges only (tools …), so an unknown clause before it reaches the analyzer", () => {
    expect(firstError("(eval (requires (mystery) (tools read)) 1)")).toMatchObject({
      layer: "analyzer",
      code: "yao.unknown_name",
      message: "unknown requires clause 'mystery'",
    });
  });

  it("a bad tools clause after an unknown one is the loader's error (the loader runs first)", () => {
    expect(firstError('(eval (requires (mystery) (tools "1")) 1)')).toMatchObject({
      layer: "loader",
      message: "(tools ...) may contain only tool names",
    });
  });

  it("the analyzer reports the first bad clause in source order", () => {
    const src = '(eval (requires (objects k k) (effects (nope)) (tools "1")) 1)';
    expect(analyzeSources({ source: src }).diagnostics[0]?.message).toBe("duplicate object kind 'k'");
  });

  it("every clause must be a list, for both layers", () => {
    expect(firstError("(eval (requires x) 1)")).toMatchObject({ layer: "loader", code: "hns.bad_requires" });
    expect(analyzeSources({ source: "(eval (requires x) 1)" }).diagnostics[0]?.code).toBe("yao.type_mismatch");
  });
});

describe("the analyzer takes the loader's records and canonical texts", () => {
  it("the program's canonical_source is the loader's text for the entry, not a second printing", () => {
    const pkg = loadOk("(eval (requires (tools read)) 1)");
    const marked: HnsPackage = { ...pkg, entry: { ...pkg.entry, source: "(eval marker)" } };
    expect(analyzePackage(pkg).program?.canonical_source).toBe(pkg.entry.source);
    expect(analyzePackage(marked).program?.canonical_source).toBe("(eval marker)");
  });

  it("the requirements come from the loader's header record", () => {
    const pkg = loadOk("(eval (requires (tools read)) 1)");
    const other = loadOk("(eval (requires (tools read search)) 1)");
    const swapped: HnsPackage = { ...pkg, entry: { ...pkg.entry, header: other.entry.header } };
    expect(analyzePackage(pkg).program?.requirements.tools).toEqual(["read"]);
    expect(analyzePackage(swapped).program?.requirements.tools).toEqual(["read", "search"]);
  });

  it("functions are analysed from the loader's recognised headers", () => {
    const fns = "(fn f (params) (returns Int) (body 1))";
    const pkg = loadOk("(eval (requires (tools)) (f))", fns);
    const renamed = loadOk("(eval (requires (tools)) (g))", "(fn g (params) (returns Int) (body 1))");
    expect(analyzePackage(pkg).diagnostics).toEqual([]);
    // The function's form still says f, but its header record says g: the analyzer follows the record.
    const mixed: HnsPackage = {
      ...renamed,
      functions: [{ ...pkg.functions[0]!, header: renamed.functions[0]!.header }],
    };
    expect(analyzePackage(mixed).diagnostics).toEqual([]);
    expect([...(analyzePackage(mixed).functions?.keys() ?? [])]).toEqual(["g"]);
  });

  it("the entry's (types …) text is printed once by the loader and kept in the package", () => {
    const pkg = loadOk("(eval (requires (tools)) (types (record R (a String))) 1)");
    expect(pkg.entry.typeSource).toBe("(types (record R (a String)))");
    expect(pkg.entry.header.types).toBeDefined();
  });
});
