/**
 * The HNS row of the frontend table: the structural load (src/hns) and then, unless disabled, the
 * module analysis of HNS §11 step 8 — the analyzer (src/yao), then the tool contract verification
 * (src/eval/tool-contracts.ts), which evaluates every statically known tool argument and validates
 * it against the tool's input schema when one is given. Composed here so no stage knows another and
 * no analyzer callback is handed down; reported in the common CheckResult shape.
 */
import { hasErrors, type Diagnostic } from "../diagnostics/diagnostic.js";
import { DIAGNOSTIC_LIMIT } from "../diagnostics/collector.js";
import { orderDiagnostics } from "../diagnostics/order.js";
import type { CheckResult } from "../diagnostics/result.js";
import type { PackageFs } from "../fs/package-fs.js";
import { diagnostic } from "../hns/codes.js";
import type { LoadLimits } from "../hns/context.js";
import { loadFromSource, loadPackage, type LoadResult } from "../hns/load.js";
import type { HnsPackage } from "../hns/model.js";
import { analyzeModule, type AnalysisResult } from "../yao/analyze.js";
import type { AnalysisProfile } from "../yao/profile.js";
import { analyzePackage } from "../yao/package-analysis.js";

export interface HnsCheckOptions {
  /** Run the module analysis (types, effects, program hash). Default true, as `yaoc check`. */
  readonly analyze?: boolean | undefined;
  /** Tool input schemas by tool name for the analysis (`yaoc check --tools`); others stay dynamic. */
  readonly toolSchemas?: Readonly<Record<string, unknown>> | undefined;
  /** Loader limits (file and package sizes, function count); default the loader's. */
  readonly limits?: Partial<LoadLimits> | undefined;
}

/** An HNS check: the common result, the I/O flag, and the loaded package and analysis when there are any. */
export type HnsCheck = CheckResult & {
  readonly ioError: boolean;
  /** The package as loaded, when the load succeeded. */
  readonly package?: HnsPackage;
  /** The module analysis (typed IR, diagnostics, program hash), when it ran. */
  readonly analysis?: AnalysisResult;
};

/** Errors shown per package; beyond it a closing note says how many more there were. */
export const MAX_PACKAGE_ERRORS = DIAGNOSTIC_LIMIT;

export async function checkHns(fs: PackageFs, path: string, options: HnsCheckOptions = {}): Promise<HnsCheck> {
  const loaded = await loadHnsPackage(fs, path, options.limits);
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
    ...(analyzed === undefined ? {} : { analysis: analyzed.analysis }),
  };
}

export type { LoadResult };

/**
 * The HNS structural load alone, as `checkHns` runs it: what `yaoc hash` and the HNS goldens record,
 * and what `yaoc ir`, `profile`, `admit` and `run` load before `analyzeHnsEntry`. The one place outside src/hns that calls the loader, so
 * the containment and size rules a package is read under cannot differ between commands.
 */
export function loadHnsPackage(fs: PackageFs, path: string, limits?: Partial<LoadLimits>): Promise<LoadResult> {
  return loadPackage(fs, path, limits === undefined ? {} : { limits });
}

/**
 * One HNS file whose text is already in memory (the catalog's stored object), loaded under the same
 * rules as a file on disk; synchronous, because the catalog verifies an object while it reads it.
 */
export function loadHnsText(name: string, text: string, limits?: Partial<LoadLimits>): LoadResult {
  return loadFromSource(name, text, limits === undefined ? {} : { limits });
}

/**
 * Analyse a loaded HNS package's entry under a profile the caller built from it (`yaoc ir`,
 * `profile`, `admit` and `run` build it from the manifest's tools and `--tools`, refusing bad
 * schemas as usage errors), after `loadHnsPackage`. Unlike `checkHns`, the caller reports a load
 * failure as the loader gave it (no analysis of a partial package), the tool contracts are not
 * verified and the analyzer's own closing note stays: those commands print the program, they do not
 * grade the package. The caller passes data, not an analyzer: the composition stays here.
 */
export function analyzeHnsEntry(pkg: HnsPackage, profile: AnalysisProfile): AnalysisResult {
  return analyzeModule({ entry: pkg.entry.form, functions: pkg.functions, allowInternal: true, profile });
}

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

/** At most MAX_PACKAGE_ERRORS errors, then one closing note (the analyzer's own note is replaced). */
function capErrors(ds: readonly Diagnostic[], path: string): Diagnostic[] {
  const kept: Diagnostic[] = [];
  let errors = 0;
  let dropped = 0;
  let analysisStopped = false;
  for (const d of ds) {
    if (d.code === "yao.error_limit") {
      analysisStopped = true;
      continue;
    }
    if (d.severity === "error" && ++errors > MAX_PACKAGE_ERRORS) {
      dropped++;
      continue;
    }
    kept.push(d);
  }
  if (dropped > 0 || analysisStopped) {
    const more =
      dropped > 0 ? `${dropped} more error${dropped === 1 ? "" : "s"} not shown` : "the analysis stopped early";
    kept.push(
      diagnostic(
        "hns.error_limit",
        `${path}: ${MAX_PACKAGE_ERRORS} errors shown, ${more}; fix these and check again to see the rest`,
        {
          file: path,
        },
      ),
    );
  }
  return kept;
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
