/**
 * The budgets the host reports on (model rounds per infer, elapsed time) and cancellation. The
 * machine has no clock: elapsed time arrives with a completion or a continue, so the state stays
 * deterministic.
 */
import { describe, expect, it } from "vitest";
import {
  CompletionError,
  cancelState,
  continueState,
  parseCompletion,
  resumeState,
  startProgram,
  type RunOptions,
  type RunResult,
} from "../../src/eval/index.js";
import { compile, requests } from "./helpers.js";

const idOf = (r: RunResult, i = 0) => requests(r)[i]!.get("id") as string;
const used = (r: RunResult) => (JSON.parse(r.state()) as { used: Record<string, number> }).used;

const INFER = "(eval (seq (bind t 1) (infer (captures t) (returns Int) t)))";
const TWO_READS = '(eval (requires (tools read)) (seq (call read (path "a")) (call read (path "b"))))';

describe("model rounds per infer", () => {
  it("an infer request names the ceiling (4 by default); a completion within it is accepted", () => {
    const r = startProgram(compile(INFER));
    expect(requests(r)[0]!.get("model_rounds")).toBe(4n);
    expect(resumeState(r.state(), { id: idOf(r), text: "7", rounds: 4 }).result).toMatchObject({
      outcome: "value",
      value: 7n,
    });
  });

  it("more rounds than the budget is a resource failure at the infer, which fallback catches", () => {
    const r = startProgram(compile(INFER));
    const over = resumeState(r.state(), { id: idOf(r), text: "7", rounds: 5 });
    expect(over.result).toMatchObject({
      outcome: "failure",
      failure: {
        class: "resource",
        message: "the infer took 5 model rounds; the model round budget is 4",
        span: { start: { line: 1 } },
      },
    });
    const caught = startProgram(compile("(eval (fallback (infer (returns Int) 1) 0))"), {
      budgets: { modelRounds: 1 },
    });
    expect(requests(caught)[0]!.get("model_rounds")).toBe(1n);
    expect(resumeState(caught.state(), { id: idOf(caught), value: 3n, rounds: 2 }).result).toMatchObject({
      outcome: "value",
      value: 0n,
    });
  });

  it("rounds on a completion that is not for an infer are refused and change nothing", () => {
    const r = startProgram(compile(TWO_READS));
    const out = resumeState(r.state(), { id: idOf(r), value: null, rounds: 1 });
    expect(out).toMatchObject({ rejected: true, result: { failure: { class: "integrity" } } });
    expect(out.state()).toBe(r.state());
  });
});

describe("elapsed time", () => {
  it("there is no deadline by default, and the state holds only what the host reported", () => {
    const r = startProgram(compile(TWO_READS));
    expect((JSON.parse(r.state()) as { budgets: Record<string, unknown> }).budgets.elapsedMs).toBeNull();
    const later = resumeState(r.state(), { id: idOf(r), value: null, elapsedMs: 10 ** 12 });
    expect(later.result.outcome).toBe("suspended");
    expect(used(later).elapsedMs).toBe(10 ** 12);
    // The same completions give the same bytes: no clock is read.
    expect(resumeState(r.state(), { id: idOf(r), value: null, elapsedMs: 10 ** 12 }).state()).toBe(later.state());
  });

  it("a completion past the deadline is a resource failure at the request's node; time is never given back", () => {
    const r = startProgram(compile(TWO_READS), { budgets: { elapsedMs: 1000 } });
    const first = resumeState(r.state(), { id: idOf(r), value: null, elapsedMs: 950 });
    expect(first.result.outcome).toBe("suspended");
    // A worker whose clock reads less does not refund time.
    const slow = resumeState(first.state(), { id: idOf(first), value: null, elapsedMs: 900 });
    expect(used(slow).elapsedMs).toBe(950);
    const late = resumeState(first.state(), { id: idOf(first), value: "b", elapsedMs: 1001 });
    expect(late.result).toMatchObject({
      outcome: "failure",
      failure: {
        class: "resource",
        message: "the elapsed-time budget of 1000 ms is exhausted (1001 ms elapsed)",
        span: { start: { column: 59 } },
      },
    });
  });

  it("continuing a step-limited run past the deadline fails where it stands", () => {
    const src = "(eval (fallback (add 1 (add 2 3)) 0))";
    const r = startProgram(compile(src), { budgets: { elapsedMs: 5 }, stepLimit: 2 });
    expect(r.result.outcome).toBe("running");
    expect(continueState(r.state(), { elapsedMs: 5 }).result).toMatchObject({ outcome: "value", value: 6n });
    // Resource failures are catchable: the fallback's backup runs.
    expect(continueState(r.state(), { elapsedMs: 6 }).result).toMatchObject({ outcome: "value", value: 0n });
    const bare = startProgram(compile("(eval (add 1 (add 2 3)))"), { budgets: { elapsedMs: 5 }, stepLimit: 2 });
    expect(continueState(bare.state(), { elapsedMs: 6 }).result).toMatchObject({
      failure: { class: "resource", message: "the elapsed-time budget of 5 ms is exhausted (6 ms elapsed)" },
    });
  });
});

describe("cancellation", () => {
  const PAR = `(eval (requires (tools read)) (fallback
    (par (branch a (call read (path "a"))) (branch b (call read (path "b"))))
    (to-json "backup")))`;

  it("ends a suspended run with a cancelled failure that fallback does not catch, at the first pending request", () => {
    const r = startProgram(compile(PAR));
    expect(requests(r)).toHaveLength(2);
    const c = cancelState(r.state(), "the user stopped it");
    expect(c.rejected).toBe(false);
    expect(c.result).toMatchObject({
      outcome: "failure",
      failure: {
        class: "cancelled",
        message: "the run was cancelled: the user stopped it",
        span: { start: { line: 2, column: 20 } },
      },
    });
    expect((JSON.parse(c.state()) as { pending: unknown[] }).pending).toEqual([]);
    // Every pending request is void: its completion is now for a finished machine.
    const late = resumeState(c.state(), { id: idOf(r, 1), value: "b" });
    expect(late).toMatchObject({ rejected: true, result: { failure: { class: "integrity" } } });
    expect(late.state()).toBe(c.state());
  });

  it("is idempotent on a cancelled machine and refused on one that finished otherwise", () => {
    const r = startProgram(compile(PAR));
    const c = cancelState(r.state());
    expect(c.result).toMatchObject({ failure: { class: "cancelled", message: "the run was cancelled" } });
    const again = cancelState(c.state(), "twice");
    expect(again.rejected).toBe(false);
    expect(again.state()).toBe(c.state());
    const done = startProgram(compile("(eval 1)"));
    const refused = cancelState(done.state());
    expect(refused).toMatchObject({ rejected: true, result: { failure: { class: "integrity" } } });
    expect(refused.state()).toBe(done.state());
    expect(cancelState("{").result).toMatchObject({ failure: { class: "integrity" } });
  });

  it("cancels a step-limited run between steps", () => {
    const r = startProgram(compile("(eval (fallback (add 1 (add 2 3)) 0))"), { stepLimit: 2 });
    expect(r.result.outcome).toBe("running");
    expect(cancelState(r.state()).result).toMatchObject({ outcome: "failure", failure: { class: "cancelled" } });
  });
});

describe("completion fields for budgets", () => {
  it('reads "rounds" and "elapsed_ms" and refuses bad values', () => {
    expect(parseCompletion('{"id":"x","text":"1","rounds":2,"elapsed_ms":30}')).toEqual({
      id: "x",
      text: "1",
      rounds: 2,
      elapsedMs: 30,
    });
    for (const bad of [
      '{"id":"x","value":1,"rounds":0}',
      '{"id":"x","value":1,"rounds":"2"}',
      '{"id":"x","value":1,"elapsed_ms":-1}',
      '{"id":"x","value":1,"elapsed_ms":1.5}',
      '{"id":"x","value":1,"text":"1"}',
      '{"id":"x","value":1,"error":{"message":"m"}}',
      '{"id":"x","value":1,"extra":true}',
      '{"id":"x","error":{"message":"m","class":"integrity"}}',
    ])
      expect(() => parseCompletion(bad), bad).toThrow(CompletionError);
  });
});

describe("the branch budget: branches scheduled at once (Morphz profile §11)", () => {
  /** Answer every request with a string, first pending first, until the run ends. */
  const drain = (src: string, budgets: RunOptions["budgets"] = undefined) => {
    let r = startProgram(compile(src), budgets === undefined ? {} : { budgets });
    let answered = 0;
    while (r.result.outcome === "suspended") {
      r = resumeState(r.state(), { id: idOf(r), value: "v" });
      answered++;
    }
    return { result: r.result, answered, used: used(r) };
  };
  const par = (n: number, body = '(call read (path "x"))') =>
    `(par ${Array.from({ length: n }, (_, i) => `(branch b${i} ${body})`).join(" ")})`;

  it("sequential pars give their branches back when they join: 20 + 20 branches run under the default 32", () => {
    const r = drain(`(eval (requires (tools read)) (seq ${par(20)} ${par(20)}))`);
    expect(r.result.outcome).toBe("value");
    expect(r.answered).toBe(40);
    expect(r.used.branches).toBe(0);
    // The same under a map: 17 elements, each an effectful par of 2.
    const mapped = drain(`(eval (requires (tools read)) (map (list ${"1 ".repeat(17)}) x ${par(2)}))`);
    expect(mapped).toMatchObject({ result: { outcome: "value" }, answered: 34 });
  });

  it("branches waiting on inner pars still count: nesting past the budget is a resource failure at the inner par", () => {
    const ok = drain(`(eval (requires (tools read)) (seq ${par(3)} ${par(3)}))`, { branches: 4 });
    expect(ok.result.outcome).toBe("value");
    const nested = drain(`(eval (requires (tools read)) ${par(2, par(2))})`, { branches: 4 });
    expect(nested.result).toMatchObject({
      outcome: "failure",
      failure: {
        class: "parallel",
        branches: [
          { name: "b0", status: "succeeded" },
          { name: "b1", status: "failed", class: "resource", message: "the parallel branch budget of 4 is exhausted" },
        ],
      },
    });
  });
});

describe("the Morphz default ceilings, exhausted", () => {
  const drain = (src: string) => {
    let r = startProgram(compile(src));
    let answered = 0;
    while (r.result.outcome === "suspended") {
      const q = requests(r)[0]!;
      const id = q.get("id") as string;
      r = resumeState(r.state(), q.get("kind") === "infer" ? { id, text: "1" } : { id, value: "v" });
      answered++;
    }
    return { result: r.result, answered };
  };
  const list = (n: number) => `(list ${Array.from({ length: n }, (_, i) => i).join(" ")})`;

  it("128 tool effects run; the 129th is a resource failure at its call", () => {
    const src = `(eval (requires (tools read)) (seq
      (map ${list(64)} x (seq (call read (path "a")) (call read (path "b"))))
      (call read (path "one too many"))))`;
    const r = drain(src);
    expect(r.answered).toBe(128);
    expect(r.result).toMatchObject({
      outcome: "failure",
      failure: {
        class: "resource",
        message: "the tool effect budget of 128 is exhausted",
        span: { start: { line: 3, column: 7 } },
      },
    });
  });

  it("8 inference effects run; the 9th is a resource failure", () => {
    const r = drain(`(eval (seq (bind t 1) (map ${list(9)} x (infer (captures t) (returns Int) t))))`);
    expect(r.answered).toBe(8);
    expect(r.result).toMatchObject({
      outcome: "failure",
      failure: { class: "resource", message: "the inference effect budget of 8 is exhausted" },
    });
  });

  it("a map of 64 elements runs; 65 is a resource failure", () => {
    expect(startProgram(compile(`(eval (map ${list(64)} x x))`)).result.outcome).toBe("value");
    expect(startProgram(compile(`(eval (map ${list(65)} x x))`)).result).toMatchObject({
      failure: { class: "resource", message: "map collection has 65 elements; the map element budget is 64" },
    });
  });
});
