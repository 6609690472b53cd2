/**
 * docs/eval.md "Budgets": a value may nest at most 512 deep, as deep as value text reads back.
 * A tool may answer with a value that deep; a program that wraps it further must fail with
 * `resource` at the constructing node, never write a state that its next resume refuses.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { decodeState } from "../../src/eval/state.js";
import { resumeState, startProgram, type RunResult, type Value } from "../../src/eval/index.js";
import { valueDepth } from "../../src/eval/values.js";
import { yaoc } from "../support/cli.js";
import { compile, replacer, requests } from "./helpers.js";

const deep = (n: number): Value => {
  let v: Value = null;
  for (let i = 0; i < n; i++) v = [v];
  return v;
};

const program = (body: string, types = "") =>
  `(eval (requires (tools read)) ${types} (seq (bind x (call read (path "a"))) ${body}))`;

/** Start `body` (which may use `x`, a tool's answer), answer it with `answer`, run to the end. */
function wrapped(body: string, answer: number | Value, types = ""): RunResult {
  const r = startProgram(compile(program(body, types)));
  const id = requests(r)[0]!.get("id") as string;
  return resumeState(r.state(), { id, value: typeof answer === "number" ? deep(answer) : answer });
}

const tooDeep = (r: RunResult) =>
  expect(r.result, JSON.stringify(r.result, replacer)).toMatchObject({
    outcome: "failure",
    failure: { class: "resource", message: expect.stringContaining("a value may nest at most 512 deep") },
  });

/** Every state the machine writes reads back. */
function readsBack(r: RunResult): void {
  expect(() => decodeState(r.state())).not.toThrow();
}

/** Each wrap, the depth it adds (its `$yao` tag objects count), and the types it needs. */
const WRAPS: [string, string, number, string?][] = [
  ["list", "(list x)", 1],
  ["dict", "(dict (a x))", 1],
  ["some", "(some x)", 2],
  ["ok", "(ok x String)", 2],
  ["err", "(err x Int)", 2],
  ["record", "(record Box (v x))", 3, "(types (record Box (v Json)))"],
  ["variant", "(variant W.w (v x))", 3, "(types (union W (w (v Json))))"],
  ["par", "(par (branch a x) (branch b 1))", 4],
  ["map", "(map (list 1) i x)", 1],
];

describe("value depth", () => {
  it("a 512-deep tool answer is a value, and its state reads back", () => {
    const r = wrapped("x", 512);
    expect(r.result.outcome).toBe("value");
    readsBack(r);
  });

  for (const [name, body, adds, types] of WRAPS) {
    it(`wrapping a 512-deep value with ${name} fails with resource at the constructing node; the state reads back`, () => {
      const r = wrapped(body, 512, types);
      tooDeep(r);
      readsBack(r);
      // A value that fits exactly is built, and a state that holds it while a request is pending reads back.
      const held = wrapped(`(seq (bind y ${body}) (call read (path "b")) y)`, 512 - adds, types);
      expect(held.result.outcome).toBe("suspended");
      readsBack(held);
      const id = requests(held)[0]!.get("id") as string;
      const done = resumeState(held.state(), { id, value: null });
      expect(done.result.outcome).toBe("value");
      if (done.result.outcome === "value") expect(valueDepth(done.result.value)).toBe(512);
      readsBack(done);
    });
  }

  it("the failure is at the constructing node, names the depth, and fallback catches it", () => {
    const body = "(seq (bind y (list x)) y)";
    const r = wrapped(body, 512);
    tooDeep(r);
    const src = program(body);
    if (r.result.outcome !== "failure") throw new Error("expected a failure");
    expect(r.result.failure.message).toBe("a value may nest at most 512 deep; this one would nest 513 deep");
    expect(r.result.failure.span?.start.byte).toBe(src.indexOf("(list x)"));
    const caught = wrapped('(fallback (to-json (list x)) (to-json "caught"))', 512);
    expect(caught.result).toMatchObject({ outcome: "value", value: "caught" });
  });

  it("from-json that tags a value deeper than 512 fails with resource", () => {
    const r = wrapped("(from-json Box x)", new Map([["v", deep(511)]]), "(types (record Box (v Json)))");
    tooDeep(r);
    readsBack(r);
  });

  it("an infer answer that decodes deeper than 512 fails with resource, not inference", () => {
    const r = startProgram(compile('(eval (types (record Box (v Json))) (infer (returns Box) "a box"))'));
    const id = requests(r)[0]!.get("id") as string;
    const text = `{"v":${"[".repeat(511)}${"]".repeat(511)}}`;
    const done = resumeState(r.state(), { id, text });
    tooDeep(done);
    readsBack(done);
  });

  it("a request is a value too: captures that would make it nest deeper than 512 fail at the infer", () => {
    const infer = '(infer (captures x) (returns Int) "how deep?")';
    const r = wrapped(infer, 511);
    tooDeep(r);
    readsBack(r);
    // request → captures → x: 510 deep is a 512-deep request, issued, and its state reads back.
    const ok = wrapped(infer, 510);
    expect(requests(ok)[0]!.get("kind")).toBe("infer");
    expect(valueDepth(requests(ok)[0]!)).toBe(512);
    readsBack(ok);
  });

  it("valueDepth is exact on shared and deep values, and counts containers", () => {
    expect(valueDepth(null)).toBe(0);
    expect(valueDepth([])).toBe(1);
    const shared = deep(3);
    expect(
      valueDepth(
        new Map<string, Value>([
          ["a", shared],
          ["b", [shared, 1n]],
        ]),
      ),
    ).toBe(5);
    expect(valueDepth(deep(100_000))).toBe(100_000);
  });
});

describe("yaoc run with a value that would nest too deep", () => {
  const dir = mkdtempSync(join(tmpdir(), "yaoc-depth-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  it("fails with resource, and the state it writes resumes (the built CLI, as in cli.test.ts)", () => {
    const tools = file(
      "tools.json",
      JSON.stringify({ read: { type: "object", properties: { path: { type: "string" } } } }),
    );
    const p = file("wrap.yao", program("(list (list x))"));
    const s1 = join(dir, "s1.json");
    const first = yaoc(["run", p, "--tools", tools, "--format", "json", "--state-out", s1]);
    expect(first.code).toBe(0);
    const [req] = (JSON.parse(first.out) as { requests: { id: string }[] }).requests;
    const text = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
    // The answer is wrapped twice: 510 deep makes 512, 511 deep would make 513.
    for (const [n, outcome] of [
      [510, "value"],
      [511, "failure"],
    ] as const) {
      const c = file(`c${n}.json`, `{"id":${JSON.stringify(req!.id)},"value":${text(n)}}`);
      const s2 = join(dir, `s${n}.json`);
      const done = yaoc(["run", "--resume", s1, "--completion", c, "--format", "json", "--state-out", s2]);
      const out = JSON.parse(done.out) as Record<string, unknown>;
      expect(out, done.err).toMatchObject({ outcome });
      if (outcome === "failure") {
        expect(done.code).toBe(1);
        expect(out).toMatchObject({ class: "resource", message: expect.stringContaining("at most 512 deep") });
      } else expect(JSON.stringify(out.value)).toBe(text(512));
      // The state the run wrote reads back: resuming it with the same completion is idempotent.
      const again = yaoc(["run", "--resume", s2, "--completion", c, "--format", "json"]);
      expect(again.err).not.toContain("integrity");
      expect(JSON.parse(again.out)).toMatchObject({ outcome });
    }
    // The completion file's own object does not count against its value: a 512-deep answer is
    // taken as it is, and a 513-deep one is refused as a completion (exit 2), naming the limit.
    const bare = file("bare.yao", program("x"));
    const s0 = join(dir, "s0.json");
    const start = yaoc(["run", bare, "--tools", tools, "--format", "json", "--state-out", s0]);
    const [bareReq] = (JSON.parse(start.out) as { requests: { id: string }[] }).requests;
    const answer = (n: number) => file(`bare${n}.json`, `{"id":${JSON.stringify(bareReq!.id)},"value":${text(n)}}`);
    const full = yaoc(["run", "--resume", s0, "--completion", answer(512), "--format", "json"]);
    expect(full.code, full.err).toBe(0);
    expect(JSON.stringify((JSON.parse(full.out) as { value: unknown }).value)).toBe(text(512));
    const over = yaoc(["run", "--resume", s0, "--completion", answer(513), "--format", "json"]);
    expect(over.code).toBe(2);
    expect(over.err).toContain("nesting deeper than 512");
    const explain = yaoc(["explain", "eval.resource"]);
    expect(explain.code).toBe(0);
    expect(explain.out).toContain("a value nesting deeper than 512");
  });
});
