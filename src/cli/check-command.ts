/**
 * `yaoc check [options] [PATH|GLOB|-]...`: expand the inputs into packages (check-inputs.ts), check
 * each one by its kind, and report through the one output family (`--format human|json|sarif|github`).
 * Exit 0 when every package is valid (and warnings stay within `--max-warnings`), 1 when some package
 * is invalid or there are too many warnings, 2 on usage or I/O errors (a missing path, a glob with no
 * match, an unreadable file or tool-schema file).
 *
 * With `--jobs N` and several package paths, the paths are checked on N − 1 worker threads and
 * this one (check-pool.ts) and their results awaited in input order, so the output is that of `--jobs 1`.
 *
 * Human and GitHub output stream: each package's diagnostics are written as soon as it is checked.
 * On a terminal, stderr shows a progress line while more than one package is being checked.
 */
import { countSummary, emptySummary, renderHumanResult, renderHumanSummaryOf } from "../diagnostics/render.js";
import { renderGithub } from "../output/format-github.js";
import { renderResults, type OutputFormat } from "../output/format.js";
import { renderEvidenceJson } from "../evidence/receipt.js";
import type { CheckResult } from "../diagnostics/result.js";
import { MemoryFs } from "../fs/memory-fs.js";
import type { PackageFs } from "../fs/package-fs.js";
import { strictResult } from "../check/check.js";
import { readInputBounded } from "./bounded-input.js";
import { diagnostic as cliDiagnostic } from "../check/codes.js";
import { checkOnePath, type CheckOneOptions } from "./check-one.js";
import { expandInputs, type ExpandedInput } from "./check-inputs.js";
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE, packageNameOf, unusablePath, useColor } from "./io.js";
import { formatOptions } from "./output.js";
import { Progress } from "./progress.js";
import { checkCachedPath, readForCacheSync, SnapshotReadAhead, syncReadable, type CacheUse } from "./check-cached.js";
import type { CachedCheck } from "../cache/entry.js";
import { NodeCacheStore } from "../cache/node-store.js";
import { VERSION } from "../version.js";
import { FlatMemory } from "./flat-memory.js";

export interface CheckCommandOptions {
  readonly format: OutputFormat;
  readonly analyze: boolean;
  /** Treat warnings (ignored manifest fields, unknown capability categories, …) as errors. */
  readonly strict?: boolean;
  /** Report errors only (warnings still count towards `maxWarnings`). */
  readonly quiet?: boolean;
  /** Fail (exit 1) when more warnings than this are found. */
  readonly maxWarnings?: number;
  /** Tool input schemas by tool name, as read from `--tools FILE`. */
  readonly toolSchemas?: Readonly<Record<string, unknown>>;
  /** The name of the package read from stdin (`-`). */
  readonly stdinFilename?: string;
  /** Reads standard input (tests replace it). */
  readonly readStdin?: () => Promise<Uint8Array>;
  /**
   * Check on this many worker threads (`--jobs`). With 1, or fewer than two package paths, or no
   * `workerUrl`, packages are checked in-process (no thread start-up cost).
   */
  readonly jobs?: number;
  /** The worker script (check-worker.ts as built; bin.ts knows where it is). */
  readonly workerUrl?: URL;
  /** `--cache`: reuse and store results in this directory (check-cached.ts). */
  readonly cache?: CacheSettings;
  /** `--watch`: after the first run, re-check what changes until interrupted (check-watch.ts). */
  readonly watch?: boolean;
}

/** Where `--cache` keeps its entries and how large it may grow. */
export interface CacheSettings {
  /** `--cache-dir`, default `.yaoc-cache` in the working directory. */
  readonly dir: string;
  /** `--cache-max-mib`: least recently used entries are pruned past this size. */
  readonly maxBytes: number;
}

export interface CheckOutcome {
  readonly results: CheckResult[];
  readonly ioError: boolean;
}

/** Check each path with the library facade (`check` in src/check), the one place detection lives; no walk (see check-inputs.ts). */
export async function checkPaths(
  fs: PackageFs,
  paths: readonly string[],
  options: CheckOneOptions,
): Promise<CheckOutcome> {
  const results: CheckResult[] = [];
  let ioError = false;
  for (const path of paths) {
    const r = await checkOnePath(fs, path, options);
    ioError ||= r.ioError;
    results.push(r.result);
  }
  return { results, ioError };
}

/**
 * A path that exists but cannot be used (permission, a name too long, an unlistable directory, a
 * non-UTF-8 argument) is an I/O error with its own words, never a verdict about a package. A
 * missing path or a broken link is left to the facade, which has codes for those.
 */
export async function unreadablePath(path: string): Promise<{ result: CheckResult; ioError: boolean } | null> {
  const problem = await unusablePath(path);
  if (problem === null || problem === "no such file or directory") return null;
  if (problem.startsWith("too many levels of symbolic links")) return null;
  const d = cliDiagnostic("cli.unreadable", `${path} cannot be used: ${problem}`, {
    file: path,
    hint: "check the path and its permissions (a package must be readable by the user running yaoc)",
  });
  return { result: { path, kind: "unknown", valid: false, identity: null, diagnostics: [d] }, ioError: true };
}

/** Runs over at least this many inputs keep their memory flat with occasional full collections. */
const FLAT_MEMORY_FROM = 32;

/** Standard input, read with the one input bound of every command (src/cli/bounded-input.ts). */
async function readProcessStdin(): Promise<Uint8Array> {
  const read = readInputBounded("-");
  if (!read.ok) throw new Error(read.message);
  return read.bytes;
}

export async function runCheck(
  fs: PackageFs,
  inputs: readonly string[],
  options: CheckCommandOptions,
): Promise<number> {
  const cache = options.cache === undefined ? undefined : openCache(options.cache, options);
  const analysis: CheckOneOptions = { analyze: options.analyze, toolSchemas: options.toolSchemas };
  const checkPath = (path: string): Promise<CachedCheck> =>
    cache === undefined ? checkOnePath(fs, path, analysis) : checkCachedPath(fs, path, analysis, cache);
  const inputsExpanded = await expandInputs(fs, inputs);
  const pooled = await startWorkers(inputsExpanded, options, checkPath, cache?.store);
  // In-process with the cache: a single-file package is read synchronously when it is looked up
  // (check-cached.ts); the others' snapshots are read ahead while the current one is looked up.
  const readAhead =
    cache === undefined || pooled !== undefined
      ? undefined
      : new SnapshotReadAhead(
          fs,
          inputsExpanded.map((e) => (e.kind === "path" && !syncReadable(fs, e.path) ? e.path : null)),
          unreadablePath,
        );
  const exit = await reportChecks(inputsExpanded, options, async (input, i) => {
    if (readAhead === undefined || cache === undefined)
      return (await unreadablePath(input.path)) ?? (await (pooled?.[i] ?? checkPath(input.path)));
    if (syncReadable(fs, input.path)) {
      const snapshot = readForCacheSync(fs, input.path);
      if (snapshot !== null) return checkCachedPath(fs, input.path, analysis, cache, snapshot);
      return (await unreadablePath(input.path)) ?? (await checkCachedPath(fs, input.path, analysis, cache));
    }
    const ahead = readAhead.take(i);
    return (await ahead.probe) ?? (await checkCachedPath(fs, input.path, analysis, cache, ahead.snapshot));
  });
  if (cache !== undefined) await closeCache(cache.store);
  return exit;
}

/** The store and key context of `--cache`. */
export function openCache(
  settings: CacheSettings,
  options: Pick<CheckCommandOptions, "analyze" | "toolSchemas">,
): CacheUse {
  return {
    store: new NodeCacheStore(settings.dir, VERSION, settings.maxBytes),
    context: {
      version: VERSION,
      analyze: options.analyze,
      ...(options.toolSchemas !== undefined ? { toolSchemas: options.toolSchemas } : {}),
    },
  };
}

/**
 * After a run (its output written): write the run's entries as one pack, compact past the budget or
 * past a few packs, close the packs read (a watch's next run reads them afresh), and say once if
 * the store could not be used.
 */
export async function closeCache(store: NodeCacheStore, command = "check"): Promise<void> {
  await store.flush();
  store.pruneIfDue();
  store.close();
  if (store.problem !== null)
    process.stderr.write(
      `yaoc ${command}: warning: the cache in ${store.dir} was not fully usable: ${store.problem}\n`,
    );
}

/**
 * Check (through `checkPath`) and report every expanded input, in input order, and return the exit
 * code. Human and GitHub output stream, and for them nothing is kept per package but the counts
 * the summary needs, so memory stays flat however many packages there are; JSON and SARIF are one
 * document over every result, so those keep each result (without source texts a diagnostic does
 * not point into) until the end.
 */
export async function reportChecks(
  inputsExpanded: readonly ExpandedInput[],
  options: CheckCommandOptions,
  checkPath: (input: Extract<ExpandedInput, { kind: "path" }>, index: number) => Promise<CachedCheck>,
  /** `--watch` stopping: no further package is checked and nothing more is printed. */
  signal?: AbortSignal,
  /** Where the output goes (`--watch` collects a re-run's output and writes it at once). */
  write: (text: string) => void = (text) => void process.stdout.write(text),
): Promise<number> {
  const analysis: CheckOneOptions = { analyze: options.analyze, toolSchemas: options.toolSchemas };
  const results: CheckResult[] = [];
  const summary = emptySummary();
  let ioError = false;
  let allValid = true;
  const stream = options.format === "human" || options.format === "github";
  const color = useColor(process.stdout);
  const progress = new Progress(process.stderr, inputsExpanded.length, "checking");
  // Only a long run needs it (flat-memory.ts); a short one does not pay for exposing the collector.
  const memory = inputsExpanded.length >= FLAT_MEMORY_FROM ? FlatMemory.start() : null;
  let warnings = 0;
  for (const [i, input] of inputsExpanded.entries()) {
    if (signal?.aborted) break;
    memory?.between();
    let r: { result: CheckResult; ioError: boolean };
    if (input.kind === "no_match") {
      r = { result: noMatch(input.pattern), ioError: true };
    } else if (input.kind === "stdin") {
      r = await checkStdin(options, analysis);
    } else {
      progress.update(input.path);
      r = await checkPath(input, i);
    }
    ioError ||= r.ioError;
    const found = options.strict ? strictResult(r.result) : r.result;
    allValid &&= found.valid;
    warnings += found.diagnostics.filter((d) => d.severity === "warning").length;
    const result = options.quiet ? errorsOnly(found) : found;
    if (stream) {
      // The summary counts what was found, and what --quiet left to print.
      countSummary(summary, found, result);
      progress.clear();
      write(options.format === "human" ? renderHumanResult(result, { color }) : renderGithub([result]));
    } else results.push(result);
    progress.done();
  }
  progress.clear();
  if (signal?.aborted) return EXIT_USAGE;
  if (options.format === "human") write(renderHumanSummaryOf(summary));
  else if (!stream) {
    // The JSON document is a set of evidence receipts (seed 002): each result with its ReproHash.
    // Each package is named by the last segment of its resolved path, so the ReproHash does not depend on how it was typed.
    const json = (rs: readonly CheckResult[]) =>
      renderEvidenceJson(rs, { analyze: options.analyze, packageName: packageNameOf });
    write(renderResults(results, options.format, formatOptions(process.stdout, { json })));
  }
  const tooManyWarnings = options.maxWarnings !== undefined && warnings > options.maxWarnings;
  if (tooManyWarnings)
    process.stderr.write(
      `yaoc check: ${warnings} warning${warnings === 1 ? "" : "s"} found, more than --max-warnings ${options.maxWarnings}\n`,
    );
  if (ioError) return EXIT_USAGE;
  return allValid && !tooManyWarnings ? EXIT_OK : EXIT_INVALID;
}

/** `-`: one single-file package from stdin, checked in memory under `--stdin-filename` (default stdin.hns). */
async function checkStdin(
  options: CheckCommandOptions,
  analysis: CheckOneOptions,
): Promise<{ result: CheckResult; ioError: boolean }> {
  const name = options.stdinFilename ?? "stdin.hns";
  let bytes: Uint8Array;
  try {
    bytes = await (options.readStdin ?? readProcessStdin)();
  } catch (e) {
    const d = cliDiagnostic("cli.stdin", `cannot read standard input: ${e instanceof Error ? e.message : String(e)}`, {
      file: name,
      hint: "pipe one single-file package into `yaoc check -`",
    });
    return { result: { path: name, kind: "unknown", valid: false, identity: null, diagnostics: [d] }, ioError: true };
  }
  return checkOnePath(MemoryFs.from({ [name]: bytes }), name, analysis);
}

/**
 * With `--jobs` above 1 and at least two package paths: start checking every path on the worker
 * pool now, and return each path's pending result at its input position (undefined for stdin and
 * unmatched globs, which stay in-process). The caller awaits them in input order, so output is
 * streamed in the same order as `--jobs 1`.
 */
async function startWorkers(
  inputs: readonly ExpandedInput[],
  options: CheckCommandOptions,
  local: (path: string) => Promise<{ result: CheckResult; ioError: boolean }>,
  store?: NodeCacheStore,
): Promise<(Promise<{ result: CheckResult; ioError: boolean }> | undefined)[] | undefined> {
  const jobs = options.jobs ?? 1;
  const positions: number[] = [];
  const paths: string[] = [];
  for (const [i, input] of inputs.entries()) {
    if (input.kind === "path") {
      positions.push(i);
      paths.push(input.path);
    }
  }
  if (jobs <= 1 || paths.length < 2 || options.workerUrl === undefined) return undefined;
  const settings = {
    analyze: options.analyze,
    ...(options.toolSchemas !== undefined ? { toolSchemas: options.toolSchemas } : {}),
    ...(options.cache !== undefined ? { cache: options.cache } : {}),
  };
  // The pool (and node:worker_threads) is loaded only when it is used: `--jobs 1` starts faster.
  const { checkOnWorkers } = await import("./check-pool.js");
  const promises = checkOnWorkers(
    options.workerUrl,
    paths,
    jobs,
    settings,
    local,
    store === undefined ? undefined : (entries) => store.adopt(entries),
  );
  const byInput: (Promise<{ result: CheckResult; ioError: boolean }> | undefined)[] = new Array(inputs.length);
  positions.forEach((at, k) => (byInput[at] = promises[k]));
  return byInput;
}

function noMatch(pattern: string): CheckResult {
  return {
    path: pattern,
    kind: "unknown",
    valid: false,
    identity: null,
    diagnostics: [
      cliDiagnostic("cli.no_match", `the pattern ${pattern} matches no file or directory`, {
        hint: "check the pattern; quote it so the shell does not expand it, and note that hidden entries, node_modules and .git are skipped",
      }),
    ],
  };
}

function errorsOnly(r: CheckResult): CheckResult {
  if (r.diagnostics.every((d) => d.severity === "error")) return r;
  return { ...r, diagnostics: r.diagnostics.filter((d) => d.severity === "error") };
}

export { strictResult };
