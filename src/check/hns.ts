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
import { hasErrors, type Diagnostic } from "../diagnostics/diagnostic.js";
import { orderDiagnostics } from "../diagnostics/order.js";
import type { PackageFs } from "../fs/package-fs.js";
import { loadPackage, type LoadResult } from "../hns/load.js";
import type { HnsPackage } from "../hns/model.js";
import type { AnalysisResult } from "../yao/analyze.js";
import { analyzePackage } from "../yao/package-analysis.js";
import { capErrors, type HnsCheck, type HnsCheckOptions } from "./hns-result.js";

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
      path,
      kind: "hns",
      valid: false,
      identity: null,
      extra: { id: null, version: null, owner: null, program_hash: null },
      diagnostics: capErrors(
        orderDiagnostics([
          ...loaded.diagnostics,
          ...notAtLoaderErrors(analyzed?.diagnostics ?? [], loaded.diagnostics),
        ]),
        path,
      ),
      sources: loaded.sources,
      ioError: loaded.ioError,
      loaded,
      ...(analyzed === undefined ? {} : { analysis: analyzed.analysis }),
    };
  }
  const pkg = loaded.package;
  const analyzed = await analyze(pkg);
  const analysisDiagnostics = analyzed?.diagnostics ?? [];
  const diagnostics = capErrors(orderDiagnostics([...loaded.warnings, ...analysisDiagnostics]), path);
  const valid = !hasErrors(diagnostics);
  return {
    path,
    kind: "hns",
    valid,
    identity: valid ? pkg.identity : null,
    // program_hash: the entry's typed-IR identity (yao-v0.1.md §9.10), when the analysis ran and passed.
    extra: {
      id: pkg.manifest.id,
      version: pkg.manifest.version,
      owner: pkg.entry.owner,
      program_hash: (valid && analyzed?.analysis.programHash) || null,
    },
    diagnostics,
    ...(analyzed?.report !== undefined ? { report: analyzed.report } : {}),
    sources: loaded.sources,
    ioError: false,
    package: pkg,
    loaded,
    ...(analyzed === undefined ? {} : { analysis: analyzed.analysis }),
  };
}

export type { LoadResult };

/** What the module analysis gives the check: the analyzer's result, every diagnostic, the contract report. */
interface PackageAnalysis {
  readonly analysis: AnalysisResult;
  /** The analyzer's diagnostics, then the tool contract verification's. */
  readonly diagnostics: readonly Diagnostic[];
  /** Fields for `check --format json` only (the tool contract report); never in receipts. */
  readonly report?: Readonly<Record<string, unknown>>;
}

/** The analyzer, then (when it produced a program) the tool contract verification over it. */
async function analyzeWithContracts(
  pkg: HnsPackage,
  toolSchemas: Readonly<Record<string, unknown>>,
): Promise<PackageAnalysis> {
  const analysis = analyzePackage(pkg, { toolSchemas });
  if (analysis.program === undefined || analysis.functions === undefined)
    return { analysis, diagnostics: analysis.diagnostics };
  // Imported on first use like the validator behind it: the walk is evaluation code, and keeping
  // it out of the browser entry holds the initial load within its budget (test/browser/bundle-size).
  const { verifyToolContracts } = await import("../eval/tool-contracts.js");
  const contracts = await verifyToolContracts(analysis.program, analysis.functions, toolSchemas, pkg.manifest.tools);
  return {
    analysis,
    diagnostics: [...analysis.diagnostics, ...contracts.diagnostics],
    report: { ...contracts.report },
  };
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
    : { ...pkg, manifest: { ...pkg.manifest, tools: [...pkg.manifest.tools, ...missing] } };
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
