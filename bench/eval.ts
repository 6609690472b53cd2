/**
 * Evaluator figures of `npm run bench` (issue 32), each a same-run ratio with its spread:
 *
 * (o-eval) evaluating a pure program at the 4,096 typed-HIR node limit to its value (`startProgram`
 *     on the analyzer's program: indexing the IR and running every step) against compiling it
 *     (read + analysis + link + program hash, what `yaoc ir` does), alternating round by round.
 *     Target ≤ 0.3.
 * (o-step) step cost in program size: the evaluation of the same kind of program at the limit and
 *     at an eighth of it, as a growth exponent log(time ratio) / log(step ratio). Target ≤ 1.1 (flat
 *     per-step cost gives 1).
 * (o-state) serialized state in live bindings: the bytes of the state of a program suspended at a
 *     tool call with 8× the live bindings over the same with 1×, as an exponent. Target ≤ 1.05
 *     (linear gives 1). Sizes do not vary from round to round: one round, min = median = max.
 *
 * `node --expose-gc dist/bench/run.js --eval` (or `--only o`) measures only these figures and merges
 * them into results.json and docs/performance.md like any partial run (bench/partial.ts).
 */
import type { YaoProgram } from "../ir/yao-ir-0.1.js";
import { startProgram } from "../src/eval/index.js";
import { readOne } from "../src/syntax/reader.js";
import { analyzeProgram } from "../src/yao/analyze.js";
import { morphzProfile, toolsFromManifest } from "../src/yao/profile.js";
import { alternateRounds, median, roundRatios, type Row, type Spread, spreadOf, timeRound } from "./measure.js";

const TOOLS = { note: { type: "object", properties: {} } };
const PROFILE = morphzProfile(toolsFromManifest(Object.keys(TOOLS), TOOLS).tools);

/** One binding each: arithmetic, a branch, a record field, a union match (all Int, all bounded). */
const STEPS: readonly ((i: number) => string)[] = [
  (i) => `(bind v${i} (add v${i - 1} 3))`,
  (i) => `(bind v${i} (if (lt v${i - 1} 100) (mul v${i - 1} 2) (sub v${i - 1} 50)))`,
  (i) => `(bind v${i} (get (record P (x v${i - 1}) (y "s")) x))`,
  (i) => `(bind v${i} (match (variant D.a (n v${i - 1})) ((case D.a (n k)) (add k 1)) ((case D.b) 0)))`,
];

/** A program of `k` bindings, ending in the last one's value or (with `suspend`) a tool call. */
export function evalProgramSource(k: number, suspend = false): string {
  const binds = ["(bind v0 1)"];
  for (let i = 1; i < k; i++) binds.push(STEPS[i % STEPS.length]!(i));
  const end = suspend ? "(call note)" : `v${k - 1}`;
  const requires = suspend ? "(requires (tools note)) " : "";
  return `(eval ${requires}(types (record P (x Int) (y String)) (union D (a (n Int)) (b))) (seq ${binds.join(" ")} ${end}))`;
}

function compile(source: string): YaoProgram | undefined {
  const read = readOne(source, { file: "bench.yao" });
  if (!read.ok) throw new Error(`bench program does not read: ${read.diagnostic.message}`);
  return analyzeProgram(read.form, { profile: PROFILE }).program;
}

/** The largest number of bindings whose program the analyzer still admits (the 4,096-node limit). */
function largestAdmitted(): number {
  let lo = 1;
  let hi = 2048;
  if (compile(evalProgramSource(hi)) !== undefined) throw new Error("the node limit was not reached");
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (compile(evalProgramSource(mid)) !== undefined) lo = mid;
    else hi = mid;
  }
  return lo;
}

function evaluate(p: YaoProgram): number {
  const r = startProgram(p);
  if (r.result.outcome !== "value") throw new Error(`bench program did not give a value: ${r.result.outcome}`);
  return 0;
}

function stepsOf(p: YaoProgram): number {
  return (JSON.parse(startProgram(p).state()) as { used: { steps: number } }).used.steps;
}

function judged(ratio: number, spread: Spread, target: number): { met: boolean; straddles: boolean } {
  return { met: ratio <= target, straddles: spread.min <= target !== spread.max <= target };
}

/** Each side's timed and untimed (warm-up) time per round, in ms. */
const MIN_MS = 60;
const WARM_MS = 150;

const exponent = (ratio: number, by: number): number => Math.log(ratio) / Math.log(by);

export async function evalFigures(rounds: number): Promise<Row[]> {
  const rows: Row[] = [];
  const k = largestAdmitted();
  const source = evalProgramSource(k);
  const program = compile(source)!;
  const small = compile(evalProgramSource(Math.max(2, Math.round(k / 8))))!;
  const steps = stepsOf(program);
  const smallSteps = stepsOf(small);
  const compileOnce = () => {
    if (compile(source) === undefined) throw new Error("bench program is not admitted");
  };
  // Warm-up, then the three sides alternate round by round. Each round also warms up after its
  // collection, every side alike: the collection before a round drops the evaluator's optimized
  // code (its frames and registers have no live instance between runs), and without it the
  // program at the limit, with few calls per round, pays the re-optimization with fewer calls to
  // spread it over than the small one (docs/performance.md: 337 vs 323 ns per step without it,
  // 185 vs 165 with it, at load 2–3).
  for (let i = 0; i < 3; i++) {
    compileOnce();
    evaluate(program);
    evaluate(small);
  }
  const [c, e, s] = await alternateRounds(
    [
      () => timeRound(compileOnce, MIN_MS, WARM_MS),
      () => timeRound(() => evaluate(program), MIN_MS, WARM_MS),
      () => timeRound(() => evaluate(small), MIN_MS, WARM_MS),
    ],
    rounds,
  );
  const evalSpread = spreadOf(roundRatios(e!, c!));
  rows.push({
    figure: "o-eval",
    subject: `evaluation of a ${steps}-step program at the node limit`,
    yardstick: "its compilation (read, analysis, link, program hash)",
    ratio: evalSpread.median,
    spread: evalSpread,
    target: "≤ 0.3",
    ...judged(evalSpread.median, evalSpread, 0.3),
    detail: `${median(e!).toFixed(2)} ms vs ${median(c!).toFixed(2)} ms; ${k} bindings`,
  });

  const by = steps / smallSteps;
  const growth = roundRatios(e!, s!).map((r) => exponent(r, by));
  const growthSpread = spreadOf(growth);
  rows.push({
    figure: "o-step",
    subject: `evaluation of ${steps} steps, as a growth exponent`,
    yardstick: `evaluation of ${smallSteps} steps (${by.toFixed(1)}× fewer)`,
    ratio: growthSpread.median,
    spread: growthSpread,
    target: "≤ 1.1",
    ...judged(growthSpread.median, growthSpread, 1.1),
    detail: `${((median(e!) / steps) * 1e6).toFixed(0)} ns vs ${((median(s!) / smallSteps) * 1e6).toFixed(0)} ns per step`,
  });

  // Live bindings at a suspension: every binding of the program is live in the root scope.
  const stateBytes = (n: number): number => {
    const p = compile(evalProgramSource(n, true));
    if (p === undefined) throw new Error(`a program of ${n} bindings is not admitted`);
    const r = startProgram(p);
    if (r.result.outcome !== "suspended") throw new Error("the state program did not suspend");
    return new TextEncoder().encode(r.state()).length;
  };
  const few = Math.floor(k / 8);
  const many = few * 8;
  const fewBytes = stateBytes(few);
  const manyBytes = stateBytes(many);
  const stateExp = exponent(manyBytes / fewBytes, many / few);
  rows.push({
    figure: "o-state",
    subject: `state bytes with ${many} live bindings, as a growth exponent`,
    yardstick: `state bytes with ${few} live bindings`,
    ratio: stateExp,
    spread: { min: stateExp, median: stateExp, max: stateExp, rounds: 1 },
    target: "≤ 1.05",
    met: stateExp <= 1.05,
    detail: `${manyBytes} B vs ${fewBytes} B (${(manyBytes / many).toFixed(0)} vs ${(fewBytes / few).toFixed(0)} B per binding)`,
  });
  return rows;
}
