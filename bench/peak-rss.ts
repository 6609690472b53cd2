/**
 * Preloaded into the `yaoc check` runs of figure i (`node --import <this> bin/yaoc.js …`): when the
 * process exits it writes its peak resident set size in KiB (`process.resourceUsage().maxRSS`,
 * which counts every thread of the process, workers included) to the file named by
 * YAOC_BENCH_PEAK_RSS. Only the bench sets that variable; a run without it writes nothing.
 */
import { writeFileSync } from "node:fs";
import { isMainThread } from "node:worker_threads";

const file = process.env.YAOC_BENCH_PEAK_RSS;
if (isMainThread && file !== undefined && file !== "")
  process.on("exit", () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
