/**
 * Figures i-rss and i-cpu's readings (docs/performance.md): bench/peak-rss.ts, preloaded into a run,
 * writes the process's peak RSS in KiB and its CPU time in ms at exit when YAOC_BENCH_PEAK_RSS names
 * a file, and nothing otherwise.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/repo.js";

const PRELOAD = join(REPO_ROOT, "dist", "bench", "peak-rss.js");
const tmp = mkdtempSync(join(tmpdir(), "yaoc-peak-rss-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.skipIf(!existsSync(PRELOAD))("bench/peak-rss.ts (skipped unbuilt)", () => {
  it("writes the peak RSS of the whole process, a worker thread's memory included", () => {
    const run = (allocateInWorker: boolean, file: string): number => {
      // A worker that holds ~64 MiB before the process exits: its memory is the process's.
      const code = allocateInWorker
        ? `const { Worker } = require("node:worker_threads"); const w = new Worker("const b = Buffer.alloc(64 << 20, 1); require('node:worker_threads').parentPort.postMessage(b[5]);", { eval: true }); w.on("message", () => w.terminate());`
        : "0";
      const r = spawnSync(process.execPath, ["--import", pathToFileURL(PRELOAD).href, "-e", code], {
        env: { ...process.env, YAOC_BENCH_PEAK_RSS: file },
        encoding: "utf8",
      });
      expect(r.status, r.stderr).toBe(0);
      return (JSON.parse(readFileSync(file, "utf8")) as { maxRssKiB: number }).maxRssKiB;
    };
    const idle = run(false, join(tmp, "idle"));
    const busy = run(true, join(tmp, "busy"));
    expect(idle).toBeGreaterThan(10_000);
    expect(busy - idle).toBeGreaterThan(50 * 1024);
  });

  // Each worker reads its own thread's CPU time from /proc/thread-self/stat (utime + stime, in
  // clock ticks of 10 ms), so the check does not depend on how the machine scheduled the threads.
  it.skipIf(!existsSync("/proc/thread-self/stat"))(
    "writes the CPU time of every thread: at least what the worker threads themselves used (skipped without /proc)",
    () => {
      const file = join(tmp, "cpu");
      const work = [
        'const { parentPort } = require("node:worker_threads");',
        "let x = 0; for (let i = 0; i < 2e8; i++) x = (x + i) | 0; globalThis.x = x;",
        'const stat = require("node:fs").readFileSync("/proc/thread-self/stat", "utf8");',
        'const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");',
        "parentPort.postMessage((Number(f[11]) + Number(f[12])) * 10);",
      ].join("\n");
      const code = [
        'const { Worker } = require("node:worker_threads");',
        "let sum = 0, done = 0;",
        "for (let i = 0; i < 2; i++) {",
        `  const w = new Worker(${JSON.stringify(work)}, { eval: true });`,
        '  w.on("message", (ms) => { sum += ms; w.terminate(); if (++done === 2) console.log(sum); });',
        "}",
      ].join("\n");
      const r = spawnSync(process.execPath, ["--import", pathToFileURL(PRELOAD).href, "-e", code], {
        env: { ...process.env, YAOC_BENCH_PEAK_RSS: file },
        encoding: "utf8",
      });
      expect(r.status, r.stderr).toBe(0);
      const threads = Number(r.stdout.trim());
      const usage = JSON.parse(readFileSync(file, "utf8")) as { cpuMs: number };
      expect(threads).toBeGreaterThan(100);
      // The two workers' own CPU (less one tick each for rounding) is part of the process's.
      expect(usage.cpuMs).toBeGreaterThanOrEqual(threads - 20);
    },
  );

  it("writes nothing when the bench did not ask for it", () => {
    const r = spawnSync(process.execPath, ["--import", pathToFileURL(PRELOAD).href, "-e", "0"], {
      env: { ...process.env, YAOC_BENCH_PEAK_RSS: "" },
      cwd: tmp,
      encoding: "utf8",
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toBe("");
  });
});
