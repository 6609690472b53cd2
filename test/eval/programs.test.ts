/**
 * `run` of a model-written Program Value: the model's source is admitted (read, analyzed against the
 * tool schemas, checked against the declared Program type), then runs as a child of the machine with
 * the budget that remains, under the Program Value nesting limit (Morphz profile: 4).
 */
import { describe, expect, it } from "vitest";
import {
  resumeState,
  startProgram,
  valueText,
  type Completion,
  type RunOptions,
  type RunResult,
} from "../../src/eval/index.js";
import { compile, requests, TEST_TOOLS } from "./helpers.js";

/** The effects of a program at `level` of a chain whose last program (at `leaf`) calls `read`. */
const effects = (level: number, leaf: number): string =>
  level >= leaf ? "(tool read)" : `infer (program ${effects(level + 1, leaf)})`;

/** A program at `level`: asks the model for the next program and runs it; the leaf reads a file. */
function chainProgram(level: number, leaf: number): string {
  if (level >= leaf) return '(eval (requires (tools read)) (call read (path "leaf")))';
  const next = `(Program Json (effects ${effects(level + 1, leaf)}))`;
  return `(eval (seq (bind p (infer (returns ${next}) "write the next program")) (run p)))`;
}

interface Driven {
  readonly last: RunResult;
  readonly kinds: string[];
}

/**
 * Answer every request: an infer with the next program of the chain (as the model's raw text), a
 * program hand-off with approval, a tool call with a string.
 */
function driveChain(leaf: number, options: RunOptions = {}): Driven {
  let level = 0;
  let r = startProgram(compile(chainProgram(0, leaf)), { tools: TEST_TOOLS, ...options });
  const kinds: string[] = [];
  for (let guard = 0; guard < 100 && r.result.outcome === "suspended"; guard++) {
    const [q] = requests(r);
    const kind = String(q!.get("kind"));
    kinds.push(kind);
    const id = q!.get("id") as string;
    let c: Completion;
    if (kind === "infer") c = { id, text: chainProgram(++level, leaf) };
    else if (kind === "program") c = { id, value: null };
    else c = { id, value: `read at level ${level}` };
    r = resumeState(r.state(), c, { tools: TEST_TOOLS });
  }
  return { last: r, kinds };
}

describe("run: model-written Program Values", () => {
  it("admits the model's program, asks for the hand-off, and runs it as a child that sees no caller binding", () => {
    const src = `(eval (seq (bind secret "s3cr3t")
      (bind p (infer (returns (Program Json (effects (tool read)))) "write a program")) (run p)))`;
    const r = startProgram(compile(src), { tools: TEST_TOOLS });
    const [infer] = requests(r);
    expect(infer!.get("kind")).toBe("infer");
    // The child reads `secret`: it is not visible there, so admission refuses the program.
    const leaky = resumeState(r.state(), {
      id: infer!.get("id") as string,
      text: "(eval (requires (tools read)) (call read (path secret)))",
    });
    expect(leaky.result).toMatchObject({
      outcome: "failure",
      failure: { class: "inference", message: expect.stringContaining("not admitted") },
    });
    const admitted = resumeState(r.state(), {
      id: infer!.get("id") as string,
      text: '(eval (requires (tools read)) (call read (path "child.txt")))',
    });
    const [handoff] = requests(admitted);
    expect(handoff!.get("kind")).toBe("program");
    expect(String(handoff!.get("hash"))).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(valueText(handoff!.get("output")!)).toBe('{"kind":"json"}');
    const running = resumeState(admitted.state(), { id: handoff!.get("id") as string, value: null });
    const [call] = requests(running);
    expect(call!.get("kind")).toBe("tool");
    expect(valueText(call!.get("arguments")!)).toBe('{"path":"child.txt"}');
    // The child's request ids continue the root's effect sequence.
    expect(call!.get("sequence")).toBe(3n);
    const done = resumeState(running.state(), { id: call!.get("id") as string, value: "from the child" });
    expect(done.result).toMatchObject({ outcome: "value", value: "from the child" });
  });

  it("a program hand-off answered with an error is an authority failure, which fallback never catches", () => {
    const src = `(eval (fallback (seq (bind p (infer (returns (Program Int (effects))) "w")) (run p)) 0))`;
    const r = startProgram(compile(src), { tools: TEST_TOOLS });
    const admitted = resumeState(r.state(), { id: requests(r)[0]!.get("id") as string, text: "(eval 1)" });
    const [handoff] = requests(admitted);
    expect(handoff!.get("kind")).toBe("program");
    const denied = resumeState(admitted.state(), {
      id: handoff!.get("id") as string,
      error: { message: "the capability ceiling was revoked" },
    });
    expect(denied.result).toMatchObject({
      outcome: "failure",
      failure: { class: "authority", message: "the capability ceiling was revoked" },
    });
  });

  it("refuses a program of another type, or one with effects beyond the declared Program type", () => {
    const src = `(eval (seq (bind p (infer (returns (Program Int (effects))) "write a pure program")) (run p)))`;
    const r = startProgram(compile(src), { tools: TEST_TOOLS });
    const id = requests(r)[0]!.get("id") as string;
    for (const text of ['(eval "a string")', '(eval (requires (tools read)) (seq (call read (path "x")) 1))']) {
      expect(resumeState(r.state(), { id, text }).result, text).toMatchObject({
        outcome: "failure",
        failure: { class: "inference", message: "the model's program does not have the declared Program type" },
      });
    }
    const ok = resumeState(r.state(), { id, text: "(eval (add 40 2))" });
    const done = resumeState(ok.state(), { id: requests(ok)[0]!.get("id") as string, value: null });
    expect(done.result).toMatchObject({ outcome: "value", value: 42n });
  });

  it("runs a chain of 4 nested programs; a 5th level exceeds the nesting limit of 4 as a resource failure", () => {
    const four = driveChain(4);
    expect(four.kinds).toEqual([...Array.from({ length: 4 }, () => ["infer", "program"]).flat(), "tool"]);
    expect(four.last.result).toMatchObject({ outcome: "value", value: "read at level 4" });

    const five = driveChain(5);
    // The 5th program is admitted, but its `run` is refused before any hand-off is requested.
    expect(five.kinds).toEqual(
      Array.from({ length: 5 }, () => ["infer", "program"])
        .flat()
        .slice(0, 9),
    );
    expect(five.last.result).toMatchObject({
      outcome: "failure",
      failure: { class: "resource", message: "the Program Value nesting budget of 4 is exhausted" },
    });
    if (five.last.result.outcome === "failure") expect(five.last.result.failure.span).toBeDefined();
  });

  it("a lower nesting budget is honoured, and the resource failure is caught by fallback", () => {
    expect(driveChain(2, { budgets: { nesting: 1 } }).last.result).toMatchObject({
      failure: { class: "resource", message: "the Program Value nesting budget of 1 is exhausted" },
    });
    const src = `(eval (fallback
      (seq (bind p (infer (returns (Program Json (effects (program (tool read))))) "w")) (run p))
      (to-json "refused")))`;
    const r = startProgram(compile(src), { tools: TEST_TOOLS, budgets: { nesting: 0 } });
    const id = requests(r)[0]!.get("id") as string;
    const inner = '(eval (seq (bind q (infer (returns (Program Json (effects (tool read)))) "x")) (run q)))';
    const out = resumeState(r.state(), { id, text: inner });
    expect(out.result).toMatchObject({ outcome: "value", value: "refused" });
  });

  it("the child draws on the root's remaining budgets and refunds nothing", () => {
    const src = `(eval (requires (tools read)) (seq (bind a (call read (path "root")))
      (bind p (infer (returns (Program Json (effects (tool read)))) "w")) (run p)))`;
    const answerAll = (budgets: RunOptions["budgets"]) => {
      let r = startProgram(compile(src), { tools: TEST_TOOLS, budgets });
      for (let guard = 0; guard < 10 && r.result.outcome === "suspended"; guard++) {
        const q = requests(r)[0]!;
        const id = q.get("id") as string;
        const kind = q.get("kind");
        r = resumeState(
          r.state(),
          kind === "infer"
            ? { id, text: '(eval (requires (tools read)) (call read (path "child")))' }
            : { id, value: kind === "tool" ? "text" : null },
        );
      }
      return r.result;
    };
    expect(answerAll({ toolEffects: 2 })).toMatchObject({ outcome: "value", value: "text" });
    expect(answerAll({ toolEffects: 1 })).toMatchObject({
      outcome: "failure",
      failure: { class: "resource", message: "the tool effect budget of 1 is exhausted" },
    });
    expect(answerAll({ inferEffects: 0 })).toMatchObject({
      failure: { class: "resource", message: "the inference effect budget of 0 is exhausted" },
    });
  });
});
