/**
 * Checking one package path for `yaoc check`: shared by the in-process loop (check-command.ts) and
 * the worker threads of `--jobs N` (check-worker.ts), so both run exactly the same call.
 */
import type { CheckResult } from "../diagnostics/result.js";
import type { PackageFs } from "../fs/package-fs.js";
import { check } from "../check/check.js";

export interface CheckOneOptions {
  readonly analyze: boolean;
  /** Tool input schemas from `--tools` (tools without one stay dynamic). */
  readonly toolSchemas?: Readonly<Record<string, unknown>> | undefined;
}

export async function checkOnePath(
  fs: PackageFs,
  path: string,
  options: CheckOneOptions,
): Promise<{ result: CheckResult; ioError: boolean }> {
  const { ioError, ...result } = await check(fs, path, { analyze: options.analyze, toolSchemas: options.toolSchemas });
  return { result: withSourcesInUse(result), ioError };
}

/**
 * The result keeping only the source texts a diagnostic points into (code frames and display
 * columns need nothing else): a valid package's texts are not posted back from a worker, and a run
 * over many packages does not hold every package's text until it ends.
 */
export function withSourcesInUse(result: CheckResult): CheckResult {
  if (result.sources === undefined) return result;
  const files = new Set<string>();
  for (const d of result.diagnostics) {
    if (d.file !== undefined) files.add(d.file);
    for (const r of d.related ?? []) {
      const file = r.file ?? d.file;
      if (file !== undefined) files.add(file);
    }
  }
  const { sources, ...rest } = result;
  if (files.size === 0) return rest;
  const kept = new Map<string, string>();
  for (const [file, text] of sources) if (files.has(file)) kept.set(file, text);
  return { ...rest, sources: kept };
}
