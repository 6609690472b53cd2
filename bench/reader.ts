/**
 * Figure (a1) alone, at several sizes: yaoc's `readAll` vs the minimal hand-written reader that
 * builds the same tree (baselines/span-reader.ts), on the same bytes, alternating round by round in
 * one process; and, for reference, vs the bare-tree reader (baselines/minimal-reader.ts: arrays and
 * strings, no spans). `node dist/bench/reader.js [--rounds N]` prints min / median / max of each
 * per-round speed ratio (hand-written time over readAll time: a1's target is ≥ 0.5).
 * `--only NAME` runs the figures whose name contains NAME. `--baseline DIR` also times the readAll
 * of another build (DIR/dist, e.g. a worktree of the previous commit after `npm run build`) in the
 * same rounds, so before and after are compared in one run against the same yardstick.
 * Alternating rounds flatter readAll (part of the garbage collection its trees cause lands in the
 * other rounds); docs/performance.md also gives each reader timed in its own process.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { readAll } from "../src/syntax/reader.js";
import { minimalRead } from "./baselines/minimal-reader.js";
import { spanRead } from "./baselines/span-reader.js";
import { corpus, hnsPackage, readerCorpus } from "./inputs.js";

const enc = new TextEncoder();
const dec = new TextDecoder();
const at = process.argv.indexOf("--rounds");
const ROUNDS = at >= 0 ? Number(process.argv[at + 1]) : 15;

/**
 * ms of process CPU time per call of f over ≥ minMs of it: CPU time rather than wall time, so the
 * other processes of a loaded machine inflate neither side (garbage collection on helper threads
 * still counts, as it should).
 */
function timeOnce(f: () => unknown, minMs = 30): number {
  let reps = 0;
  const start = process.cpuUsage();
  let elapsed = 0;
  do {
    f();
    reps++;
    const d = process.cpuUsage(start);
    elapsed = (d.user + d.system) / 1000;
  } while (elapsed < minMs);
  return elapsed / reps;
}

const only = process.argv.indexOf("--only");
const ONLY = only >= 0 ? process.argv[only + 1]! : "";
const baselineAt = process.argv.indexOf("--baseline");
const baseline: typeof readAll | undefined =
  baselineAt >= 0
    ? (
        (await import(
          pathToFileURL(join(process.argv[baselineAt + 1]!, "dist/src/syntax/reader.js")).href
        )) as typeof import("../src/syntax/reader.js")
      ).readAll
    : undefined;

function spread(xs: readonly number[]): string {
  const s = [...xs].sort((x, y) => x - y);
  return `min ${s[0]!.toFixed(3)}  median ${s[Math.floor(s.length / 2)]!.toFixed(3)}  max ${s[s.length - 1]!.toFixed(3)}`;
}

function figure(name: string, text: string): void {
  if (!name.includes(ONLY)) return;
  const bytes = enc.encode(text);
  const r = readAll(bytes);
  if (!r.ok) throw new Error(`${name}: ${r.diagnostic.message}`);
  const subject = () => readAll(bytes);
  const yardstick = () => spanRead(dec.decode(bytes));
  const bare = () => minimalRead(dec.decode(bytes));
  const before = baseline === undefined ? undefined : () => baseline(bytes);
  for (let i = 0; i < 5; i++) {
    subject();
    yardstick();
    bare();
    before?.();
  }
  const ratios: number[] = [];
  const bareRatios: number[] = [];
  const baseRatios: number[] = [];
  const ours: number[] = [];
  for (let k = 0; k < ROUNDS; k++) {
    const a = timeOnce(subject);
    const b = timeOnce(yardstick);
    ratios.push(b / a);
    bareRatios.push(timeOnce(bare) / a);
    ours.push(a);
    if (before !== undefined) baseRatios.push(b / timeOnce(before));
  }
  const ms = [...ours].sort((x, y) => x - y)[Math.floor(ours.length / 2)]!;
  const mib = bytes.length / 1048576 / (ms / 1000);
  process.stdout.write(
    `${name.padEnd(22)} ${String(bytes.length).padStart(7)} B  ratio ${spread(ratios)}  (${ROUNDS} rounds; readAll ${ms.toFixed(3)} ms, ${mib.toFixed(0)} MiB/s)\n`,
  );
  process.stdout.write(`${"".padEnd(32)}vs bare tree ${spread(bareRatios)}\n`);
  if (before !== undefined) process.stdout.write(`${"".padEnd(32)}baseline ${spread(baseRatios)}\n`);
}

for (const kib of [16, 64, 256]) {
  const budget = kib * 1024 - (kib >= 64 ? 6144 : 512);
  figure(`package ${kib} KiB`, hnsPackage(budget));
  figure(`realistic ${kib} KiB`, readerCorpus(budget));
  figure(`corpus ${kib} KiB`, corpus(budget).yao);
}
