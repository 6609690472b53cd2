/**
 * The HNS row of the frontend table: the structural load (src/hns) and then, unless disabled, the
 * module analysis of HNS §11 step 8 — the analyzer (src/yao), then the tool contract verification
 * (src/eval/tool-contracts.ts), which evaluates every statically known tool argument and validates
 * it against the tool's input schema when one is given. Composed here so no stage knows another and
 * no analyzer callback is handed down; reported in the common CheckResult shape. Imported by nothing
 * outside src/check (test/architecture/imports.test.ts): `yaoc ir`, `profile`, `admit` and `run`
 * ask `check` for purpose "program", and the HNS goldens and the catalog's re-verification read the
 * loader's own result (`loaded`) that `check` keeps with `keepAnalysis`.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { PackageFs } from "../fs/package-fs.js";
import { loadPackage, type LoadResult } from "../hns/load.js";
import type { HnsPackage } from "../hns/model.js";
import { withManifest } from "../hns/normalize.js";
import { analyzePackage } from "../yao/package-analysis.js";
import {
  loadedCheck,
  unloadedCheck,
  withToolContracts,
  type HnsCheck,
  type HnsCheckOptions,
  type PackageAnalysis,
} from "./hns-result.js";

export { MAX_PACKAGE_ERRORS, type HnsCheck, type HnsCheckOptions } from "./hns-result.js";

export async function checkHns(fs: PackageFs, path: string, options: HnsCheckOptions = {}): Promise<HnsCheck> {
  const loaded = await loadPackage(fs, path, options.limits === undefined ? {} : { limits: options.limits });
  // Imported on first use: only yaoc ir/profile/admit/run ask for it, so the browser entry and
  // `yaoc check` do not carry it (test/browser/bundle-size).
  if (options.purpose === "program")
    return await (await import("./hns-program.js")).checkProgram(path, loaded, options);
  const analyze = async (pkg: HnsPackage): Promise<PackageAnalysis | undefined> =>
    options.analyze === false ? undefined : analyzeWithContracts(pkg, options.toolSchemas ?? {});
  if (!loaded.ok) {
    // The module analysis still runs on a partially loaded package, so a manifest mistake does not
    // hide a type error in a function. Both stages' findings are shown in position order.
    const analyzed = loaded.partial === undefined ? undefined : await analyze(withDeclaredTools(loaded.partial));
    return {
      ...unloadedCheck(path, loaded, [
        ...loaded.diagnostics,
        ...notAtLoaderErrors(analyzed?.diagnostics ?? [], loaded.diagnostics),
      ]),
      ...(analyzed === undefined ? {} : { analysis: analyzed.analysis }),
    };
  }
  const analyzed = await analyze(loaded.package);
  return {
    ...loadedCheck(path, loaded, analyzed?.diagnostics ?? [], analyzed?.analysis.programHash),
    ...(analyzed?.report !== undefined ? { report: analyzed.report } : {}),
    ...(analyzed === undefined ? {} : { analysis: analyzed.analysis }),
  };
}

export type { LoadResult };

/** The analyzer, then (when it produced a program) the tool contract verification over it. */
function analyzeWithContracts(
  pkg: HnsPackage,
  toolSchemas: Readonly<Record<string, unknown>>,
): Promise<PackageAnalysis> {
  return withToolContracts(analyzePackage(pkg, { toolSchemas }), toolSchemas, pkg.manifest.tools);
}

/**
 * A tool the entry declares but the manifest does not grant was reported by the loader; the
 * analysis treats it as granted so its calls are not reported a second time as unknown tools.
 */
function withDeclaredTools(pkg: HnsPackage): HnsPackage {
  const declared = pkg.entry.declaredTools ?? [];
  const missing = declared.filter((t) => !pkg.manifest.tools.includes(t));
  return missing.length === 0
    ? pkg
    : withManifest(pkg, { ...pkg.manifest, tools: [...pkg.manifest.tools, ...missing] });
}

/**
 * An analysis error at the very place a loader error points to has the same root cause (a misplaced
 * (requires …) is both "missing" to the loader and an extra body to the analyzer): report it once.
 */
function notAtLoaderErrors(analysis: readonly Diagnostic[], loader: readonly Diagnostic[]): Diagnostic[] {
  const places = new Set(
    loader
      .filter((d) => d.severity === "error" && d.span !== undefined)
      .map((d) => `${d.file}\u0000${d.span!.start.byte}`),
  );
  return analysis.filter((d) => d.span === undefined || !places.has(`${d.file}\u0000${d.span.start.byte}`));
}
