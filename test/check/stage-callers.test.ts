/**
 * `yaoc ir`, `profile`, `admit` and `run`, the HNS goldens and the catalog's re-verification of a
 * stored object reach the HNS stages only through `check` (docs/architecture.md, "The check
 * facade"). What they print must be what the stages themselves give, so these tests compare
 * `check`'s kept results with the loader and the analyzer called directly, here in the test, as
 * those callers called them before: over every HNS fixture, with and without tool schemas.
 * The CLI suites (test/yao/cli, test/eval/cli, test/hostile/exit-codes) compare the printed output.
 */
import { describe, expect, it } from "vitest";
import { check, checkSource } from "../../src/check/check.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { discoverHnsFixtures } from "../../src/cli/golden/hns.js";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { NodeFs } from "../../src/fs/node-fs.js";
import type { PackageFs } from "../../src/fs/package-fs.js";
import { loadFromSource, loadPackage } from "../../src/hns/load.js";
import { analyzeModule, type AnalysisResult } from "../../src/yao/analyze.js";
import { programJson } from "../../src/yao/ir-json.js";
import { morphzProfile, toolsFromManifest } from "../../src/yao/profile.js";
import { loadableSource } from "../../src/canonical/package-identity.js";
import { identityInputOf } from "../../src/catalog/catalog.js";
import { REPO_ROOT } from "../support/repo.js";

const MANIFEST = '(manifest (id demo) (version "1") (title "Demo") (capabilities (tools read)))\n';
const CONTRACT = '(contract (purpose "p"))\n';
const READ_SCHEMA = { type: "object", properties: { path: { type: "string" } }, required: ["path"] };

/** What src/cli/yao.ts did before it went through `check`: the load, then the entry's analysis. */
async function stagesOf(fs: PackageFs, path: string, schemas: Record<string, unknown> = {}) {
  const loaded = await loadPackage(fs, path, {});
  if (!loaded.ok) return { loaded };
  const names = loaded.package.manifest.tools.length > 0 ? loaded.package.manifest.tools : Object.keys(schemas);
  const built = toolsFromManifest(names, schemas);
  if (built.errors.length > 0) return { loaded, errors: built.errors };
  const profile = morphzProfile(built.tools);
  const analysis = analyzeModule({
    entry: loaded.package.entry.form,
    functions: loaded.package.functions,
    allowInternal: true,
    profile,
  });
  return { loaded, profile, analysis };
}

/** What the commands print from an analysis: its diagnostics, or the program and its hash. */
const printed = (a: AnalysisResult | undefined) =>
  a === undefined
    ? undefined
    : {
        diagnostics: a.diagnostics,
        program: a.program === undefined ? undefined : programJson(a.program),
        programHash: a.programHash,
      };

const fixtures = discoverHnsFixtures(REPO_ROOT);

describe("check with purpose 'program' (yaoc ir, profile, admit, run) gives what the stages give", () => {
  it("for every HNS fixture, with and without tool schemas", async () => {
    expect(fixtures.length).toBeGreaterThan(100);
    const fs = new NodeFs();
    let analysed = 0;
    let failed = 0;
    for (const f of fixtures) {
      for (const schemas of [undefined, { read: READ_SCHEMA, search: READ_SCHEMA }]) {
        const want = await stagesOf(fs, f.abs, schemas);
        const got = await check(fs, f.abs, {
          kind: "hns",
          purpose: "program",
          keepAnalysis: true,
          ...(schemas === undefined ? {} : { toolSchemas: schemas }),
        });
        expect(got.loaded, f.rel).toEqual(want.loaded);
        expect(got.profileErrors, f.rel).toEqual(want.errors);
        expect(got.profile, f.rel).toEqual(want.profile);
        expect(printed(got.analysis), f.rel).toEqual(printed(want.analysis));
        if (want.analysis !== undefined) analysed++;
        if (!want.loaded.ok) failed++;
      }
    }
    // Both branches were taken: packages that load and are analysed, and load failures.
    expect(analysed).toBeGreaterThan(20);
    expect(failed).toBeGreaterThan(20);
  });

  it("a load failure: the loader's own result and no analysis, where the default purpose also analyses the partly loaded package", async () => {
    const fs = MemoryFs.from({
      "/p.hns": `${MANIFEST.replace(' (title "Demo")', "")}${CONTRACT}(eval (requires (tools read)) nowhere)\n`,
    });
    const program = await check(fs, "/p.hns", { purpose: "program", keepAnalysis: true });
    expect(program.loaded?.ok).toBe(false);
    expect(program.analysis).toBeUndefined();
    const loaderCodes = program.loaded?.ok === false ? program.loaded.diagnostics.map((d) => d.code) : [];
    expect(loaderCodes).toContain("hns.missing_field");
    expect(loaderCodes.filter((c) => c.startsWith("yao."))).toEqual([]);
    expect(program.loaded?.ok === false && program.loaded.firstError.code).toBe("hns.missing_field");
    const graded = await check(fs, "/p.hns");
    expect(graded.diagnostics.map((d) => d.code)).toEqual(
      expect.arrayContaining(["hns.missing_field", "yao.unknown_name"]),
    );
  });

  it("past the error cap: the analyzer's own yao.error_limit stays in the analysis; the graded list closes with hns.error_limit", async () => {
    const fns = Array.from(
      { length: 110 },
      (_, i) => `(fn f${i} (params (a A${i}) (b B${i})) (returns Int) (body 1))`,
    ).join("\n");
    const fs = MemoryFs.from({ "/p.hns": `${MANIFEST}${CONTRACT}${fns}\n(eval (requires (tools read)) 1)\n` });
    const program = await check(fs, "/p.hns", { purpose: "program", keepAnalysis: true });
    const codes = program.analysis?.diagnostics.map((d) => d.code) ?? [];
    expect(codes.at(-1)).toBe("yao.error_limit");
    expect(codes).not.toContain("hns.error_limit");
    const graded = (await check(fs, "/p.hns")).diagnostics.map((d) => d.code);
    expect(graded.at(-1)).toBe("hns.error_limit");
    expect(graded).not.toContain("yao.error_limit");
  });

  it("a schema that cannot be typed is reported in profileErrors and nothing is analysed", async () => {
    const fs = MemoryFs.from({ "/p.hns": `${MANIFEST}${CONTRACT}(eval (requires (tools read)) 1)\n` });
    const r = await check(fs, "/p.hns", {
      purpose: "program",
      keepAnalysis: true,
      toolSchemas: { read: { type: "string" } },
    });
    expect(r.profileErrors).toEqual(["Tool 'read' needs an object JSON input schema with properties"]);
    expect(r.analysis).toBeUndefined();
    expect(r.loaded?.ok).toBe(true);
  });

  it("a manifest that names no tools is analysed under every tool of the schemas, as a lone program is", async () => {
    const source = `${MANIFEST.replace(" (capabilities (tools read))", "")}${CONTRACT}(eval (call read (path "x")))\n`;
    const fs = MemoryFs.from({ "/p.hns": source });
    const r = await check(fs, "/p.hns", { purpose: "program", keepAnalysis: true, toolSchemas: { read: READ_SCHEMA } });
    expect([...(r.profile?.tools.keys() ?? [])]).toEqual(["read"]);
    expect(printed(r.analysis)).toEqual(printed((await stagesOf(fs, "/p.hns", { read: READ_SCHEMA })).analysis));
  });
});

describe("the loader's own result through check (the HNS goldens, the catalog's re-verification)", () => {
  it("check as HNS without analysis keeps exactly the loader's result for every fixture", async () => {
    expect(fixtures.length).toBeGreaterThan(100);
    const fs = new NodeFs();
    for (const f of fixtures) {
      const got = await check(fs, f.abs, { kind: "hns", analyze: false, keepAnalysis: true });
      expect(got.loaded, f.rel).toEqual(await loadPackage(fs, f.abs, {}));
      expect(got.analysis, f.rel).toBeUndefined();
    }
  });

  it("a stored object's text reloads through checkSource as the in-memory loader reloads it, also when damaged", async () => {
    const fs = new NodeFs();
    const texts: string[] = [];
    for (const f of fixtures.filter((x) => x.expect.valid)) {
      const loaded = await loadPackage(fs, f.abs, {});
      if (loaded.ok) texts.push(loadableSource(identityInputOf(loaded.package)));
    }
    expect(texts.length).toBeGreaterThan(20);
    // Damaged copies: cut short, a byte changed, an unknown form appended.
    const damaged = texts
      .slice(0, 10)
      .flatMap((t) => [t.slice(0, Math.floor(t.length / 2)), t.replace("(", "["), `${t}(oops)\n`]);
    // A catalog whose package limit is below an object's size (catalog option `limits`) refuses it by size.
    for (const [limit, text] of [
      ...[...texts, ...damaged].map((t) => [1024 * 1024, t] as const),
      ...texts.slice(0, 3).map((t) => [100, t] as const),
    ]) {
      const limits = { maxSourceBytes: limit };
      const got = await checkSource("abc.hns", text, { kind: "hns", analyze: false, keepAnalysis: true, limits });
      const want = loadFromSource("abc.hns", text, { limits });
      expect(got.loaded?.ok).toBe(want.ok);
      if (got.loaded?.ok === true && want.ok) expect(got.loaded.package.identity).toBe(want.package.identity);
      // What the catalog reports of a failure ("does not load (CODE: MESSAGE)" of the first error in
      // the loader's order). The size refusal's hint differs: the file reader gives none, the
      // in-memory reader one naming the default 256 KiB whatever the limit; the catalog prints no hints.
      const said = (ds: readonly Diagnostic[]) => ds.map((d) => ({ code: d.code, message: d.message, span: d.span }));
      if (got.loaded?.ok === false && !want.ok) {
        expect(said([got.loaded.firstError])).toEqual(said([want.firstError]));
        expect(said(got.loaded.diagnostics)).toEqual(said(want.diagnostics));
        if (limit > 100) expect(got.loaded.diagnostics).toEqual(want.diagnostics);
      }
    }
  });
});
