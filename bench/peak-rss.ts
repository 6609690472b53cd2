/**
 * Preloaded into the `yaoc check` runs of figure i (`node --import <this> bin/yaoc.js …`): when the
 * process exits it writes, as JSON to the file named by YAOC_BENCH_PEAK_RSS, its peak resident set
 * size in KiB (`maxRssKiB`) and the CPU time it used in ms (`cpuMs`, user + system). Both come from
 * `process.resourceUsage()`, which counts every thread of the process: worker threads, and V8's
 * own garbage-collector and compiler threads. Only the bench sets that variable; a run without it
 * writes nothing.
 */
import { writeFileSync } from "node:fs";
import { isMainThread } from "node:worker_threads";

/** What a run writes (bench/run.ts reads it). */
export interface ProcessUsage {
  readonly maxRssKiB: number;
  readonly cpuMs: number;
}

const file = process.env.YAOC_BENCH_PEAK_RSS;
if (isMainThread && file !== undefined && file !== "")
  process.on("exit", () => {
    const u = process.resourceUsage();
    const usage: ProcessUsage = { maxRssKiB: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 };
    writeFileSync(file, JSON.stringify(usage));
  });
