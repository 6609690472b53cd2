/**
 * What every figure of `npm run bench` (bench/run.ts, bench/lsp.ts) measures with: the row it
 * reports, the one alternating-rounds loop, the per-call timer and the statistics over rounds.
 * A module of its own because run.ts imports lsp.ts (and runs its main when loaded).
 */

/** One figure of results.json and of docs/performance.md. */
export interface Row {
  readonly figure: string;
  readonly subject: string;
  readonly yardstick: string;
  readonly ratio: number;
  readonly target?: string;
  readonly met?: boolean;
  /** Per-round ratios (same orientation as `ratio`) when the figure alternates rounds. */
  readonly spread?: Spread;
  /** True when the spread lies on both sides of the target: one run cannot decide it. */
  readonly straddles?: boolean;
  readonly detail: string;
  /**
   * The same figure in an earlier run of the same commit (bench/run.ts): its median, and whether
   * this run's median lies within that run's spread.
   */
  readonly reproduced?: { readonly previous_ts: string; readonly previous: number; readonly within: boolean };
}

/** min / median / max of per-round ratios and how many rounds they came from. */
export interface Spread {
  readonly min: number;
  readonly median: number;
  readonly max: number;
  readonly rounds: number;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export function spreadOf(xs: readonly number[]): Spread {
  return {
    min: xs.reduce((a, b) => Math.min(a, b), Infinity),
    median: median(xs),
    max: xs.reduce((a, b) => Math.max(a, b), -Infinity),
    rounds: xs.length,
  };
}

/**
 * A full collection before each timed round when the bench runs with `--expose-gc` (npm run bench
 * does): otherwise the garbage one side leaves behind is collected in whichever round comes next,
 * often the other side's, which spread single figures over 0.17–2.8× of their median.
 */
const collect = (globalThis as { gc?: () => void }).gc;

/**
 * ms per call of f, timed over enough calls to last ≥ minMs. A promise that f returns is awaited
 * inside the timed loop; a synchronous f is called back to back, with no await between calls.
 * With `warmMs`, f is first called untimed for that long after the collection: a forced full
 * collection can drop optimized code whose object shapes had no live instance (bench/eval.ts), and
 * a side whose calls are long would otherwise pay the re-optimization with fewer calls to spread
 * it over than a side whose calls are short.
 */
export async function timeRound(f: () => unknown, minMs = 30, warmMs = 0): Promise<number> {
  collect?.();
  if (warmMs > 0) {
    const warm = performance.now();
    do {
      const v = f();
      if (v instanceof Promise) await v;
    } while (performance.now() - warm < warmMs);
  }
  let reps = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    const v = f();
    if (v instanceof Promise) await v;
    reps++;
    elapsed = performance.now() - start;
  } while (elapsed < minMs);
  return elapsed / reps;
}

/**
 * The one alternating loop: each round calls every sampler once, in order, and keeps the ms it
 * returns, so machine load in any stretch of the run falls on every side alike. Returns the
 * samples of each sampler, one per round. Warm-up, when a figure wants it, is the caller's.
 */
export async function alternateRounds(
  samplers: readonly (() => number | Promise<number>)[],
  rounds: number,
): Promise<number[][]> {
  const t: number[][] = samplers.map(() => []);
  for (let r = 0; r < rounds; r++) for (const [i, s] of samplers.entries()) t[i]!.push(await s());
  return t;
}

/** Round-by-round ratio of two samplers' results (the same round's samples over each other). */
export function roundRatios(numerator: readonly number[], denominator: readonly number[]): number[] {
  return numerator.map((x, r) => x / denominator[r]!);
}

/** Wall time per call of a function, and how much of it the main thread spent paused for garbage collection. */
export interface PausedTime {
  readonly ms: number;
  readonly gcMs: number;
}

/**
 * ms per call of f over `reps` back-to-back calls, and the collector's pauses on this thread in
 * that stretch (PerformanceObserver "gc" entries, delivered after the fact and matched to the
 * stretch by their start times). Used to tell a figure's growth in the code from growth in the
 * collector's work: a tree that stays live while it is built is copied by every scavenge.
 */
export async function timeWithPauses(f: () => unknown, reps: number): Promise<PausedTime> {
  const { PerformanceObserver } = await import("node:perf_hooks");
  const pauses: { start: number; duration: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pauses.push({ start: e.startTime, duration: e.duration });
  });
  observer.observe({ entryTypes: ["gc"] });
  collect?.();
  const start = performance.now();
  for (let i = 0; i < reps; i++) f();
  const end = performance.now();
  // Entries arrive on a later turn of the event loop.
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  const gcMs = pauses.filter((p) => p.start >= start && p.start <= end).reduce((sum, p) => sum + p.duration, 0);
  return { ms: (end - start) / reps, gcMs: gcMs / reps };
}
