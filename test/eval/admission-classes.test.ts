/**
 * A failure raised while admitting a model's program keeps its class when it is not catchable: an
 * integrity or authority failure never becomes an `inference` failure that `fallback` would turn
 * into program data (§10), while an ordinary refusal stays `inference` and is caught.
 */
import { describe, expect, it } from "vitest";
import { failure, type FailureClass } from "../../src/eval/failures.js";
import { localRuntime } from "../../src/eval/index.js";
import { budgetsWith } from "../../src/eval/budgets.js";
import { Machine } from "../../src/eval/machine.js";
import { ProgramIndex } from "../../src/eval/program-index.js";
import { compile, TEST_TOOLS } from "./helpers.js";

const SRC = `(eval (fallback
  (seq (bind p (infer (returns (Program Json (effects (tool read)))) "write a program")) (run p))
  (to-json "caught")))`;

/** Run SRC with an admission hook that raises a failure of class `cls`, answering the model's infer. */
function admitRaising(cls: FailureClass) {
  const program = compile(SRC, TEST_TOOLS);
  const index = new ProgramIndex();
  index.add(program, program.source_hash);
  const m = new Machine(index, budgetsWith(undefined), localRuntime());
  m.hooks = {
    admit() {
      throw failure(cls, `admission raised ${cls}`);
    },
  };
  expect(m.run()).toBe("suspended");
  const [id] = [...m.pending.keys()];
  expect(id).toBeDefined();
  m.complete(id!, { text: "(eval 1)" });
  m.run();
  return { status: m.status(), result: m.root.result };
}

describe("admission failures keep their class", () => {
  it.each(["integrity", "authority", "cancelled"] as const)("%s passes through fallback unchanged", (cls) => {
    const r = admitRaising(cls);
    expect(r.status).toBe("failure");
    expect(r.result).toMatchObject({ failure: { class: cls, message: `admission raised ${cls}` } });
    // The node's span is kept where the hook gave none, so the failure still points at the infer.
    expect(r.result && "failure" in r.result ? r.result.failure.span : undefined).toBeDefined();
  });

  it("a catchable refusal is an inference failure, which fallback catches", () => {
    const r = admitRaising("value");
    expect(r.status).toBe("value");
    expect(r.result).toMatchObject({ value: "caught" });
  });
});
