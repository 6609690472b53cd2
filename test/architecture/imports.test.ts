/**
 * The import rules of docs/architecture.md ("Layering"), checked over the real source tree. Each rule
 * is a predicate over one resolved import edge; the rule checker itself is exercised on made-up edges
 * first so a rule that could never fire is caught too.
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/repo.js";
import { importsOf, posix, sourceFiles, type Edge } from "./graph.js";

const under = (path: string, dir: string): boolean => path === dir || path.startsWith(`${dir}/`);
const isNodeAdapter = (file: string): boolean =>
  under(file, "src/cli") ||
  /(^|\/)node-[a-z-]+\.ts$/.test(file) ||
  file === "src/node.ts" ||
  under(file, "src/harp/host");

interface Rule {
  readonly name: string;
  /** True when the edge breaks the rule. */
  readonly breaks: (e: Edge) => boolean;
}

export const RULES: readonly Rule[] = [
  {
    name: "src/diagnostics imports nothing else from src/ but the one code-point order (src/text; the registry of code tables lives in src/codes)",
    breaks: (e) =>
      under(e.from, "src/diagnostics") &&
      under(e.to, "src") &&
      !under(e.to, "src/diagnostics") &&
      !under(e.to, "src/text"),
  },
  { name: "ir/ imports nothing from src/", breaks: (e) => under(e.from, "ir") && under(e.to, "src") },
  { name: "grammar/ imports nothing from src/", breaks: (e) => under(e.from, "grammar") && under(e.to, "src") },
  {
    name: "nothing outside src/cli imports src/cli",
    breaks: (e) => !under(e.from, "src/cli") && under(e.to, "src/cli"),
  },
  {
    name: "src/canonical imports no frontend (identity is computed below the loader)",
    breaks: (e) =>
      under(e.from, "src/canonical") &&
      under(e.to, "src") &&
      !/^src\/(canonical|syntax|diagnostics|text|json)\//.test(e.to),
  },
  {
    name: "no node: import in the core (only src/cli, src/node.ts, node-*.ts adapters and the HARP host)",
    breaks: (e) => e.to.startsWith("node:") && !isNodeAdapter(e.from),
  },
  {
    name: "src/fs, src/json and src/text are leaves: they import nothing from src/ outside themselves but the one code-point order (src/text)",
    breaks: (e) => {
      const leaf = ["src/fs", "src/json", "src/text"].find((d) => under(e.from, d));
      return leaf !== undefined && under(e.to, "src") && !under(e.to, leaf) && !under(e.to, "src/text");
    },
  },
  {
    name: "src/syntax (the reader) imports only the leaves and src/diagnostics",
    breaks: (e) =>
      under(e.from, "src/syntax") && under(e.to, "src") && !/^src\/(syntax|diagnostics|text|json)\//.test(e.to),
  },
  {
    name: "src/hns (the loader) imports no later stage: not yao, check, lsp, fmt, the other frontends or the catalog",
    breaks: (e) =>
      under(e.from, "src/hns") && /^src\/(yao|check|lsp|fmt|harp|a3s|hcp|catalog|evidence|output|codes)\//.test(e.to),
  },
  {
    name: "src/syntax/header.ts (the Yao header recognisers the loader and analyzer share) imports only the syntax tree",
    breaks: (e) => e.from === "src/syntax/header.ts" && e.to.startsWith("src/") && e.to !== "src/syntax/tree.ts",
  },
  {
    name: "src/yao (the analyzer) imports no later stage: not check, lsp, fmt, the other frontends or the catalog",
    breaks: (e) =>
      under(e.from, "src/yao") && /^src\/(check|lsp|fmt|harp|a3s|hcp|catalog|evidence|output|codes)\//.test(e.to),
  },
  {
    name: "the sibling frontends (harp, a3s, hcp) do not import each other",
    breaks: (e) => {
      const own = ["src/harp", "src/a3s", "src/hcp"].find((d) => under(e.from, d));
      return own !== undefined && ["src/harp", "src/a3s", "src/hcp"].some((d) => d !== own && under(e.to, d));
    },
  },
  {
    name: "a frontend's check (harp/check, hcp/check, the frontends' index modules) is reached from outside its folder only through src/check",
    breaks: (e) => {
      const entry = /^src\/(harp|hcp)\/(check|index)\.ts$|^src\/a3s\/index\.ts$/.exec(e.to);
      return entry !== null && !under(e.from, "src/check") && !under(e.from, `src/${entry[1] ?? "a3s"}`);
    },
  },
  {
    name: "the HNS loader (src/hns/load.ts, or the yaoc/hns library module src/hns/index.ts) is reached from outside src/hns and src/yao only through src/check (and the library's re-export in src/api.ts)",
    breaks: (e) =>
      (e.to === "src/hns/load.ts" || e.to === "src/hns/index.ts") &&
      !/^src\/(check|hns|yao)\//.test(e.from) &&
      e.from !== "src/api.ts" &&
      e.from.startsWith("src/"),
  },
  {
    name: "src/cli reaches the language server only through its Node adapter (what fmt shares with it lives in src/fs)",
    breaks: (e) => under(e.from, "src/cli") && under(e.to, "src/lsp") && e.to !== "src/lsp/node-server.ts",
  },
  {
    name: "the HNS row of the frontend table (src/check/hns.ts) is imported by no file outside src/check: every caller, yaoc ir/profile/admit/run, the HNS goldens and the catalog included, goes through check()",
    breaks: (e) => e.to === "src/check/hns.ts" && e.from.startsWith("src/") && !under(e.from, "src/check"),
  },
  {
    name: "nothing in src/ imports the library's entry modules (src/api.ts re-exports the loader and the analyzer for embedders; src/index.ts and src/browser.ts are its only importers)",
    breaks: (e) =>
      ["src/api.ts", "src/index.ts", "src/browser.ts", "src/node.ts"].includes(e.to) &&
      e.from.startsWith("src/") &&
      !(e.to === "src/api.ts" && ["src/index.ts", "src/browser.ts"].includes(e.from)),
  },
];

function offenders(edges: readonly Edge[]): string[] {
  return RULES.flatMap((rule) => edges.filter(rule.breaks).map((e) => `${rule.name}: ${e.from} -> ${e.to}`));
}

describe("import rules", () => {
  it("each rule fires on an edge that breaks it and not on its allowed neighbour", () => {
    const broken: Edge[] = [
      { from: "src/diagnostics/render.ts", to: "src/hns/codes.ts" },
      { from: "ir/yao-ir-0.1.ts", to: "src/diagnostics/diagnostic.ts" },
      { from: "grammar/acl.ts", to: "src/a3s/acl/ast.ts" },
      { from: "src/codes/reasons.ts", to: "src/cli/codes.ts" },
      { from: "src/canonical/package-identity.ts", to: "src/hns/model.ts" },
      { from: "src/hcp/check.ts", to: "node:fs" },
      { from: "src/fs/snapshot.ts", to: "src/diagnostics/diagnostic.ts" },
      { from: "src/syntax/reader.ts", to: "src/hns/model.ts" },
      { from: "src/hns/load.ts", to: "src/yao/analyze.ts" },
      { from: "src/syntax/header.ts", to: "src/syntax/scanner.ts" },
      { from: "src/yao/analyze.ts", to: "src/check/check.ts" },
      { from: "src/harp/check.ts", to: "src/hcp/json-reader.ts" },
      { from: "src/cli/harp.ts", to: "src/harp/check.ts" },
      { from: "src/cli/yao.ts", to: "src/hns/load.ts" },
      { from: "src/cli/fmt-command.ts", to: "src/lsp/overlay-fs.ts" },
      { from: "src/cli/yao.ts", to: "src/check/hns.ts" },
      { from: "src/cli/yao.ts", to: "src/api.ts" },
    ];
    for (const [i, e] of broken.entries()) expect(RULES[i]!.breaks(e), RULES[i]!.name).toBe(true);
    const fine: Edge[] = [
      { from: "src/diagnostics/render.ts", to: "src/diagnostics/diagnostic.ts" },
      { from: "ir/yao-ir-0.1.ts", to: "ir/span.ts" },
      { from: "grammar/acl.ts", to: "chevrotain" },
      { from: "src/cli/main.ts", to: "src/cli/io.ts" },
      { from: "src/canonical/package-identity.ts", to: "src/canonical/hash.ts" },
      { from: "src/fs/node-fs.ts", to: "node:fs" },
      { from: "src/fs/node-fs.ts", to: "src/fs/file-kind.ts" },
      { from: "src/syntax/reader.ts", to: "src/diagnostics/diagnostic.ts" },
      { from: "src/hns/model.ts", to: "src/canonical/package-identity.ts" },
      { from: "src/yao/program.ts", to: "src/hns/model.ts" },
      { from: "src/hns/model.ts", to: "src/syntax/header.ts" },
      { from: "src/syntax/header.ts", to: "src/syntax/tree.ts" },
      { from: "src/harp/check.ts", to: "src/harp/json.ts" },
      { from: "src/json/parse.ts", to: "src/json/pointer.ts" },
      { from: "src/fs/memory-fs.ts", to: "src/text/code-point-order.ts" },
      { from: "src/diagnostics/order.ts", to: "src/text/code-point-order.ts" },
      { from: "src/check/frontends.ts", to: "src/a3s/index.ts" },
      { from: "src/harp/host/host.ts", to: "src/harp/check.ts" },
      { from: "src/check/hns.ts", to: "src/hns/load.ts" },
      { from: "src/cli/main.ts", to: "src/lsp/node-server.ts" },
      { from: "src/check/frontends.ts", to: "src/check/hns.ts" },
      { from: "src/index.ts", to: "src/api.ts" },
    ];
    for (const e of fine) expect(offenders([e]), `${e.from} -> ${e.to}`).toEqual([]);
  });

  it("reads static, dynamic and re-export imports", () => {
    const text =
      'import a from "./a.js";\nexport { b } from "../b.js";\nconst c = await import("node:fs");\nimport "./side.js";';
    expect(importsOf("src/x/y.ts", text).map((e) => e.to)).toEqual([
      "src/x/a.ts",
      "src/b.ts",
      "node:fs",
      "src/x/side.ts",
    ]);
  });

  it("hold for every file under src/, ir/ and grammar/", () => {
    const files = ["src", "ir", "grammar"].flatMap((d) => sourceFiles(join(REPO_ROOT, d)));
    expect(files.length).toBeGreaterThan(100);
    const edges = files.flatMap((f) => importsOf(relative(REPO_ROOT, f), readFileSync(f, "utf8")));
    expect(offenders(edges)).toEqual([]);
  });

  it("name the Yao package analyzer (analyzeModule, analyzePackage) only in src/check, src/yao and the library's src/api.ts, nor in the bench or scripts", () => {
    // The import graph has no names, and src/yao/index.ts is imported for much else: read the names.
    // The bench and the fuzz targets once passed an analyzer down too; they check through check.
    const files = ["src", "bench", "scripts"]
      .flatMap((d) => sourceFiles(join(REPO_ROOT, d)))
      .map((f) => posix(relative(REPO_ROOT, f)));
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.startsWith("bench/")) && files.some((f) => f.startsWith("scripts/"))).toBe(true);
    const allowed = (f: string): boolean => /^src\/(check|yao)\//.test(f) || f === "src/api.ts";
    const offending = files.filter((f) => !allowed(f) && ANALYZER_NAMES.test(readFileSync(join(REPO_ROOT, f), "utf8")));
    expect(offending).toEqual([]);
    // The check itself can fire: the call the commands used to make is caught.
    expect(ANALYZER_NAMES.test("result = analyzeModule({ entry })")).toBe(true);
    expect(ANALYZER_NAMES.test("result = analyzeProgram(form)")).toBe(false);
  });
});

describe("the bench and the scripts", () => {
  it("reach the HNS loader, the HNS row and the frontends' checks only through src/check's check()", () => {
    const files = ["bench", "scripts"].flatMap((d) => sourceFiles(join(REPO_ROOT, d)));
    expect(files.length).toBeGreaterThan(20);
    const edges = files.flatMap((f) => importsOf(relative(REPO_ROOT, f), readFileSync(f, "utf8")));
    expect(edges.filter((e) => e.to.startsWith("src/")).length).toBeGreaterThan(20);
    const entries = /^src\/(hns\/(load|index)\.ts|check\/hns\.ts|(harp|hcp)\/(check|index)\.ts|a3s\/index\.ts)$/;
    expect(
      ["src/hns/load.ts", "src/check/hns.ts", "src/harp/check.ts", "src/a3s/index.ts"].every((t) => entries.test(t)),
    ).toBe(true);
    expect(entries.test("src/check/check.ts")).toBe(false);
    expect(edges.filter((e) => entries.test(e.to)).map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });
});

/** A use of the package analyzer's entry points by name. */
const ANALYZER_NAMES = /\banalyze(Module|Package)\b/;
