/**
 * Registry-scale figures of `npm run bench` (issue 29), every one through the real CLI as users run
 * it, each with min / median / max over its rounds:
 *
 * (k) 5,000 realistic small packages (bench/inputs.ts, 4 KiB each), unchanged: `yaoc check --cache`
 *     with a warm cache against an uncached run (k-warm, target ≥ 10×), and the first run with an
 *     empty cache against an uncached run (k-cold, ≤ 1.10: the cost of writing the entries). The
 *     three runs alternate round by round; the cache directory is emptied before each cold run.
 * (l) `yaoc check --watch` on 1,000 of those packages: one file of one package changed (a comment
 *     appended, so its bytes change and it stays valid) until the summary line of the run it causes
 *     arrives on stdout, against 100 ms (l, target ≤ 1 on the median).
 * (m) peak RSS of a default `yaoc check` (human output) on 200 packages of 64 KiB against 120 MiB
 *     (m-200), and of the uncached 5,000-package runs of (k) against the 200-package peak of the same
 *     round (m-5000, target ≤ 1.2); the detail gives the same-size yardstick too (200 of the 4 KiB
 *     packages), since that is the figure for "flat in the number of packages" at equal size.
 *
 * Each round of (k) and (m) is several whole CLI runs over thousands of packages (tens of seconds on
 * this shared machine), so they take fewer rounds than the in-process figures: 5, or 3 with --quick.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { hnsPackage } from "./inputs.js";
import { median, type Row, type Spread, spreadOf } from "./measure.js";
import type { ProcessUsage } from "./peak-rss.js";

export interface RegistryBenchOptions {
  readonly repo: string;
  readonly tmp: string;
  readonly quick: boolean;
  /** bench/peak-rss.js, preloaded into each measured run. */
  readonly peakRss: string;
  readonly rounds: number;
}

interface Run {
  readonly ms: number;
  readonly peakKiB: number;
  /** CPU time of the process (every thread), which load inflates far less than wall time. */
  readonly cpuMs: number;
}

function judged(ratio: number, spread: Spread, target: number, atLeast: boolean): { met: boolean; straddles: boolean } {
  const ok = (x: number): boolean => (atLeast ? x >= target : x <= target);
  return { met: ok(ratio), straddles: ok(spread.min) !== ok(spread.max) };
}

function generate(dir: string, count: number, bytes: number, from = 0): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < count; i++)
    writeFileSync(join(dir, `p${String(i).padStart(5, "0")}.hns`), hnsPackage(bytes, from + i));
}

/** One `yaoc check ARGS` process, its wall time and peak RSS; a run that is not exit 0 fails the bench. */
function cli(o: RegistryBenchOptions, args: readonly string[]): Promise<Run> {
  const rss = join(o.tmp, `rss-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", pathToFileURL(o.peakRss).href, join(o.repo, "bin", "yaoc.js"), "check", ...args],
      { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, YAOC_BENCH_PEAK_RSS: rss } },
    );
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const ms = performance.now() - t0;
      if (code !== 0) return reject(new Error(`yaoc check ${args.join(" ")} exited ${code}: ${stderr}`));
      const usage = JSON.parse(readFileSync(rss, "utf8")) as ProcessUsage;
      rmSync(rss, { force: true });
      resolve({ ms, peakKiB: usage.maxRssKiB, cpuMs: usage.cpuMs });
    });
  });
}

const mib = (kib: number): number => kib / 1024;

/** Figures k, m-200 and m-5000, in shared rounds. */
export async function cacheAndMemoryFigures(o: RegistryBenchOptions): Promise<Row[]> {
  const many = join(o.tmp, "k-5000");
  const medium = join(o.tmp, "m-200");
  const small200 = join(o.tmp, "m-200-small");
  generate(many, 5000, 4096 - 512);
  generate(medium, 200, 64 * 1024 - 6144);
  generate(small200, 200, 4096 - 512);
  const cacheDir = join(o.tmp, "k-cache");
  const uncached: Run[] = [];
  const cold: Run[] = [];
  const warm: Run[] = [];
  const m200: Run[] = [];
  const m200small: Run[] = [];
  // One untimed run of each kind first (file-system caches, the CLI's own files).
  await cli(o, [medium]);
  await cli(o, ["--cache-dir", cacheDir, many]);
  for (let r = 0; r < o.rounds; r++) {
    m200.push(await cli(o, [medium]));
    m200small.push(await cli(o, [small200]));
    uncached.push(await cli(o, [many]));
    rmSync(cacheDir, { recursive: true, force: true });
    cold.push(await cli(o, ["--cache-dir", cacheDir, many]));
    warm.push(await cli(o, ["--cache-dir", cacheDir, many]));
  }
  const warmRatio = spreadOf(uncached.map((u, r) => u.ms / warm[r]!.ms));
  const coldRatio = spreadOf(uncached.map((u, r) => cold[r]!.ms / u.ms));
  const rss200 = spreadOf(m200.map((x) => mib(x.peakKiB) / 120));
  const rss5000 = spreadOf(uncached.map((u, r) => u.peakKiB / m200[r]!.peakKiB));
  const sameSize = spreadOf(uncached.map((u, r) => u.peakKiB / m200small[r]!.peakKiB));
  const ms = (xs: readonly Run[]): string => median(xs.map((x) => x.ms)).toFixed(0);
  const cpu = (xs: readonly Run[]): string => median(xs.map((x) => x.cpuMs)).toFixed(0);
  // The same ratios over CPU time, in the detail: on a loaded machine the wall times of a short and
  // a long run are stretched unequally (a short run waits for a core a larger share of its time).
  const cpuWarm = median(uncached.map((u, r) => u.cpuMs / warm[r]!.cpuMs));
  const cpuCold = median(uncached.map((u, r) => cold[r]!.cpuMs / u.cpuMs));
  const peak = (xs: readonly Run[]): string => mib(median(xs.map((x) => x.peakKiB))).toFixed(0);
  return [
    {
      figure: "k-warm",
      subject: "yaoc check --cache, 5,000 unchanged realistic 4 KiB packages, warm cache",
      yardstick: "yaoc check without the cache on the same tree",
      ratio: warmRatio.median,
      spread: warmRatio,
      target: "≥ 10",
      ...judged(warmRatio.median, warmRatio, 10, true),
      detail: `${ms(warm)} ms vs ${ms(uncached)} ms; CPU time ${cpu(warm)} vs ${cpu(uncached)} ms, ratio ${cpuWarm.toFixed(2)}`,
    },
    {
      figure: "k-cold",
      subject: "yaoc check --cache, the same tree, empty cache (every entry written)",
      yardstick: "yaoc check without the cache",
      ratio: coldRatio.median,
      spread: coldRatio,
      target: "≤ 1.10",
      ...judged(coldRatio.median, coldRatio, 1.1, false),
      detail: `${ms(cold)} ms vs ${ms(uncached)} ms; CPU time ${cpu(cold)} vs ${cpu(uncached)} ms, ratio ${cpuCold.toFixed(2)}`,
    },
    {
      figure: "m-200",
      subject: "peak RSS of yaoc check (human output), 200 packages of 64 KiB",
      yardstick: "120 MiB",
      ratio: rss200.median,
      spread: rss200,
      target: "≤ 1",
      ...judged(rss200.median, rss200, 1, false),
      detail: `${peak(m200)} MiB (min ${mib(m200.reduce((a, x) => Math.min(a, x.peakKiB), Infinity)).toFixed(0)}, max ${mib(m200.reduce((a, x) => Math.max(a, x.peakKiB), -Infinity)).toFixed(0)})`,
    },
    {
      figure: "m-5000",
      subject: "peak RSS of yaoc check (human output), 5,000 packages of 4 KiB",
      yardstick: "the 200-package peak of m-200 in the same round",
      ratio: rss5000.median,
      spread: rss5000,
      target: "≤ 1.2",
      ...judged(rss5000.median, rss5000, 1.2, false),
      detail: `${peak(uncached)} MiB vs ${peak(m200)} MiB; against 200 of the same 4 KiB packages (${peak(m200small)} MiB): ${sameSize.median.toFixed(2)} (${sameSize.min.toFixed(2)}–${sameSize.max.toFixed(2)})`,
    },
  ];
}

/** Figure l: `--watch` on 1,000 packages, one file changed → the summary line of its run. */
export async function watchFigure(o: RegistryBenchOptions, rounds: number): Promise<Row> {
  const tree = join(o.tmp, "l-1000");
  generate(tree, 1000, 4096 - 512);
  const child: ChildProcess = spawn(
    process.execPath,
    [join(o.repo, "bin", "yaoc.js"), "check", "--watch", "--cache-dir", join(o.tmp, "l-cache"), tree],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let summaries = 0;
  let waiting: { n: number; resolve: () => void } | null = null;
  let tail = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => {
    const text = tail + d;
    const lines = text.split("\n");
    tail = lines.pop()!;
    for (const line of lines) if (/^\d+ packages? checked: /.test(line)) summaries++;
    if (waiting !== null && summaries >= waiting.n) {
      const w = waiting;
      waiting = null;
      w.resolve();
    }
  });
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const until = (n: number): Promise<void> =>
    new Promise((resolve, reject) => {
      if (summaries >= n) return resolve();
      const timer = setTimeout(() => reject(new Error(`--watch gave no run ${n} in 120 s: ${stderr}`)), 120_000);
      waiting = {
        n,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
    });
  const latencies: number[] = [];
  try {
    await until(1);
    // Watching starts before the first run; give the watcher a moment past its ready event.
    await new Promise((r) => setTimeout(r, 500));
    for (let r = 0; r < rounds + 2; r++) {
      const file = join(tree, `p${String((r * 37) % 1000).padStart(5, "0")}.hns`);
      const t0 = performance.now();
      appendFileSync(file, `\n;; edit ${r}\n`);
      await until(r + 2);
      if (r >= 2) latencies.push(performance.now() - t0); // two untimed edits first
      await new Promise((res) => setTimeout(res, 100));
    }
  } finally {
    child.kill("SIGINT");
  }
  const s = spreadOf(latencies.map((ms) => ms / 100));
  return {
    figure: "l",
    subject:
      "yaoc check --watch, 1,000 packages of 4 KiB: one file of one package changed → the summary line of its run",
    yardstick: "100 ms",
    ratio: s.median,
    spread: s,
    target: "≤ 1",
    ...judged(s.median, s, 1, false),
    detail: `${median(latencies).toFixed(0)} ms (min ${latencies.reduce((a, x) => Math.min(a, x), Infinity).toFixed(0)}, max ${latencies.reduce((a, x) => Math.max(a, x), -Infinity).toFixed(0)}); includes the 25 ms settle time and printing all 1,000 results`,
  };
}
