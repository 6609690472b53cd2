/**
 * `yaoc check` for HNS packages: the structural load plus (unless disabled) the module analysis of
 * HNS §11 step 8, reported in the common CheckResult shape.
 */
import { hasErrors, type Diagnostic } from "../diagnostics/diagnostic.js";
import type { CheckResult } from "../diagnostics/result.js";
import type { PackageFs } from "../fs/package-fs.js";
import { loadPackage, type LoadOptions } from "./load.js";
import type { HnsPackage } from "./model.js";

/** Module analysis (type checker, call graph, effects); supplied by src/yao. */
export type PackageAnalyzer = (pkg: HnsPackage) => readonly Diagnostic[];

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
      extra: { id: null, version: null, owner: null },
      diagnostics: loaded.diagnostics,
      sources: loaded.sources,
      ioError: loaded.ioError,
    };
  }
  const pkg = loaded.package;
  const diagnostics = [...loaded.warnings, ...(options.analyzer?.(pkg) ?? [])];
  const valid = !hasErrors(diagnostics);
  return {
    path,
    kind: "hns",
    valid,
    identity: valid ? pkg.identity : null,
    extra: { id: pkg.manifest.id, version: pkg.manifest.version, owner: pkg.entry.owner },
    diagnostics,
    sources: loaded.sources,
    ioError: false,
    package: pkg,
  };
}
