/**
 * `yaoc check [--format human|json] PATH...`: detect each path's package kind, check it, and print
 * one report. Exit 0 when every package is valid, 1 when some package is invalid, 2 on usage or
 * I/O errors (a missing path, an unreadable file).
 */
import { renderHuman } from "../diagnostics/render.js";
import { renderEvidenceJson } from "../evidence/receipt.js";
import type { CheckResult } from "../diagnostics/result.js";
import type { PackageFs } from "../fs/package-fs.js";
import { check, strictResult } from "../check/check.js";
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE, useColor } from "./io.js";

export interface CheckCommandOptions {
  readonly format: "human" | "json";
  readonly analyze: boolean;
  /** Treat warnings (ignored manifest fields, unknown capability categories, …) as errors. */
  readonly strict?: boolean;
}

export interface CheckOutcome {
  readonly results: CheckResult[];
  readonly ioError: boolean;
}

/** Check each path with the library facade (`check` in src/check), the one place detection lives. */
export async function checkPaths(fs: PackageFs, paths: readonly string[], options: { analyze: boolean }): Promise<CheckOutcome> {
  const results: CheckResult[] = [];
  let ioError = false;
  for (const path of paths) {
    const { ioError: io, ...result } = await check(fs, path, { analyze: options.analyze });
    ioError ||= io;
    results.push(result);
  }
  return { results, ioError };
}

export async function runCheck(fs: PackageFs, paths: readonly string[], options: CheckCommandOptions): Promise<number> {
  const outcome = await checkPaths(fs, paths, options);
  const { ioError } = outcome;
  const results = options.strict ? outcome.results.map(strictResult) : outcome.results;
  // The JSON document is a set of evidence receipts (seed 002): each result with its ReproHash.
  if (options.format === "json") process.stdout.write(renderEvidenceJson(results, { analyze: options.analyze }));
  else process.stdout.write(renderHuman(results, { color: useColor(process.stdout) }));
  if (ioError) return EXIT_USAGE;
  return results.every((r) => r.valid) ? EXIT_OK : EXIT_INVALID;
}

export { strictResult };
