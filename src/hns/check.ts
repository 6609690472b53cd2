/**
 * `yaoc check` for HNS packages: the structural load plus (unless disabled) the module analysis of
 * HNS §11 step 8, reported in the common CheckResult shape.
 */
import { hasErrors, type Diagnostic } from "../diagnostics/diagnostic.js";
import type { CheckResult } from "../diagnostics/result.js";
import type { PackageFs } from "../fs/package-fs.js";
import { loadPackage, type LoadOptions } from "./load.js";
import type { HnsPackage } from "./model.js";

/** What the module analysis reports: its diagnostics and, when the entry is admitted, its program hash. */
export interface PackageAnalysis {
  readonly diagnostics: readonly Diagnostic[];
  readonly programHash?: string | undefined;
}

/** Module analysis (type checker, call graph, effects); supplied by src/yao. */
export type PackageAnalyzer = (pkg: HnsPackage) => PackageAnalysis;

export interface HnsCheckOptions extends LoadOptions {
  readonly analyzer?: PackageAnalyzer | undefined;
}

export async function checkHns(fs: PackageFs, path: string, options: HnsCheckOptions = {}): Promise<CheckResult & { ioError: boolean; package?: HnsPackage }> {
  const loaded = await loadPackage(fs, path, options);
  if (!loaded.ok) {
    return {
      path,
      kind: "hns",
      valid: false,
      identity: null,
      extra: { id: null, version: null, owner: null, program_hash: null },
      diagnostics: loaded.diagnostics,
      sources: loaded.sources,
      ioError: loaded.ioError,
    };
  }
  const pkg = loaded.package;
  const analysis = options.analyzer?.(pkg);
  const diagnostics = [...loaded.warnings, ...(analysis?.diagnostics ?? [])];
  const valid = !hasErrors(diagnostics);
  return {
    path,
    kind: "hns",
    valid,
    identity: valid ? pkg.identity : null,
    // program_hash: the entry's typed-IR identity (yao-v0.1.md §9.10), when the analysis ran and passed.
    extra: { id: pkg.manifest.id, version: pkg.manifest.version, owner: pkg.entry.owner, program_hash: (valid && analysis?.programHash) || null },
    diagnostics,
    sources: loaded.sources,
    ioError: false,
    package: pkg,
  };
}
