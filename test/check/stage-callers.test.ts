/**
 * Why `yaoc ir`, `profile`, `admit` and `run` use src/check's `loadHnsPackage` and `analyzeHnsEntry`
 * rather than `check`
 * (docs/architecture.md, "The check facade"): on the same package the two say different things,
 * and those commands' output must not change. Both start from the same loader call, so a package
 * that loads and analyses cleanly gets the same package from each.
 */
import { describe, expect, it } from "vitest";
import { check } from "../../src/check/check.js";
import { analyzeHnsEntry, loadHnsPackage } from "../../src/check/hns.js";
import type { PackageFs } from "../../src/fs/package-fs.js";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { morphzProfile } from "../../src/yao/profile.js";

const MANIFEST = '(manifest (id demo) (version "1") (title "Demo") (capabilities (tools read)))\n';
const CONTRACT = '(contract (purpose "p"))\n';
/** What src/cli/yao.ts does: the load, then (when it succeeded) the entry's analysis under a profile. */
async function entryOf(fs: PackageFs, path: string) {
  const loaded = await loadHnsPackage(fs, path);
  if (!loaded.ok) return loaded;
  return { ok: true as const, package: loaded.package, analysis: analyzeHnsEntry(loaded.package, morphzProfile()) };
}

async function both(source: string) {
  const fs = MemoryFs.from({ "/p.hns": source });
  return { entry: await entryOf(fs, "/p.hns"), checked: await check(fs, "/p.hns") };
}

describe("loadHnsPackage + analyzeHnsEntry (yaoc ir, profile, admit, run) and check on one package", () => {
  it("a load failure: the loader's diagnostics alone, where check also analyses the partly loaded package", async () => {
    const { entry, checked } = await both(
      `${MANIFEST.replace(' (title "Demo")', "")}${CONTRACT}(eval (requires (tools read)) nowhere)\n`,
    );
    expect(entry.ok).toBe(false);
    const loaderCodes = entry.ok ? [] : entry.diagnostics.map((d) => d.code);
    expect(loaderCodes).toContain("hns.missing_field");
    expect(loaderCodes.filter((c) => c.startsWith("yao."))).toEqual([]);
    expect(checked.diagnostics.map((d) => d.code)).toEqual(
      expect.arrayContaining(["hns.missing_field", "yao.unknown_name"]),
    );
  });

  it("past the error cap: the analyzer's own yao.error_limit closes the list, which check replaces with hns.error_limit", async () => {
    const fns = Array.from(
      { length: 110 },
      (_, i) => `(fn f${i} (params (a A${i}) (b B${i})) (returns Int) (body 1))`,
    ).join("\n");
    const { entry, checked } = await both(`${MANIFEST}${CONTRACT}${fns}\n(eval (requires (tools read)) 1)\n`);
    expect(entry.ok).toBe(true);
    const codes = entry.ok ? entry.analysis.diagnostics.map((d) => d.code) : [];
    expect(codes.at(-1)).toBe("yao.error_limit");
    expect(codes).not.toContain("hns.error_limit");
    const checkedCodes = checked.diagnostics.map((d) => d.code);
    expect(checkedCodes.at(-1)).toBe("hns.error_limit");
    expect(checkedCodes).not.toContain("yao.error_limit");
  });

  it("a clean package: the same loaded package and program hash from both", async () => {
    const fs = MemoryFs.from({ "/p.hns": `${MANIFEST}${CONTRACT}(eval (requires (tools read)) 1)\n` });
    const entry = await entryOf(fs, "/p.hns");
    const checked = await check(fs, "/p.hns", { keepAnalysis: true });
    expect(checked.valid).toBe(true);
    expect(entry.ok).toBe(true);
    if (!entry.ok) return;
    expect(entry.analysis.diagnostics).toEqual([]);
    expect(entry.package.identity).toBe(checked.identity);
    expect(entry.analysis.programHash).toBe(checked.extra?.["program_hash"]);
  });
});
