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
  /** `--cache`: each worker reads the same store; the entries it computes come back with its replies. */
  readonly cache?: { readonly dir: string; readonly maxBytes: number };
}

export interface WorkerTask {
  readonly index: number;
  readonly path: string;
}

export type WorkerReply =
  | {
      readonly index: number;
      readonly result: CheckResult;
      readonly ioError: boolean;
      /** Cache entries the worker computed for this task, for the CLI's thread to write. */
      readonly entries?: readonly (readonly [string, Uint8Array])[];
    }
  | { readonly index: number; readonly error: string };

export interface PooledResult {
  readonly result: CheckResult;
  readonly ioError: boolean;
}

interface Pending {
  readonly task: WorkerTask;
  readonly resolve: (r: PooledResult) => void;
}

/**
 * Tasks a worker holds at once: the one it checks and the next. The CLI's thread checks packages
 * too, and while it does it cannot answer a worker's reply; with one task in hand a worker then
 * sat idle for up to a whole check (measured: a worker got through 62 of 200 packages of 64 KiB,
 * 21 ms each, where it checks one in 12 ms when fed at once). The worker checks its tasks one after
 * another (check-worker.ts), so the second waits in its queue, not in memory twice.
 */
const IN_HAND = 2;

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
  /** Takes the cache entries workers computed (the CLI thread's store writes them with its own). */
  adopt?: (entries: readonly (readonly [string, Uint8Array])[]) => void,
): Promise<PooledResult>[] {
  const queue: Pending[] = [];
  const promises = paths.map(
    (path, index) => new Promise<PooledResult>((resolve) => queue.push({ task: { index, path }, resolve })),
  );
  // Tasks are taken in input order; a task a failed worker never started comes back in `returned`
  // and is taken before the rest.
  let next = 0;
  const returned: Pending[] = [];
  const take = (): Pending | undefined => returned.pop() ?? (next < queue.length ? queue[next++] : undefined);
  const remaining = (): boolean => returned.length > 0 || next < queue.length;
  const start = (): void => {
    if (!remaining()) return;
    // Node's default heap limits for workers: a 64 MiB young generation (set while a worker still
    // waited for its next task between checks, which was mistaken for collection cost) checked
    // no faster once workers hold their next task, and cost 25 MiB more peak RSS (200 packages of
    // 64 KiB, --jobs 2: 2.2 s either way, 190 vs 165 MiB).
    const worker = new Worker(workerUrl, { workerData: settings });
    // The tasks posted to this worker and not yet answered, oldest first.
    const inHand: Pending[] = [];
    let failed = false;
    const feed = (): void => {
      while (inHand.length < IN_HAND && remaining()) {
        const p = take()!;
        inHand.push(p);
        worker.postMessage(p.task);
      }
      if (inHand.length === 0) void worker.terminate();
    };
    const fail = (why: string): void => {
      if (failed) return;
      failed = true;
      void worker.terminate();
      // Only the task being checked failed; the one waiting behind it is put back for the others.
      const [current, ...waiting] = inHand.splice(0);
      if (current !== undefined) current.resolve(workerFailed(current.task.path, why));
      // Oldest last, so `take` (which pops) hands them out in their order.
      for (let k = waiting.length - 1; k >= 0; k--) returned.push(waiting[k]!);
      start();
    };
    worker.on("message", (reply: WorkerReply) => {
      const at = inHand.findIndex((p) => p.task.index === reply.index);
      if (at < 0) return;
      const [done] = inHand.splice(at, 1);
      if ("entries" in reply && reply.entries !== undefined) adopt?.(reply.entries);
      done!.resolve(
        "error" in reply
          ? workerFailed(done!.task.path, reply.error)
          : { result: reply.result, ioError: reply.ioError },
      );
      feed();
    });
    worker.on("error", (e) => fail(e instanceof Error ? e.message : String(e)));
    worker.on("exit", (code) => {
      if (inHand.length > 0) fail(`the worker thread exited with code ${code}`);
    });
    feed();
  };
  for (let i = 0; i < Math.min(jobs - 1, paths.length - 1); i++) start();
  const runLocally = async (): Promise<void> => {
    for (let p = take(); p !== undefined; p = take()) {
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
