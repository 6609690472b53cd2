/**
 * Checking one package path for `yaoc check`: shared by the in-process loop (check-command.ts) and
 * the worker threads of `--jobs N` (check-worker.ts), so both run exactly the same call.
 */
import type { CheckResult } from "../diagnostics/result.js";
import type { PackageFs } from "../fs/package-fs.js";
import type { PackageAnalyzer } from "../hns/check.js";
import { analyzePackage } from "../yao/package-analysis.js";
import { check } from "../check/check.js";
import { hnsAnalyzer } from "../check/analyzer.js";

export interface CheckOneOptions {
  readonly analyze: boolean;
  readonly analyzer?: PackageAnalyzer;
}

export async function checkOnePath(
  fs: PackageFs,
  path: string,
  options: CheckOneOptions,
): Promise<{ result: CheckResult; ioError: boolean }> {
  const { ioError, ...result } = await check(fs, path, {
    analyze: options.analyze,
    ...(options.analyzer !== undefined ? { analyzer: options.analyzer } : {}),
  });
  return { result, ioError };
}

/** The module analysis `check` runs: with tool input schemas from `--tools` when given (tools without one stay dynamic). */
export function checkAnalyzer(toolSchemas: Readonly<Record<string, unknown>> | undefined): PackageAnalyzer {
  if (toolSchemas === undefined) return hnsAnalyzer;
  return (pkg) => {
    const r = analyzePackage(pkg, { toolSchemas });
    return { diagnostics: r.diagnostics, programHash: r.programHash };
  };
}
