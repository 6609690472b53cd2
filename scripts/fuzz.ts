/**
 * `npm run fuzz -- --seconds N [--target yao|hns|acl|harp|okf|hcp|a3s] [--seed S]`
 *
 * Coverage-free mutation fuzzing from the fixture corpora (scripts/fuzz-targets.ts): byte flips,
 * interesting bytes, range deletes/duplicates, cross-seed splices, token splices, deep nesting and
 * huge atoms, stacked 1–4 deep. Each target runs in a worker thread; the main thread is a watchdog
 * that sees the input currently running (through shared memory), so a hang is saved and the worker
 * restarted instead of stalling the run. Saved under fixtures/fuzz-regressions/<target>/:
 * - crash: any exception out of the frontend (one file per distinct message/frame signature);
 * - slow:  an input that took more than 1 s;
 * - hang:  an input still running after 10 s (the worker is terminated).
 * test/fuzz-regressions/replay.test.ts replays every saved input.
 */
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { REGRESSIONS, target, TARGETS, type RegressionMeta, type Seed, type TargetName } from "./fuzz-targets.js";

const SLOW_MS = 1000;
const HANG_MS = 10_000;
const MAX_INPUT = 2 * 1024 * 1024;

interface WorkerArgs {
  readonly target: TargetName;
  readonly seconds: number;
  readonly seed: number;
  readonly shared: SharedArrayBuffer;
}

interface Stats {
  tried: number;
  crashes: number;
  slow: number;
  hangs: number;
  saved: number;
  distinct: string[];
}

/** Shared layout: [0] running flag, [1] input length, [2] seed index; f64 at 16: start ms; bytes at 32. */
function views(shared: SharedArrayBuffer) {
  return {
    ctl: new Int32Array(shared, 0, 4),
    start: new Float64Array(shared, 16, 1),
    bytes: new Uint8Array(shared, 32),
  };
}

function save(meta: RegressionMeta, input: Uint8Array): string {
  const hash = createHash("sha256").update(meta.seed).update(input).digest("hex").slice(0, 16);
  const dir = join(REGRESSIONS, meta.target);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${hash}.bin`), input);
  writeFileSync(join(dir, `${hash}.json`), `${JSON.stringify(meta, null, 2)}\n`);
  return join(dir, hash);
}

// ---------------------------------------------------------------------------------------------
// Mutation

class Rng {
  constructor(private s: number) {
    if (this.s === 0) this.s = 0x9e3779b9;
  }
  next(): number {
    let x = this.s;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.s = x >>> 0;
    return this.s;
  }
  int(n: number): number {
    return n <= 0 ? 0 : this.next() % n;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
}

const enc = new TextEncoder();
const INTERESTING = [
  0x00, 0xff, 0x28, 0x29, 0x22, 0x5c, 0x7b, 0x7d, 0x5b, 0x5d, 0x2c, 0x3a, 0x3b, 0x0a, 0x0d, 0x80, 0xc0, 0xef, 0x2e,
  0x2f, 0x3d, 0x23, 0x2d,
];
const SNIPPETS = [
  "\u2028",
  "\ufeff",
  "\u0085",
  "\u3000",
  "\\u0000",
  "\\uD800",
  "\\",
  '"""',
  "..",
  "../../etc/passwd",
  "/etc/passwd",
  "C:\\x",
  "\\\\?\\C:\\",
  "\u00e9",
  "e\u0301",
  "\u0130",
  "\u212a",
  "1e400",
  "-0",
  "9007199254740993",
  "null",
  "true",
  "{}",
  "[]",
  "(fn)",
  "(eval)",
  "(requires)",
  "\r\n",
  "\t",
  "#",
  "//",
  "/*",
  "*/",
  "---\n",
  "```",
  "${",
  "%",
  "\u{1F600}",
];

function concat(...parts: Uint8Array[]): Uint8Array {
  const n = parts.reduce((s, p) => s + p.length, 0);
  const out = new Uint8Array(Math.min(n, MAX_INPUT));
  let o = 0;
  for (const p of parts) {
    if (o >= out.length) break;
    const take = p.subarray(0, out.length - o);
    out.set(take, o);
    o += take.length;
  }
  return out;
}

/** Token boundaries: runs of word bytes vs single punctuation/whitespace bytes. */
function tokens(b: Uint8Array): [number, number][] {
  const out: [number, number][] = [];
  let i = 0;
  while (i < b.length && out.length < 4096) {
    const start = i;
    const word = (c: number) => c >= 0x80 || /[A-Za-z0-9_.\-+*/<>=!?$%&~^@]/.test(String.fromCharCode(c));
    if (word(b[i]!)) while (i < b.length && word(b[i]!)) i++;
    else i++;
    out.push([start, i]);
  }
  return out;
}

function mutateOnce(r: Rng, b: Uint8Array, donors: readonly Uint8Array[], target: TargetName): Uint8Array {
  const at = r.int(b.length + 1);
  switch (r.int(11)) {
    case 0: {
      // bit flips
      const out = b.slice();
      for (let k = 0, n = 1 + r.int(4); k < n && out.length > 0; k++) out[r.int(out.length)]! ^= 1 << r.int(8);
      return out;
    }
    case 1: {
      const out = b.slice();
      for (let k = 0, n = 1 + r.int(3); k < n && out.length > 0; k++) out[r.int(out.length)] = r.pick(INTERESTING);
      return out;
    }
    case 2: {
      const len = 1 + r.int(Math.max(1, Math.min(64, b.length - at)));
      return concat(b.subarray(0, at), b.subarray(at + len));
    }
    case 3: {
      const len = 1 + r.int(Math.max(1, Math.min(256, b.length - at)));
      return concat(b.subarray(0, at + len), b.subarray(at, at + len), b.subarray(at + len));
    }
    case 4: {
      // cross-seed splice
      const d = r.pick(donors);
      const from = r.int(d.length);
      const len = r.int(Math.min(512, d.length - from) + 1);
      return concat(b.subarray(0, at), d.subarray(from, from + len), b.subarray(at));
    }
    case 5: {
      // token splice: copy, drop or swap tokens
      const t = tokens(b);
      if (t.length < 2) return b;
      const [s1, e1] = r.pick(t);
      const [s2, e2] = r.pick(t);
      const op = r.int(3);
      if (op === 0) return concat(b.subarray(0, s2), b.subarray(s1, e1), b.subarray(s2));
      if (op === 1) return concat(b.subarray(0, s1), b.subarray(e1));
      const [a, c] =
        s1 < s2
          ? [
              [s1, e1],
              [s2, e2],
            ]
          : [
              [s2, e2],
              [s1, e1],
            ];
      if (a[1]! > c[0]!) return b;
      return concat(
        b.subarray(0, a[0]),
        b.subarray(c[0]!, c[1]),
        b.subarray(a[1]!, c[0]),
        b.subarray(a[0]!, a[1]),
        b.subarray(c[1]!),
      );
    }
    case 6: {
      // deep nesting in the target's own brackets
      const [open, close] = target === "yao" || target === "hns" ? ["(", ")"] : r.int(2) ? ["[", "]"] : ['{"a":', "}"];
      const n = r.pick([129, 257, 1000, 10_000, 100_000]);
      const balanced = r.int(2) === 0;
      return concat(b.subarray(0, at), enc.encode(open.repeat(n) + (balanced ? close.repeat(n) : "")), b.subarray(at));
    }
    case 7: {
      // huge atom: symbol, string or number
      const n = r.pick([1000, 65_536, 262_145, 1_000_000]);
      const kind = r.int(3);
      const atom = kind === 0 ? "a".repeat(n) : kind === 1 ? `"${"x".repeat(n)}"` : "9".repeat(n);
      return concat(b.subarray(0, at), enc.encode(atom), b.subarray(at));
    }
    case 8:
      return concat(b.subarray(0, at), enc.encode(r.pick(SNIPPETS)), b.subarray(at));
    case 9: {
      // truncate
      return b.subarray(0, at);
    }
    default: {
      // repeat a line many times (many items / many functions)
      const lines = new TextDecoder().decode(b).split("\n");
      const i = r.int(lines.length);
      const line = lines[i] ?? "";
      const n = Math.min(r.pick([10, 100, 1000, 10_000]), Math.floor(MAX_INPUT / (line.length + 1)));
      const repeated = Array<string>(n).fill(line);
      return concat(enc.encode([...lines.slice(0, i), ...repeated, ...lines.slice(i)].join("\n")));
    }
  }
}

function mutate(r: Rng, b: Uint8Array, donors: readonly Uint8Array[], target: TargetName): Uint8Array {
  let out = b;
  for (let k = 0, n = 1 + r.int(4); k < n; k++) out = mutateOnce(r, out, donors, target);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Worker: the fuzz loop

async function workerLoop(args: WorkerArgs): Promise<void> {
  const t = target(args.target);
  const seeds: Seed[] = t.seeds();
  if (seeds.length === 0) throw new Error(`target ${t.name}: no seeds found`);
  const donors = seeds.map((s) => s.files[s.key]!);
  const { ctl, start, bytes } = views(args.shared);
  const r = new Rng(args.seed);
  const stats: Stats = { tried: 0, crashes: 0, slow: 0, hangs: 0, saved: 0, distinct: [] };
  const signatures = new Set<string>();
  const deadline = Date.now() + args.seconds * 1000;
  let lastReport = Date.now();
  while (Date.now() < deadline) {
    const si = r.int(seeds.length);
    const seed = seeds[si]!;
    const input = mutate(r, seed.files[seed.key]!, donors, t.name);
    ctl[1] = input.length;
    ctl[2] = si;
    bytes.set(input.subarray(0, bytes.length));
    start[0] = Date.now();
    Atomics.store(ctl, 0, 1);
    const t0 = performance.now();
    let error: unknown = null;
    try {
      await t.run(seed, input);
    } catch (e) {
      error = e;
    }
    const ms = performance.now() - t0;
    Atomics.store(ctl, 0, 0);
    stats.tried++;
    if (error !== null) {
      stats.crashes++;
      const e = error instanceof Error ? error : new Error(String(error));
      const frame = (e.stack ?? "").split("\n").find((l) => l.includes(" at ")) ?? "";
      const sig = `${e.name}: ${e.message.slice(0, 80)} ${frame.trim()}`;
      if (!signatures.has(sig)) {
        signatures.add(sig);
        stats.distinct.push(sig);
        const p = save(
          {
            target: t.name,
            seed: seed.id,
            reason: "crash",
            detail: `${e.stack ?? e.message}`.slice(0, 2000),
            ms,
            found: new Date().toISOString(),
          },
          input,
        );
        stats.saved++;
        parentPort!.postMessage({ kind: "log", text: `[${t.name}] crash ${sig}\n  saved ${p}` });
      }
    } else if (ms > SLOW_MS) {
      stats.slow++;
      if (stats.slow <= 3) {
        const p = save(
          {
            target: t.name,
            seed: seed.id,
            reason: "slow",
            detail: `${input.length} bytes`,
            ms,
            found: new Date().toISOString(),
          },
          input,
        );
        stats.saved++;
        parentPort!.postMessage({
          kind: "log",
          text: `[${t.name}] slow ${ms.toFixed(0)} ms (${input.length} bytes), saved ${p}`,
        });
      }
    }
    if (Date.now() - lastReport > 5_000) {
      lastReport = Date.now();
      parentPort!.postMessage({ kind: "progress", stats });
    }
  }
  parentPort!.postMessage({ kind: "done", stats });
}

// ---------------------------------------------------------------------------------------------
// Main: watchdog, restarts after hangs, summary.

function runTarget(name: TargetName, seconds: number, seed: number): Promise<Stats> {
  const total: Stats = { tried: 0, crashes: 0, slow: 0, hangs: 0, saved: 0, distinct: [] };
  const deadline = Date.now() + seconds * 1000;
  const seedsCache = target(name).seeds();
  return new Promise((resolve, reject) => {
    const launch = (round: number): void => {
      const left = Math.max(1, Math.round((deadline - Date.now()) / 1000));
      const shared = new SharedArrayBuffer(32 + MAX_INPUT);
      const { ctl, start, bytes } = views(shared);
      const w = new Worker(new URL(import.meta.url), {
        workerData: { target: name, seconds: left, seed: (seed + round * 7919) >>> 0, shared } satisfies WorkerArgs,
        resourceLimits: { maxOldGenerationSizeMb: 2048 },
      });
      let progress: Stats | null = null;
      let finished = false;
      const add = (s: Stats): void => {
        total.tried += s.tried;
        total.crashes += s.crashes;
        total.slow += s.slow;
        total.saved += s.saved;
        for (const d of s.distinct) total.distinct.push(d);
      };
      const watchdog = setInterval(() => {
        if (Atomics.load(ctl, 0) === 1 && Date.now() - start[0]! > HANG_MS) {
          finished = true;
          clearInterval(watchdog);
          const input = bytes.slice(0, Math.min(ctl[1]!, bytes.length));
          const seedId = seedsCache[ctl[2]!]?.id ?? "?";
          const p = save(
            {
              target: name,
              seed: seedId,
              reason: "hang",
              detail: `> ${HANG_MS} ms, ${ctl[1]} bytes`,
              ms: HANG_MS,
              found: new Date().toISOString(),
            },
            input,
          );
          process.stdout.write(`[${name}] hang (> ${HANG_MS} ms), saved ${p}; restarting worker\n`);
          total.hangs++;
          total.saved++;
          if (progress) add(progress);
          void w.terminate().then(() => (Date.now() < deadline - 1000 ? launch(round + 1) : resolve(total)));
        }
      }, 250);
      w.on("message", (m: { kind: string; text?: string; stats?: Stats }) => {
        if (m.kind === "log") process.stdout.write(`${m.text}\n`);
        else if (m.kind === "progress") {
          progress = m.stats!;
          process.stdout.write(
            `[${name}] ${progress.tried} inputs, ${progress.crashes} crashes, ${progress.slow} slow\n`,
          );
        } else if (m.kind === "done") {
          finished = true;
          clearInterval(watchdog);
          add(m.stats!);
          void w.terminate().then(() => resolve(total));
        }
      });
      w.on("error", (e) => {
        clearInterval(watchdog);
        if (!finished) reject(e);
      });
      w.on("exit", (code) => {
        clearInterval(watchdog);
        if (!finished) {
          // Out of memory or a native crash: count it, keep the last input, restart.
          finished = true;
          const input = bytes.slice(0, Math.min(ctl[1]!, bytes.length));
          const p = save(
            {
              target: name,
              seed: seedsCache[ctl[2]!]?.id ?? "?",
              reason: "crash",
              detail: `worker exited with code ${code} (out of memory?)`,
              ms: Date.now() - start[0]!,
              found: new Date().toISOString(),
            },
            input,
          );
          process.stdout.write(`[${name}] worker died (code ${code}), saved ${p}\n`);
          total.crashes++;
          total.saved++;
          if (progress) add(progress);
          if (Date.now() < deadline - 1000) launch(round + 1);
          else resolve(total);
        }
      });
    };
    launch(0);
  });
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const opt = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const seconds = Number(opt("seconds") ?? "60");
  const which = opt("target");
  const seed = Number(opt("seed") ?? Date.now() % 2 ** 31);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new Error("--seconds must be a positive number");
  const names: TargetName[] = which === undefined ? [...TARGETS] : [target(which).name];
  process.stdout.write(`fuzz: ${names.join(", ")}, ${seconds} s each, seed ${seed}\n`);
  const summary: Record<string, Stats> = {};
  for (const n of names) {
    const s = await runTarget(n, seconds, seed);
    summary[n] = s;
    process.stdout.write(
      `[${n}] done: ${s.tried} inputs in ${seconds} s, ${s.crashes} crashes (${s.distinct.length} distinct), ${s.slow} slow, ${s.hangs} hangs, ${s.saved} saved\n`,
    );
  }
  process.stdout.write(
    `${JSON.stringify({ seconds, seed, summary: Object.fromEntries(Object.entries(summary).map(([k, v]) => [k, { ...v, distinct: v.distinct.length }])) })}\n`,
  );
}

if (isMainThread) {
  main().catch((e) => {
    process.stderr.write(`fuzz: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  });
} else {
  workerLoop(workerData as WorkerArgs).catch((e) => {
    parentPort!.postMessage({ kind: "log", text: `worker failed: ${e instanceof Error ? e.stack : String(e)}` });
    throw e;
  });
}
