/**
 * `yaoc check --watch`: check the inputs, then watch them and, after each burst of changes, re-check
 * only the packages a changed path lies in (through the cache, so a package whose bytes came back to
 * an earlier state is a hit), reuse every other package's last result, and print the whole output
 * again, exactly as one `yaoc check --cache` run would print it. Like `tsc -w`, a terminal is cleared
 * before each run's human output and a `---` separator line precedes it otherwise; status lines
 * (what changed, how many packages were re-checked, "watching") go to stderr, so stdout holds only
 * each run's output. Ctrl-C (SIGINT) or SIGTERM stops the watcher and exits 130 (the shell's code
 * for an interrupt); a run in progress stops between two packages, and the cache, written by
 * rename, never holds a partial entry.
 *
 * The watcher is chokidar (native `fs.watch` events on Linux and macOS, with editors' atomic
 * save-by-rename reported as one change). Paths with a `.git` or `node_modules` segment and the
 * cache directory itself are ignored. A change outside every known package, or a file or directory
 * added or removed, makes the next run expand the inputs again (a new package is checked, a removed
 * one dropped); otherwise the previous expansion is reused.
 */
import { resolve, sep } from "node:path";
import type { FSWatcher } from "chokidar";
import type { CachedCheck } from "../cache/entry.js";
import type { PackageFs } from "../fs/package-fs.js";
import { checkCachedPath } from "./check-cached.js";
import { closeCache, openCache, reportChecks, unreadablePath, type CheckCommandOptions } from "./check-command.js";
import { expandInputs, type ExpandedInput } from "./check-inputs.js";
import { EXIT_USAGE } from "./io.js";

/** Exit code after Ctrl-C: 128 + SIGINT, what a shell reports for an interrupted command. */
export const EXIT_INTERRUPTED = 130;

/** Quiet time after the last change before a run starts: a burst of saves costs one run. */
const SETTLE_MS = 25;

const CLEAR_SCREEN = "\x1b[2J\x1b[3J\x1b[H";

export async function runWatch(
  fs: PackageFs,
  inputs: readonly string[],
  options: CheckCommandOptions,
): Promise<number> {
  if (inputs.includes("-")) {
    process.stderr.write("yaoc check: --watch cannot watch standard input (-); name the package files instead\n");
    return EXIT_USAGE;
  }
  if (options.cache === undefined) throw new Error("--watch runs on the cache");
  const cache = openCache(options.cache, options);
  const checkOptions = { analyze: options.analyze, toolSchemas: options.toolSchemas };
  const cacheDir = resolve(options.cache.dir);
  const roots = (inputs.length === 0 ? ["."] : inputs).map(watchRootOf);

  const last = new Map<string, CachedCheck>();
  let expanded: readonly ExpandedInput[] = [];
  let packageRoots: { path: string; abs: string }[] = [];
  let changed = new Set<string>();
  let reexpand = true;
  let stopping = false;
  let running: Promise<void> | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const abort = new AbortController();

  const clock = (): string => new Date().toTimeString().slice(0, 8);
  const status = (text: string): void => void process.stderr.write(`[${clock()}] ${text}\n`);

  const run = async (first: boolean): Promise<void> => {
    const paths = changed;
    changed = new Set();
    if (reexpand) {
      reexpand = false;
      expanded = await expandInputs(fs, inputs);
      packageRoots = expanded.flatMap((e) => (e.kind === "path" ? [{ path: e.path, abs: resolve(e.path) }] : []));
      const present = new Set(packageRoots.map((p) => p.path));
      for (const path of last.keys()) if (!present.has(path)) last.delete(path);
    }
    let rechecked = 0;
    for (const p of packageRoots) {
      const dirty = !last.has(p.path) || [...paths].some((f) => f === p.abs || f.startsWith(p.abs + sep));
      if (dirty) {
        last.delete(p.path);
        rechecked++;
      }
    }
    if (!first) {
      if (options.format === "human" && process.stdout.isTTY) process.stdout.write(CLEAR_SCREEN);
      else if (options.format === "human") process.stdout.write("---\n");
    }
    // A re-run's output is mostly results already known: written at once, not package by package.
    const chunks: string[] = [];
    await reportChecks(
      expanded,
      options,
      async (input) => {
        let r = last.get(input.path);
        if (r === undefined) {
          r = (await unreadablePath(input.path)) ?? (await checkCachedPath(fs, input.path, checkOptions, cache));
          last.set(input.path, r);
        }
        return r;
      },
      abort.signal,
      first ? undefined : (text) => void chunks.push(text),
    );
    if (chunks.length > 0) process.stdout.write(chunks.join(""));
    await closeCache(cache.store);
    if (stopping) return;
    const what = first
      ? `${packageRoots.length} package${packageRoots.length === 1 ? "" : "s"} checked`
      : `${paths.size} path${paths.size === 1 ? "" : "s"} changed; ${rechecked} of ${packageRoots.length} package${packageRoots.length === 1 ? "" : "s"} re-checked`;
    status(`${what}. Watching for changes (Ctrl-C to stop).`);
  };

  // Runs never overlap: changes during a run are collected and start the next one when it ends.
  const schedule = (): void => {
    if (stopping) return;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      if (running !== null) return; // picked up when the current run ends
      running = (async () => {
        while (!stopping && changed.size > 0) await run(false);
        running = null;
      })();
    }, SETTLE_MS);
  };

  const { watch } = await import("chokidar");
  const watcher: FSWatcher = watch(roots, {
    ignoreInitial: true,
    followSymlinks: false,
    ignored: (path: string) => {
      const abs = resolve(path);
      if (abs === cacheDir || abs.startsWith(cacheDir + sep)) return true;
      return abs.split(sep).some((s) => s === ".git" || s === "node_modules");
    },
  });
  const ready = new Promise<void>((resolveReady) => watcher.once("ready", () => resolveReady()));
  watcher.on("all", (event, path) => {
    const abs = resolve(path);
    changed.add(abs);
    const inside = packageRoots.some((p) => abs === p.abs || abs.startsWith(p.abs + sep));
    if (!inside || event === "add" || event === "unlink" || event === "addDir" || event === "unlinkDir")
      reexpand = true;
    schedule();
  });
  watcher.on("error", (e) => status(`watch error: ${e instanceof Error ? e.message : String(e)}`));

  const stopped = new Promise<void>((resolveStopped) => {
    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      abort.abort();
      if (timer !== null) clearTimeout(timer);
      void (async () => {
        await watcher.close();
        await running;
        process.stderr.write("\n");
        status("Stopped watching.");
        resolveStopped();
      })();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });

  // The first run starts once the watcher has its baseline, so no change during it is missed.
  await ready;
  running = (async () => {
    await run(true);
    while (!stopping && changed.size > 0) await run(false);
    running = null;
  })();
  await stopped;
  return EXIT_INTERRUPTED;
}

/** What to watch for an input: the path itself, or for a glob the directory before its first pattern character. */
function watchRootOf(input: string): string {
  const at = input.search(/[*?[{]/);
  if (at < 0) return input;
  const head = input.slice(0, at);
  const slash = head.lastIndexOf("/");
  return slash < 0 ? "." : head.slice(0, slash) || "/";
}
