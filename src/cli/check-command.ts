/**
 * `yaoc check [--format human|json] PATH...`: detect each path's package kind, check it, and print
 * one report. Exit 0 when every package is valid, 1 when some package is invalid, 2 on usage or
 * I/O errors (a missing path, an unreadable file).
 */
import { diagnostic } from "../diagnostics/diagnostic.js";
import { renderHuman } from "../diagnostics/render.js";
import { renderEvidenceJson } from "../evidence/receipt.js";
import type { CheckResult } from "../diagnostics/result.js";
import type { PackageFs } from "../fs/package-fs.js";
import { extensionOf } from "../fs/paths.js";
import { checkHns } from "../hns/check.js";
import { hnsAnalyzer } from "./analyzer.js";
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE, useColor } from "./io.js";
import { detectFrontend } from "./frontends.js";

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

export async function checkPaths(fs: PackageFs, paths: readonly string[], options: { analyze: boolean }): Promise<CheckOutcome> {
  const results: CheckResult[] = [];
  let ioError = false;
  const asHns = async (path: string): Promise<void> => {
    const r = await checkHns(fs, path, { analyzer: options.analyze ? hnsAnalyzer : undefined });
    ioError ||= r.ioError;
    results.push(r);
  };
  for (const path of paths) {
    if (extensionOf(path) === "hns") {
      await asHns(path);
      continue;
    }
    const st = await fs.stat(path);
    if (st === null) {
      ioError = true;
      results.push(notFound(path));
      continue;
    }
    const frontend = await detectFrontend(fs, path);
    if (frontend !== undefined) {
      results.push(await frontend.check(fs, path));
      continue;
    }
    // Not a recognised package: the HNS loader explains what an HNS package must look like.
    await asHns(path);
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

function notFound(path: string): CheckResult {
  return {
    path,
    kind: "unknown",
    valid: false,
    identity: null,
    diagnostics: [diagnostic("cli.not_found", `${path} does not exist`, { file: path, hint: "check the path" })],
  };
}

/** Strict mode: every warning becomes an error, so the package is invalid and has no identity. */
export function strictResult(r: CheckResult): CheckResult {
  if (!r.diagnostics.some((d) => d.severity === "warning")) return r;
  return {
    ...r,
    valid: false,
    identity: null,
    diagnostics: r.diagnostics.map((d) => (d.severity === "warning" ? { ...d, severity: "error" as const } : d)),
  };
}
