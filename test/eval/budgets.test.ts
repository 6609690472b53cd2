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
    ])
      expect(() => parseCompletion(bad), bad).toThrow(CompletionError);
  });
});
