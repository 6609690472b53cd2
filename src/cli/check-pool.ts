/**
 * The worker pool of `yaoc check --jobs N`: package paths are taken from one queue by N − 1 worker
 * threads (check-worker.ts), one at a time per worker, and by the CLI's own thread, and each result
 * comes back as a promise at the path's position, so the caller awaits them in input order and
 * output is the same as `--jobs 1`. The CLI's thread works too because a worker needs a few hundred
 * milliseconds to load the checker: a handful of small packages is done before a worker is ready,
 * so `--jobs` never makes a short run much slower than `--jobs 1`.
 *
 * A worker that fails (its script cannot start, it throws outside a check, it exits) never takes the
 * CLI down: the path it was checking gets a `cli.worker` diagnostic (exit 2) and a fresh worker takes
 * over the remaining paths. At most one replacement is started per failed path, so a worker that can
 * never start costs one diagnostic per path, not a loop.
 */
import { Worker } from "node:worker_threads";
import { diagnostic } from "../check/codes.js";
import type { CheckResult } from "../diagnostics/result.js";

/** What every worker is started with (structured-cloned into it). */
export interface WorkerSettings {
  readonly analyze: boolean;
  readonly toolSchemas?: Readonly<Record<string, unknown>>;
}

export interface WorkerTask {
  readonly index: number;
  readonly path: string;
}

export type WorkerReply =
  | { readonly index: number; readonly result: CheckResult; readonly ioError: boolean }
  | { readonly index: number; readonly error: string };

export interface PooledResult {
  readonly result: CheckResult;
  readonly ioError: boolean;
}

/**
 * A worker's young generation as large as the main thread's: with Node's smaller worker default, a
 * 64 KiB package's short-lived trees were scavenged so often that a worker checked at two thirds of
 * the main thread's speed (measured: 200 packages of 64 KiB, 4.0 s on a worker vs 2.4 s on main).
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 64 };

interface Pending {
  readonly task: WorkerTask;
  readonly resolve: (r: PooledResult) => void;
}

/**
 * Check `paths` on `jobs − 1` workers and with `local` (this thread); the returned promises are in
 * the order of `paths`. Workers end when the last path is taken.
 */
export function checkOnWorkers(
  workerUrl: URL,
  paths: readonly string[],
  jobs: number,
  settings: WorkerSettings,
  local: (path: string) => Promise<PooledResult>,
): Promise<PooledResult>[] {
  const queue: Pending[] = [];
  const promises = paths.map(
    (path, index) => new Promise<PooledResult>((resolve) => queue.push({ task: { index, path }, resolve })),
  );
  let next = 0;
  const start = (): void => {
    if (next >= queue.length) return;
    const worker = new Worker(workerUrl, { workerData: settings, resourceLimits: WORKER_LIMITS });
    let current: Pending | undefined;
    let failed = false;
    const feed = (): void => {
      current = queue[next++];
      if (current === undefined) void worker.terminate();
      else worker.postMessage(current.task);
    };
    const fail = (why: string): void => {
      if (failed) return;
      failed = true;
      void worker.terminate();
      if (current !== undefined) current.resolve(workerFailed(current.task.path, why));
      current = undefined;
      start();
    };
    worker.on("message", (reply: WorkerReply) => {
      if (current === undefined || reply.index !== current.task.index) return;
      current.resolve(
        "error" in reply
          ? workerFailed(current.task.path, reply.error)
          : { result: reply.result, ioError: reply.ioError },
      );
      feed();
    });
    worker.on("error", (e) => fail(e instanceof Error ? e.message : String(e)));
    worker.on("exit", (code) => {
      if (current !== undefined) fail(`the worker thread exited with code ${code}`);
    });
    feed();
  };
  for (let i = 0; i < Math.min(jobs - 1, paths.length - 1); i++) start();
  const runLocally = async (): Promise<void> => {
    for (let p = queue[next++]; p !== undefined; p = queue[next++]) {
      try {
        p.resolve(await local(p.task.path));
      } catch (e) {
        p.resolve(workerFailed(p.task.path, e instanceof Error ? e.message : String(e)));
      }
    }
  };
  void runLocally();
  return promises;
}

function workerFailed(path: string, why: string): PooledResult {
  const d = diagnostic("cli.worker", `checking ${path} failed in a worker thread: ${why}`, {
    file: path,
    hint: "run `yaoc check --jobs 1` on this path to check it in-process; please report the failure",
  });
  return { result: { path, kind: "unknown", valid: false, identity: null, diagnostics: [d] }, ioError: true };
}
