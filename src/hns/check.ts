/**
 * `yaoc check` for HNS packages: the structural load plus (unless disabled) the module analysis of
 * HNS §11 step 8, reported in the common CheckResult shape.
 */
import { diagnostic, hasErrors, type Diagnostic } from "../diagnostics/diagnostic.js";
import { orderDiagnostics } from "../diagnostics/order.js";
import type { CheckResult } from "../diagnostics/result.js";
import type { PackageFs } from "../fs/package-fs.js";
import { loadPackage, type LoadOptions } from "./load.js";
import type { HnsPackage } from "./model.js";

/** What the module analysis reports: its diagnostics and, when the entry is admitted, its program hash. */
export interface PackageAnalysis {
  readonly diagnostics: readonly Diagnostic[];
  readonly programHash?: string | undefined;
  /** Fields for `check --format json` only (the tool contract report); never in receipts. */
  readonly report?: Readonly<Record<string, unknown>> | undefined;
}

/** Module analysis (type checker, call graph, effects); supplied by src/yao. */
export type PackageAnalyzer = (pkg: HnsPackage) => PackageAnalysis;

export interface HnsCheckOptions extends LoadOptions {
  readonly analyzer?: PackageAnalyzer | undefined;
}

/** Errors shown per package; beyond it a closing note says how many more there were. */
export const MAX_PACKAGE_ERRORS = 200;

export async function checkHns(
  fs: PackageFs,
  path: string,
  options: HnsCheckOptions = {},
): Promise<CheckResult & { ioError: boolean; package?: HnsPackage }> {
  const loaded = await loadPackage(fs, path, options);
  if (!loaded.ok) {
    // The module analysis still runs on a partially loaded package, so a manifest mistake does not
    // hide a type error in a function. The loader's first error stays first.
    const analysis = loaded.partial === undefined ? undefined : options.analyzer?.(withDeclaredTools(loaded.partial));
    const firstError = loaded.diagnostics.find((d) => d.severity === "error");
    return {
      path,
      kind: "hns",
      valid: false,
      identity: null,
      extra: { id: null, version: null, owner: null, program_hash: null },
      diagnostics: capErrors(
        orderDiagnostics(
          [...loaded.diagnostics, ...notAtLoaderErrors(analysis?.diagnostics ?? [], loaded.diagnostics)],
          firstError,
        ),
        path,
      ),
      sources: loaded.sources,
      ioError: loaded.ioError,
    };
  }
  const pkg = loaded.package;
  const analysis = options.analyzer?.(pkg);
  const analysisDiagnostics = analysis?.diagnostics ?? [];
  const diagnostics = capErrors(
    orderDiagnostics(
      [...loaded.warnings, ...analysisDiagnostics],
      analysisDiagnostics.find((d) => d.severity === "error"),
    ),
    path,
  );
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
      program_hash: (valid && analysis?.programHash) || null,
    },
    diagnostics,
    ...(analysis?.report !== undefined ? { report: analysis.report } : {}),
    sources: loaded.sources,
    ioError: false,
    package: pkg,
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
          severity: "info",
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
