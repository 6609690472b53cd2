/**
 * The worker thread of `yaoc check --jobs N` (see check-pool.ts): it checks one package path per
 * message with the same library call the in-process path uses and posts the result back. A result
 * that cannot be posted, or a check that throws, is reported as an error message rather than
 * killing the thread, so one bad package never costs the others their results.
 */
import { parentPort, workerData } from "node:worker_threads";
import { NodeFs } from "../fs/node-fs.js";
import { installNodeSha256 } from "../canonical/node-hash.js";
import { installNodeUtf8 } from "../syntax/node-decoder.js";
import { checkOnePath } from "./check-one.js";
import type { WorkerReply, WorkerSettings, WorkerTask } from "./check-pool.js";
import { checkCachedPath } from "./check-cached.js";
import { openCache } from "./check-command.js";

installNodeSha256();
installNodeUtf8();
const settings = workerData as WorkerSettings;
const fs = new NodeFs();
// The CLI's thread writes, prunes and reports store problems after the run; a worker only reads.
const cache = settings.cache === undefined ? undefined : openCache(settings.cache, settings);

// Tasks are checked one after another, in the order they came: the pool keeps a second task here
// so the thread never waits for the next (check-pool.ts), and checking both at once would hold two
// packages' trees in memory for no gain on one thread.
const waiting: WorkerTask[] = [];
let busy = false;
parentPort!.on("message", (task: WorkerTask) => {
  waiting.push(task);
  if (!busy) void drain();
});

async function drain(): Promise<void> {
  busy = true;
  for (let task = waiting.shift(); task !== undefined; task = waiting.shift()) await run(task);
  busy = false;
}

async function run(task: WorkerTask): Promise<void> {
  let reply: WorkerReply;
  try {
    const options = { analyze: settings.analyze, toolSchemas: settings.toolSchemas };
    const r = await (cache === undefined
      ? checkOnePath(fs, task.path, options)
      : checkCachedPath(fs, task.path, options, cache));
    // The entries this check computed go with its result: the CLI's thread writes them in its
    // one pack of the run (src/cache/node-store.ts), so a worker never writes the store.
    const entries = cache?.store.takePending() ?? [];
    reply = { index: task.index, result: r.result, ioError: r.ioError, ...(entries.length > 0 ? { entries } : {}) };
  } catch (e) {
    reply = { index: task.index, error: e instanceof Error ? e.message : String(e) };
  }
  try {
    parentPort!.postMessage(reply);
  } catch (e) {
    parentPort!.postMessage({
      index: task.index,
      error: `cannot send the result: ${e instanceof Error ? e.message : String(e)}`,
    } satisfies WorkerReply);
  }
}
