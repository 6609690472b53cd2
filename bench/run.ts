/**
 * `npm run bench` (`-- --quick` for a short run): every figure is a ratio measured side by side in
 * one run on the same input — subject and yardstick alternate round by round and the figure is the
 * median of the per-round ratios, so machine speed and background load cancel out as far as they
 * can. Written to bench/results.json (evidence_class "measured") and printed as a table.
 *
 * (a) reader vs the hand-written baselines in bench/baselines/ (a1: the one building the same tree,
 *     at 16, 64 and 256 KiB of realistic text; a2: the bare-tree one) and vs JSON.parse (a3);
 * (b) end-to-end check (load + analysis + identity) of generated packages, 1 KiB … 256 KiB;
 * (c) scaling: reader time at 10× and 100× the input over 1× (linear ≈ 10 and 100), and the full
 *     check at 256 KiB over 16 KiB (c-check);
 * (d) cold `yaoc check small.hns` wall time over `node -e 0`;
 * (e) SHA-256 of @noble/hashes vs node:crypto on canonical bytes;
 * (g) minified browser bundle (npm run build:browser): initial load over its 400 KiB budget;
 * (h) language server (bench/lsp.ts): through the real `yaoc lsp` process, didChange of one
 *     character in a 256 KiB package → publishDiagnostics for that version, vs a full cold
 *     `yaoc check` of the same package; `--lsp` runs only this figure and prints it without
 *     writing results.json;
 * (i) `yaoc check --jobs 2` vs `--jobs 1` through the CLI on 200 packages of 64 KiB, with the
 *     ceiling any two-way split reaches on this machine and each run's peak RSS;
 * (j) with `--baseline DIR`: a warm 256 KiB check against another build; (n) the same with
 *     `--yardstick DIR`, the build of main kept as issue 29's yardstick;
 * (k, l, m) bench/registry.ts: the result cache, watch mode and peak memory at registry scale.
 * (o-eval, o-step, o-state) bench/eval.ts: the evaluator against compilation, its step cost in
 *     program size and its state size in live bindings; `--eval` (the same as `--only o`) measures
 *     only these and merges them into results.json like any partial run.
 * A figure measured by an earlier run of the same commit is compared with it: `reproduced` says
 * whether this run's median lies within that run's spread (issue 19: figures must hold run to run).
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { portableSha256, sha256Hex } from "../src/canonical/hash.js";
import { installNodeSha256 } from "../src/canonical/node-hash.js";
import { installNodeUtf8 } from "../src/syntax/node-decoder.js";
import { MemoryFs } from "../src/fs/memory-fs.js";
import { check } from "../src/check/check.js";
import { readAll } from "../src/syntax/reader.js";
import { evalFigures } from "./eval.js";
import { lspFigures } from "./lsp.js";
import { SURFACE_FIGURES, surfaceFigures } from "./surfaces.js";
import { cacheAndMemoryFigures, watchFigure } from "./registry.js";
import { minimalRead } from "./baselines/minimal-reader.js";
import {
  alternateRounds,
  median,
  type Row,
  roundRatios,
  type Spread,
  spreadOf,
  timeRound,
  timeWithPauses,
} from "./measure.js";
import { spanRead } from "./baselines/span-reader.js";
import { corpus, hnsPackage, readerCorpus } from "./inputs.js";
import { renderPerformanceDoc } from "./render.js";
import { withReproduction } from "./reproduction.js";
import { writePartialResults } from "./partial.js";
import type { ProcessUsage } from "./peak-rss.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, "..", "..");
const QUICK = process.argv.includes("--quick");
const enc = new TextEncoder();
const dec = new TextDecoder();

/** Rounds per side-by-side figure: at least 15 (issue 19), more in a full run. */
const ROUNDS = QUICK ? 15 : 21;

/**
 * Alternate the functions round by round (each round: ≥ 30 ms of calls of each) after three
 * untimed calls of each; return the median ms of each and, for each, the median per-round speed
 * ratio of the first (the subject) over it: > 1 means the subject is faster; with the spread of
 * those per-round ratios.
 */
async function sideBySide(
  fs: readonly (() => unknown)[],
  rounds = ROUNDS,
  sample: { readonly minMs?: number; readonly warmMs?: number } = {},
): Promise<{ ms: number[]; ratio: number[]; spread: Spread[] }> {
  for (const f of fs) for (let i = 0; i < 3; i++) await f();
  const t = await alternateRounds(
    fs.map((f) => () => timeRound(f, sample.minMs, sample.warmMs)),
    rounds,
  );
  const perRound = t.map((ti) => roundRatios(ti, t[0]!));
  return { ms: t.map(median), ratio: perRound.map(median), spread: perRound.map(spreadOf) };
}

// ---------------------------------------------------------------------------------------------
// Inputs

async function checkText(text: string | Uint8Array): Promise<boolean> {
  const r = await check(MemoryFs.from({ "/p.hns": text }), "/p.hns");
  return r.valid;
}

// ---------------------------------------------------------------------------------------------

/** Met / straddles for a "ratio ≥ t" or "ratio ≤ t" target, judged on the median, the spread reported. */
function judged(ratio: number, spread: Spread, target: number, atLeast: boolean): { met: boolean; straddles: boolean } {
  const ok = (x: number): boolean => (atLeast ? x >= target : x <= target);
  return { met: ok(ratio), straddles: ok(spread.min) !== ok(spread.max) };
}

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function gitCommit(): string {
  const r = spawnSync("git", ["rev-parse", "HEAD"], { cwd: REPO, encoding: "utf8" });
  // The code the figures measure; results.json itself is the bench's output, not its code.
  const measured = ["src", "grammar", "ir", "bench", ":(exclude)bench/results.json"];
  const dirty =
    spawnSync("git", ["status", "--porcelain", "--", ...measured], { cwd: REPO, encoding: "utf8" }).stdout.trim() !==
    "";
  return r.status === 0 ? `${r.stdout.trim()}${dirty ? "+dirty" : ""}` : "unknown";
}

/** A `yaoc check` run of figure i: its wall time, and the peak RSS (KiB) and CPU time (ms, every thread) of its process. */
interface CheckRun {
  readonly ms: number;
  readonly peakKiB: number;
  readonly cpuMs: number;
}

const PEAK_RSS = pathToFileURL(join(HERE, "peak-rss.js")).href;

/** Run `yaoc check --format json --jobs N dir` as users do, with bench/peak-rss.ts preloaded. */
function checkRun(dir: string, jobs: number, rssFile: string): Promise<CheckRun> {
  const bin = join(REPO, "bin", "yaoc.js");
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", PEAK_RSS, bin, "check", "--format", "json", "--jobs", String(jobs), dir],
      { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, YAOC_BENCH_PEAK_RSS: rssFile } },
    );
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const ms = performance.now() - t0;
      if (code !== 0) reject(new Error(`yaoc check --jobs ${jobs} ${dir} exited ${code}: ${stderr}`));
      else {
        const usage = JSON.parse(readFileSync(rssFile, "utf8")) as ProcessUsage;
        resolve({ ms, peakKiB: usage.maxRssKiB, cpuMs: usage.cpuMs });
      }
    });
  });
}

/**
 * (i): 200 packages of 64 KiB in one `yaoc check` through the CLI, `--jobs 2` vs `--jobs 1`,
 * alternating whole runs (process and worker start-up are part of what users wait for); packages
 * are generated once, outside the timed region. In the same rounds, `i-split` times two independent
 * `--jobs 1` processes started together on a hundred packages each: no pool shares less than that,
 * so it is the most any two-way split reaches on this machine, and it says whether a miss of i is the
 * pool's or the machine's. `i-rss-1` / `i-rss-2` are the peak RSS of the runs against 120 MiB.
 */
async function parallelCheckFigures(tmp: string): Promise<Row[]> {
  const n = 200;
  const dir = join(tmp, "many");
  const halves = [join(tmp, "half-a"), join(tmp, "half-b")];
  for (const d of [dir, ...halves]) mkdirSync(d, { recursive: true });
  for (let i = 0; i < n; i++) {
    const text = hnsPackage(64 * 1024 - 6144, i);
    const name = `p${String(i).padStart(4, "0")}.hns`;
    writeFileSync(join(dir, name), text);
    writeFileSync(join(halves[i % 2]!, name), text);
  }
  const rss = join(tmp, "peak-rss");
  let runs: Record<"one" | "two", CheckRun[]> = { one: [], two: [] };
  const run = async (jobs: number): Promise<number> => {
    const r = await checkRun(dir, jobs, rss);
    runs[jobs === 1 ? "one" : "two"].push(r);
    return r.ms;
  };
  const split = async (): Promise<number> => {
    const t0 = performance.now();
    await Promise.all(halves.map((h, k) => checkRun(h, 1, `${rss}-${k}`)));
    return performance.now() - t0;
  };
  await run(1);
  await run(2);
  await split();
  runs = { one: [], two: [] };
  const [one, two, halvesMs] = await alternateRounds([() => run(1), () => run(2), split], ROUNDS);
  const spread = spreadOf(roundRatios(one!, two!));
  const splitSpread = spreadOf(roundRatios(one!, halvesMs!));
  const mibOf = (kib: number): number => kib / 1024;
  const rssRow = (jobs: 1 | 2, kib: readonly number[]): Row => {
    const s = spreadOf(kib.map((k) => mibOf(k) / 120));
    const inMiB = spreadOf(kib.map(mibOf));
    return {
      figure: `i-rss-${jobs}`,
      subject: `peak RSS of yaoc check --jobs ${jobs}, ${n} packages of 64 KiB`,
      yardstick: "120 MiB",
      ratio: s.median,
      spread: s,
      target: "≤ 1",
      ...judged(s.median, s, 1, false),
      detail: `${inMiB.median.toFixed(0)} MiB (min ${inMiB.min.toFixed(0)}, max ${inMiB.max.toFixed(0)})`,
    };
  };
  // What bounds i here: --jobs 1 already keeps more than one core busy (V8 collects garbage and
  // compiles on threads of its own), and --jobs 2 spends more CPU in all (a second isolate loads,
  // compiles and warms up the checker again). Whatever the pool does, --jobs 2 cannot end before
  // its CPU time spread over the cores, so wall(1) / (cpu(2) / cores) bounds i round by round.
  const cores = availableParallelism();
  const busy = spreadOf(runs.one.map((r) => r.cpuMs / r.ms));
  const cpuRatio = spreadOf(runs.two.map((r, k) => r.cpuMs / runs.one[k]!.cpuMs));
  const ceiling = spreadOf(runs.one.map((r, k) => r.ms / (runs.two[k]!.cpuMs / cores)));
  const cpuMs = (xs: readonly CheckRun[]): string => median(xs.map((r) => r.cpuMs)).toFixed(0);
  return [
    {
      figure: "i",
      subject: `yaoc check --jobs 2, ${n} packages of 64 KiB`,
      yardstick: "yaoc check --jobs 1 on the same directory",
      ratio: spread.median,
      spread,
      // The 1.7 target is retired (issue 29): one thread already keeps ~1.2 of 2 cores busy, so the
      // figure stays, with its ceiling, and no target.
      detail: `${median(two!).toFixed(0)} ms vs ${median(one!).toFixed(0)} ms (${cores} cores); the retired target was ≥ 1.7; at most ${ceiling.median.toFixed(2)} for the CPU --jobs 2 spends (i-ceiling)`,
    },
    {
      figure: "i-cpu",
      subject: `CPU time of yaoc check --jobs 2, ${n} packages of 64 KiB (every thread)`,
      yardstick: "CPU time of yaoc check --jobs 1",
      ratio: cpuRatio.median,
      spread: cpuRatio,
      detail: `${cpuMs(runs.two)} vs ${cpuMs(runs.one)} CPU ms; --jobs 1 keeps ${busy.median.toFixed(2)} cores busy (min ${busy.min.toFixed(2)}, max ${busy.max.toFixed(2)}): V8's collector and compiler threads`,
    },
    {
      figure: "i-ceiling",
      subject: `the most --jobs 2 can reach with the CPU it spends: wall(--jobs 1) / (CPU(--jobs 2) / ${cores} cores)`,
      yardstick: "yaoc check --jobs 1",
      ratio: ceiling.median,
      spread: ceiling,
      detail: `a figure i at this ceiling leaves no core idle; above 1.7 needs less CPU per package and per isolate, not a better pool`,
    },
    {
      figure: "i-split",
      subject: `two independent yaoc check --jobs 1 processes at once, ${n / 2} packages each`,
      yardstick: "yaoc check --jobs 1 on all of them",
      ratio: splitSpread.median,
      spread: splitSpread,
      detail: `${median(halvesMs!).toFixed(0)} ms vs ${median(one!).toFixed(0)} ms: the ceiling of any two-way split here`,
    },
    rssRow(
      1,
      runs.one.map((r) => r.peakKiB),
    ),
    rssRow(
      2,
      runs.two.map((r) => r.peakKiB),
    ),
  ];
}

/**
 * (j): a warm check of the 256 KiB package with this build vs the same library call of another
 * build (`--baseline DIR`: a checkout of e.g. the previous commit, built with `npm run build`),
 * both loaded into this process and alternating, so the figure is a same-run ratio.
 */
async function baselineFigure(dir: string, figure: "j" | "n"): Promise<Row> {
  const { MemoryFs: OldFs } = (await import(
    pathToFileURL(join(dir, "dist/src/fs/memory-fs.js")).href
  )) as typeof import("../src/fs/memory-fs.js");
  // The library facade, which every build has: `check` with its default, the full analysis.
  const { check: oldCheck } = (await import(
    pathToFileURL(join(dir, "dist/src/check/check.js")).href
  )) as typeof import("../src/check/check.js");
  // The other build's modules have their own hash module: give it node:crypto too, as this build's
  // library figures have (main), or the yardstick would pay the portable SHA-256 alone.
  const oldHash = join(dir, "dist/src/canonical/node-hash.js");
  if (existsSync(oldHash))
    ((await import(pathToFileURL(oldHash).href)) as typeof import("../src/canonical/node-hash.js")).installNodeSha256();
  const text = enc.encode(hnsPackage(256 * 1024 - 6144));
  const now = () => checkText(text);
  const old = async () => (await oldCheck(OldFs.from({ "/p.hns": text }), "/p.hns")).valid;
  const ours = await check(MemoryFs.from({ "/p.hns": text }), "/p.hns");
  const theirs = await oldCheck(OldFs.from({ "/p.hns": text }), "/p.hns");
  if (!ours.valid || ours.identity !== theirs.identity)
    throw new Error(`baseline check differs: ${ours.identity} vs ${theirs.identity}`);
  // Steady state, as a registry or a watch process checks: each round starts with the bench's full
  // collection, after which V8 may drop optimised code whose object shapes died (one build keeps
  // its last objects alive, d522043, the yardstick does not), so both builds get 100 ms of checks
  // to re-optimise before 300 ms are timed. With no warm-up and 30 ms rounds the figure measured
  // mostly that difference (docs/performance.md, "Where issue 29's figure n stands").
  const s = await sideBySide([now, old], ROUNDS, { minMs: 300, warmMs: 100 });
  // A checkout names its commit; an unpacked `git archive` has only its directory name.
  const commit =
    spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: dir, encoding: "utf8" }).stdout?.trim() || basename(dir);
  return {
    figure,
    subject: `warm check of a ${text.length} B package (this build)`,
    yardstick: `the same check with the build in ${dir} (${commit})`,
    ratio: s.ratio[1]!,
    spread: s.spread[1]!,
    target: "≥ 1.5",
    ...judged(s.ratio[1]!, s.spread[1]!, 1.5, true),
    detail: `${s.ms[0]!.toFixed(2)} ms vs ${s.ms[1]!.toFixed(2)} ms; same identity`,
  };
}

/** (g) browser bundle size (npm run build:browser): initial load over the 400 KiB budget. */
function browserBundleFigure(): Row {
  const built = spawnSync(process.execPath, [join(REPO, "scripts", "build-browser.mjs"), "--json"], {
    encoding: "utf8",
  });
  if (built.status !== 0 && built.stdout === "") throw new Error(`build:browser failed: ${built.stderr}`);
  const size = JSON.parse(built.stdout) as {
    bytes: number;
    limit: number;
    totalBytes: number;
    top: { name: string; bytes: number }[];
  };
  const kib = (b: number) => `${(b / 1024).toFixed(1)} KiB`;
  // A build's size does not vary from round to round: one round, min = median = max.
  const gRatio = size.bytes / size.limit;
  return {
    figure: "g",
    subject: `browser bundle, initial load ${kib(size.bytes)}`,
    yardstick: `the ${kib(size.limit)} budget (all lazy chunks: ${kib(size.totalBytes)})`,
    ratio: gRatio,
    spread: { min: gRatio, median: gRatio, max: gRatio, rounds: 1 },
    target: "≤ 1",
    met: size.bytes <= size.limit,
    detail: size.top
      .slice(0, 3)
      .map((t) => `${t.name} ${kib(t.bytes)}`)
      .join(", "),
  } as Row;
}

/**
 * `--only GROUPS`: only the figure groups named (g, h, k — which also gives m —, l, n with
 * `--yardstick DIR`, o, s for issue 35's surfaces, or one surface figure by name such as
 * s-params), merged into results.json by bench/partial.ts; every other row keeps the run that
 * measured it.
 */
async function partialRun(groups: readonly string[], commit: string, loadBefore: number[]): Promise<void> {
  const known = ["g", "h", "k", "l", "n", "o", "s"];
  const surfaces = groups.filter((g) => (SURFACE_FIGURES as readonly string[]).includes(g));
  const unknown = groups.filter((g) => !known.includes(g) && !surfaces.includes(g));
  if (unknown.length > 0 || groups.length === 0)
    throw new Error(`--only takes some of ${[...known, ...SURFACE_FIGURES].join(",")}; not ${unknown.join(",")}`);
  const yardstick = argValue("--yardstick");
  if (groups.includes("n") && yardstick === undefined) throw new Error("--only n needs --yardstick DIR");
  const rows: Row[] = [];
  const tmp = mkdtempSync(join(tmpdir(), "yaoc-bench-"));
  try {
    const registry = { repo: REPO, tmp, quick: QUICK, peakRss: join(HERE, "peak-rss.js"), rounds: QUICK ? 3 : 5 };
    if (groups.includes("g")) rows.push(browserBundleFigure());
    if (groups.includes("h")) for (const row of await lspFigures(REPO, tmp, QUICK)) rows.push(row);
    if (groups.includes("k")) for (const row of await cacheAndMemoryFigures(registry)) rows.push(row);
    if (groups.includes("l")) rows.push(await watchFigure(registry, ROUNDS));
    if (groups.includes("n") && yardstick !== undefined) rows.push(await baselineFigure(yardstick, "n"));
    if (groups.includes("o")) for (const row of await evalFigures(ROUNDS)) rows.push(row);
    // Issue 35's surfaces (bench/surfaces.ts): s-params, s-refs, s-rename, s-depth, s-width, s-entries,
    // s-rss; `--only s-params` (any of those names) measures just the figures named.
    if (groups.includes("s") || surfaces.length > 0)
      for (const row of await surfaceFigures(REPO, tmp, QUICK ? 5 : 9, groups.includes("s") ? undefined : surfaces))
        rows.push(row);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const resultsPath = join(REPO, "bench", "results.json");
  const merged = writePartialResults(resultsPath, rows, {
    commit,
    loadBefore,
    loadAfter: loadavg(),
    quick: QUICK,
    rounds: ROUNDS,
    groups,
  });
  // By figure: a row compared with an earlier run of the same commit comes back as a new object
  // (bench/reproduction.ts), and was not printed at all when this looked for the measured objects.
  const measuredFigures = new Set(rows.map((r) => r.figure));
  for (const r of merged.filter((m) => measuredFigures.has(m.figure)))
    process.stdout.write(
      `${r.figure}: ${r.ratio.toFixed(3)} [${r.spread ? `${r.spread.min.toFixed(3)}–${r.spread.max.toFixed(3)} over ${r.spread.rounds}` : "no spread"}] ${r.target ?? ""} ${r.met === undefined ? "" : r.met ? "met" : "NOT met"} — ${r.detail}\n`,
    );
  process.stdout.write(
    `load average before ${loadBefore.map((x) => x.toFixed(2)).join(" ")}, after ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}\n`,
  );
  renderPerformanceDoc(resultsPath, join(REPO, "docs", "performance.md"));
  process.stdout.write("merged into bench/results.json and docs/performance.md\n");
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  if (process.argv.includes("--lsp")) {
    // Only figure (h), printed and not written (a partial run must not replace results.json).
    const tmp = mkdtempSync(join(tmpdir(), "yaoc-bench-"));
    try {
      process.stdout.write(`${JSON.stringify(await lspFigures(REPO, tmp, QUICK), null, 2)}\n`);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
    return;
  }
  if (process.argv.includes("--surfaces")) {
    // Only figures s-* (bench/surfaces.ts, issue 35), printed and not written, like --lsp.
    const tmp = mkdtempSync(join(tmpdir(), "yaoc-bench-"));
    try {
      process.stdout.write(`${JSON.stringify(await surfaceFigures(REPO, tmp, QUICK ? 5 : ROUNDS), null, 2)}\n`);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
    return;
  }
  // The CLI hashes with node:crypto and decodes large sources with Node's UTF-8 code (bin.ts); the
  // library figures below do the same.
  installNodeSha256();
  installNodeUtf8();
  const loadBefore = loadavg();
  // Read before measuring: a commit made while the bench runs must not be credited with its figures.
  const commit = gitCommit();
  // `--eval` is `--only o`: the evaluator's figures, merged into results.json like other partial runs.
  const only = argValue("--only") ?? (process.argv.includes("--eval") ? "o" : undefined);
  if (only !== undefined) return partialRun(only.split(","), commit, loadBefore);
  const mib = (bytes: number, ms: number): string => `${(bytes / 1048576 / (ms / 1000)).toFixed(1)} MiB/s`;

  // (a) reader: a1 against the hand-written reader that builds the same tree (issue 19's yardstick),
  // on realistic text at three sizes; a2 against the bare-tree reader; a3 against JSON.parse.
  for (const kib of [16, 64, 256]) {
    const bytes = enc.encode(readerCorpus(kib * 1024 - (kib >= 64 ? 6144 : 512)));
    const bare = kib === 64 ? [() => minimalRead(dec.decode(bytes))] : [];
    const a = await sideBySide([() => readAll(bytes), () => spanRead(dec.decode(bytes)), ...bare]);
    rows.push({
      figure: `a1-${kib}k`,
      subject: `readAll, ${bytes.length} B of realistic Yao (bytes → tree with spans)`,
      yardstick: "minimal hand-written reader building the same tree (baselines/span-reader.ts)",
      ratio: a.ratio[1]!,
      spread: a.spread[1]!,
      target: "≥ 0.5",
      ...judged(a.ratio[1]!, a.spread[1]!, 0.5, true),
      detail: `${mib(bytes.length, a.ms[0]!)} vs ${mib(bytes.length, a.ms[1]!)}`,
    });
    if (bare.length > 0)
      rows.push({
        figure: "a2",
        subject: `readAll, ${bytes.length} B of realistic Yao`,
        yardstick: "bare-tree hand-written reader: arrays and strings, no spans (baselines/minimal-reader.ts)",
        ratio: a.ratio[2]!,
        spread: a.spread[2]!,
        detail: `${mib(bytes.length, a.ms[0]!)} vs ${mib(bytes.length, a.ms[2]!)}`,
      });
  }
  const { yao, json } = corpus(200 * 1024);
  const yaoBytes = enc.encode(yao);
  const a3 = await sideBySide([() => readAll(yaoBytes), () => JSON.parse(json)]);
  rows.push({
    figure: "a3",
    subject: "readAll of the nested-list corpus",
    yardstick: "JSON.parse of the same tree as JSON",
    ratio: a3.ratio[1]!,
    spread: a3.spread[1]!,
    detail: `${mib(yaoBytes.length, a3.ms[0]!)} vs ${mib(json.length, a3.ms[1]!)} (${json.length} JSON bytes)`,
  });

  // (b) end-to-end check
  for (const kib of [1, 16, 64, 256]) {
    const text = enc.encode(hnsPackage(kib * 1024 - (kib >= 64 ? 6144 : 512)));
    if (!(await checkText(text))) throw new Error(`generated ${kib} KiB package does not check`);
    // Check and hash alternate round by round, like every other figure: ratio and spread are the
    // per-round hash time over check time; the target is on the check's median time.
    const b = await sideBySide([() => checkText(text), () => sha256Hex(text)]);
    const ms = b.ms[0]!;
    const target = kib === 256 ? "≤ 25 ms warm" : undefined;
    rows.push({
      figure: `b-${kib}k`,
      subject: `check ${text.length} B package`,
      yardstick: "SHA-256 (node:crypto, as the CLI) of the same bytes",
      ratio: b.ratio[1]!,
      spread: b.spread[1]!,
      ...(target ? { target, met: ms <= 25 } : {}),
      detail: `${ms.toFixed(2)} ms, ${mib(text.length, ms)}, ${(1000 / ms).toFixed(0)} packages/s`,
    });
  }

  // (c) scaling of the reader (limits raised so 100× fits)
  const base = corpus(20 * 1024).yao;
  const x10 = corpus(200 * 1024).yao;
  const x100 = corpus(2000 * 1024).yao;
  const big = { maxBytes: 64 << 20 };
  // The same-tree hand-written reader's growth, in the same rounds: what building a tree of that
  // size costs V8 (live trees are copied and promoted by the collector), whoever builds it.
  const c = await sideBySide([
    () => readAll(base, big),
    () => readAll(x10, big),
    () => readAll(x100, big),
    () => spanRead(base),
    () => spanRead(x10),
    () => spanRead(x100),
  ]);
  // Where the growth goes: readAll again at each size with the collector's pauses counted, so the
  // detail says how much of it is the reader's own work (outside the pauses) and how much the
  // collector's (the tree under construction is live, and every scavenge copies it).
  const paused = [
    await timeWithPauses(() => readAll(base, big), 200),
    await timeWithPauses(() => readAll(x10, big), 20),
    await timeWithPauses(() => readAll(x100, big), QUICK ? 3 : 5),
  ];
  const gcNote = (k: 1 | 2, by: number): string => {
    const share = (p: (typeof paused)[number]): string => `${((100 * p.gcMs) / p.ms).toFixed(0)}%`;
    const outside = (paused[k]!.ms - paused[k]!.gcMs) / (paused[0]!.ms - paused[0]!.gcMs) / by;
    return `; collector pauses ${share(paused[k]!)} of readAll's time here, ${share(paused[0]!)} at 1×; outside them ${outside.toFixed(2)} of linear`;
  };
  const hand = (k: number, by: number): string =>
    `; the same-tree hand-written reader: ${(c.ms[k]! / c.ms[3]! / by).toFixed(2)} of linear (median times)`;
  const s10 = c.ratio[1]! / (x10.length / base.length); // ratio[i] = t_i / t_1x
  const s100 = c.ratio[2]! / (x100.length / base.length);
  const scaled = (sp: Spread, by: number): Spread => ({
    min: sp.min / by,
    median: sp.median / by,
    max: sp.max / by,
    rounds: sp.rounds,
  });
  const sp10 = scaled(c.spread[1]!, x10.length / base.length);
  const sp100 = scaled(c.spread[2]!, x100.length / base.length);
  rows.push({
    figure: "c10",
    subject: "readAll at 10× input",
    yardstick: "readAll at 1× (20 KiB), size-normalised",
    ratio: s10,
    spread: sp10,
    target: "≤ 1.2 of linear",
    ...judged(s10, sp10, 1.2, false),
    detail: `time ratio ${(c.ratio[1]!).toFixed(1)} for ${(x10.length / base.length).toFixed(1)}× bytes${hand(4, x10.length / base.length)}${gcNote(1, x10.length / base.length)}`,
  });
  rows.push({
    figure: "c100",
    subject: "readAll at 100× input",
    yardstick: "readAll at 1× (20 KiB), size-normalised",
    ratio: s100,
    spread: sp100,
    target: "≤ 1.2 of linear",
    ...judged(s100, sp100, 1.2, false),
    detail: `time ratio ${(c.ratio[2]!).toFixed(1)} for ${(x100.length / base.length).toFixed(1)}× bytes${hand(5, x100.length / base.length)}${gcNote(2, x100.length / base.length)}`,
  });
  // Growth of the full check (load, analysis, identity), not just the reader: 256 KiB over 16 KiB.
  const small16 = enc.encode(hnsPackage(16 * 1024 - 512));
  const large256 = enc.encode(hnsPackage(256 * 1024 - 6144));
  const g = await sideBySide([() => checkText(small16), () => checkText(large256)]);
  const gBy = large256.length / small16.length;
  const gSpread = scaled(g.spread[1]!, gBy);
  rows.push({
    figure: "c-check",
    subject: `check of a ${large256.length} B package`,
    yardstick: `check of a ${small16.length} B package, size-normalised`,
    ratio: g.ratio[1]! / gBy,
    spread: gSpread,
    target: "≤ 1.2 of linear",
    ...judged(g.ratio[1]! / gBy, gSpread, 1.2, false),
    detail: `time ratio ${g.ratio[1]!.toFixed(1)} for ${gBy.toFixed(1)}× bytes (${g.ms[1]!.toFixed(2)} vs ${g.ms[0]!.toFixed(2)} ms)`,
  });

  // (d) cold CLI start
  const tmp = mkdtempSync(join(tmpdir(), "yaoc-bench-"));
  try {
    const small = join(tmp, "small.hns");
    writeFileSync(small, hnsPackage(1024));
    const bin = join(REPO, "bin", "yaoc.js");
    const wall = (args: string[]): number => {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, args, { stdio: "ignore" });
      if (r.status !== 0 && args[0] === bin) throw new Error(`yaoc check small.hns exited ${r.status}`);
      return performance.now() - t0;
    };
    const [cli, bare] = await alternateRounds([() => wall([bin, "check", small]), () => wall(["-e", "0"])], ROUNDS);
    const dSpread = spreadOf(roundRatios(cli!, bare!));
    const ratio = dSpread.median;
    rows.push({
      figure: "d",
      subject: "cold `yaoc check small.hns`",
      yardstick: "`node -e 0`",
      ratio,
      spread: dSpread,
      target: "≤ 3",
      ...judged(ratio, dSpread, 3, false),
      detail: `${median(cli!).toFixed(0)} ms vs ${median(bare!).toFixed(0)} ms`,
    });

    // (e) SHA-256
    const canonical = enc.encode(hnsPackage(256 * 1024));
    const e = await sideBySide([
      () => portableSha256(canonical),
      () => createHash("sha256").update(canonical).digest("hex"),
    ]);
    rows.push({
      figure: "e",
      subject: "SHA-256 @noble/hashes",
      yardstick: "node:crypto",
      ratio: e.ratio[1]!,
      spread: e.spread[1]!,
      detail: `${mib(canonical.length, e.ms[0]!)} vs ${mib(canonical.length, e.ms[1]!)}`,
    });

    // (g) browser bundle size (npm run build:browser): initial load over the 400 KiB budget
    rows.push(browserBundleFigure());
    // (o) the evaluator (bench/eval.ts)
    for (const row of await evalFigures(ROUNDS)) rows.push(row);
    // (h) language server re-check
    for (const row of await lspFigures(REPO, tmp, QUICK)) rows.push(row);
    // (i) parallel `yaoc check` through the CLI
    for (const row of await parallelCheckFigures(tmp)) rows.push(row);
    // (k, m) the result cache and memory at registry scale; (l) watch mode
    const registry = { repo: REPO, tmp, quick: QUICK, peakRss: join(HERE, "peak-rss.js"), rounds: QUICK ? 3 : 5 };
    for (const row of await cacheAndMemoryFigures(registry)) rows.push(row);
    rows.push(await watchFigure(registry, ROUNDS));
    // (j) warm 256 KiB check against a previous build (`--baseline DIR`)
    const baseline = argValue("--baseline");
    if (baseline !== undefined) rows.push(await baselineFigure(baseline, "j"));
    // (n) the same against the build of main kept as issue 29's yardstick (`--yardstick DIR`)
    const yardstick = argValue("--yardstick");
    if (yardstick !== undefined) rows.push(await baselineFigure(yardstick, "n"));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }

  const loadAfter = loadavg();
  const measureTs = new Date().toISOString();
  const resultsPath = join(REPO, "bench", "results.json");
  const checked = withReproduction(
    rows,
    existsSync(resultsPath) ? readFileSync(resultsPath, "utf8") : undefined,
    commit,
  );
  const results = {
    // Seed 002 §5.1: a measured figure carries where it was measured (the command) and when.
    evidence_class: "measured",
    measure_source: `node dist/bench/run.js ${process.argv.slice(2).join(" ")}`.trim(),
    measure_ts: measureTs,
    source:
      "npm run bench (bench/run.ts); ratios are medians of per-round ratios, subject and yardstick alternating in one process; spread = min/median/max of those per-round ratios",
    timestamp: measureTs,
    commit,
    machine: {
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      cpus: cpus().length,
      cpu: cpus()[0]?.model ?? "?",
    },
    load_average: { before: loadBefore, after: loadAfter },
    quick: QUICK,
    rounds: ROUNDS,
    rows: checked,
  };
  mkdirSync(join(REPO, "bench"), { recursive: true });
  writeFileSync(resultsPath, `${JSON.stringify(results, null, 2)}\n`);

  const w = [6, 44, 8, 18, 6];
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(w[i] ?? 0)).join(" | ");
  process.stdout.write(`${line(["fig", "subject (vs yardstick)", "ratio", "target", "met"])}\n`);
  for (const r of checked) {
    const spread =
      r.spread === undefined
        ? ""
        : ` [${r.spread.min.toFixed(3)}–${r.spread.max.toFixed(3)} over ${r.spread.rounds} rounds]`;
    const met = r.met === undefined ? "" : `${r.met ? "yes" : "NO"}${r.straddles ? " (spread straddles)" : ""}`;
    const again =
      r.reproduced === undefined
        ? ""
        : `; earlier run ${r.reproduced.previous.toFixed(3)}: ${r.reproduced.within ? "reproduced" : "NOT reproduced"} within its spread`;
    process.stdout.write(
      `${line([r.figure, r.subject.slice(0, 44), r.ratio.toFixed(3), r.target ?? "", met])}   ${r.detail}${spread}${again}\n`,
    );
    process.stdout.write(`${"".padEnd(w[0]!)}   vs ${r.yardstick}\n`);
  }
  process.stdout.write(
    `load average before ${loadBefore.map((x) => x.toFixed(2)).join(" ")}, after ${loadAfter.map((x) => x.toFixed(2)).join(" ")}\n`,
  );
  renderPerformanceDoc(join(REPO, "bench", "results.json"), join(REPO, "docs", "performance.md"));
  process.stdout.write(`written to bench/results.json and docs/performance.md\n`);
}

main().catch((e) => {
  process.stderr.write(`bench: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
