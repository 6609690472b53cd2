import { describe, expect, it } from "vitest";
import {
  continueState,
  resumeState,
  localRuntime,
  startProgram,
  StateError,
  valueText,
  type Completion,
  type EffectRequest,
  type RunResult,
} from "../../src/eval/index.js";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { sha256Hex } from "../../src/canonical/hash.js";
import { MAX_STATE_BYTES, STATE_VERSION } from "../../src/eval/index.js";
import { canonicalJson } from "../../src/json/jcs.js";
import { programJson } from "../../src/yao/ir-json.js";
import { compile, replacer } from "./helpers.js";

/** Programs that reach every frame kind: pure forms, effects, par threads, fallback unwinding, functions. */
const PROGRAMS = [
  "(eval (seq (bind x (add 2 3)) (if (eq x 5) (mul x 2) 0)))",
  "(eval (map (list 1 2 3) x (fallback (div 1 (sub x 2)) 0.0)))",
  `(eval (types (union D (a (n Int)) (b))) (seq (bind d (variant D.a (n 4))) (match d ((case D.a (n k)) (add k 1)) ((case D.b) 0))))`,
  "(eval (and (lt 1 2) (or false (not false))))",
  `(eval (requires (tools read)) (seq (bind p "a") (bind r (call read (path p))) (bind s (call read (path "b"))) (list r s)))`,
  `(eval (requires (tools read)) (par (branch b (seq (bind q (call read (path "b"))) q)) (branch a (call read (path "a"))) (branch c (add 1 2))))`,
  `(eval (requires (tools read)) (fallback (call read (path "fails")) (to-json 1.5)))`,
  `(eval (seq (bind topic "t") (bind secret "s") (infer (captures topic) (returns (List Int)) topic)))`,
  "(eval (par (branch z 1.0) (branch a (dict (k (some 2))))))",
];

/** Answers every request deterministically from its sequence number and kind. */
function answerFor(req: EffectRequest): Completion {
  const id = req.get("id") as string;
  const seq = req.get("sequence") as bigint;
  const args = req.get("arguments");
  if (args instanceof Map && args.get("path") === "fails") return { id, error: { message: "boom" } };
  if (req.get("kind") === "infer") return { id, text: "[1, 2, 3]" };
  return { id, value: new Map([["seq", seq]]) };
}

function outcomeText(r: RunResult): string {
  // Values compare as their canonical text (member order in memory is not part of a value).
  return r.result.outcome === "value" ? valueText(r.result.value) : JSON.stringify(r.result, replacer);
}

/** Run to the end answering requests in order; with `perStep`, stop, serialize and restore after every single step. */
function drive(src: string, perStep: boolean): { outcome: string; states: string[] } {
  const options = perStep ? { stepLimit: 1 } : {};
  let r = startProgram(compile(src), options);
  const states: string[] = [];
  for (let guard = 0; guard < 10_000; guard++) {
    states.push(r.state());
    if (r.result.outcome === "running") {
      r = continueState(r.state(), options);
      continue;
    }
    if (r.result.outcome !== "suspended") break;
    const [first] = r.result.requests;
    r = resumeState(r.state(), answerFor(first!), options);
  }
  return { outcome: outcomeText(r), states };
}

describe("machine state", () => {
  it("serializing and restoring after every step gives the uninterrupted result", () => {
    for (const src of PROGRAMS) {
      const whole = drive(src, false);
      const stepped = drive(src, true);
      expect(stepped.outcome, src).toBe(whole.outcome);
      expect(stepped.states.length).toBeGreaterThan(whole.states.length);
      // The final state is the same bytes however the run was cut.
      expect(stepped.states.at(-1), src).toBe(whole.states.at(-1));
    }
  });

  it("is canonical JSON with a version and no clock or randomness: the same run gives the same bytes", () => {
    const a = drive(PROGRAMS[5]!, false).states;
    const b = drive(PROGRAMS[5]!, false).states;
    expect(a).toEqual(b);
    const state = JSON.parse(a[0]!) as Record<string, unknown>;
    expect(state.format).toBe("yaoc-eval-state");
    expect(state.version).toBe(STATE_VERSION);
    expect(Object.keys(state)).toEqual([...Object.keys(state)].sort());
  });

  it("refuses an edited program, request arguments, budgets or version, or a truncated state, as integrity, and changes nothing", () => {
    const r = startProgram(compile('(eval (requires (tools read)) (call read (path "a.txt")))'));
    const state = r.state();
    const id = (r.result.outcome === "suspended" && (r.result.requests[0]!.get("id") as string)) || "";
    for (const edited of [
      state.replace("a.txt", "b.txt"),
      state.replace(`"version":${STATE_VERSION}`, `"version":${STATE_VERSION + 1}`),
      state.replace('"toolEffects":128', '"toolEffects":100000'),
      state.replace(`"version":${STATE_VERSION}`, '"version":2'),
      state.slice(0, state.length / 2),
      "",
      "[]",
      state.replace(/"digest":"sha256:[0-9a-f]+"/, '"digest":"sha256:00"'),
    ]) {
      const out = resumeState(edited, { id, value: null });
      expect(out.rejected, edited.slice(0, 40)).toBe(true);
      expect(out.result).toMatchObject({ outcome: "failure", failure: { class: "integrity" } });
      expect(out.state()).toBe(edited);
    }
  });

  it("refuses an oversized state before reading it, and a re-digested state with an unknown request kind", () => {
    const r = startProgram(compile('(eval (requires (tools read)) (call read (path "a")))'));
    const id = (r.result.outcome === "suspended" && (r.result.requests[0]!.get("id") as string)) || "";
    const huge = resumeState(" ".repeat(MAX_STATE_BYTES + 1), { id, value: null });
    expect(huge).toMatchObject({
      rejected: true,
      result: {
        failure: {
          class: "integrity",
          message: `corrupt machine state: the state is larger than ${MAX_STATE_BYTES} bytes`,
        },
      },
    });
    // A writer who can recompute the plain digest still meets the shape checks.
    const body = JSON.parse(r.state()) as Record<string, unknown> & { pending: unknown[][] };
    delete body.digest;
    body.pending[0]![1] = "teleport";
    const forged = canonicalJson({ ...body, digest: `sha256:${sha256Hex(canonicalJson(body))}` });
    const out = resumeState(forged, { id, value: null });
    expect(out).toMatchObject({
      rejected: true,
      result: { failure: { class: "integrity", message: "corrupt machine state: unknown request kind 'teleport'" } },
    });
    expect(out.state()).toBe(forged);
  });

  it("with an integrity key, a state re-digested without the key is refused", () => {
    const key = new TextEncoder().encode("host secret");
    const r = startProgram(compile('(eval (requires (tools read)) (call read (path "a")))'), { integrityKey: key });
    const id = (r.result.outcome === "suspended" && (r.result.requests[0]!.get("id") as string)) || "";
    expect(resumeState(r.state(), { id, value: null }, { integrityKey: key }).result.outcome).toBe("value");
    expect(resumeState(r.state(), { id, value: null }).result).toMatchObject({
      failure: { message: expect.stringContaining("digested with an integrity key (hmac-sha256); give that key") },
    });
    const plain = startProgram(compile('(eval (requires (tools read)) (call read (path "a")))'));
    expect(resumeState(plain.state(), { id, value: null }, { integrityKey: key })).toMatchObject({
      rejected: true,
      result: {
        failure: { message: expect.stringContaining("a plain digest (sha256), but an integrity key was given") },
      },
    });
    // A forger edits the pending request's arguments and budgets, then recomputes the digest it can:
    // the plain one, or an HMAC under a key it guessed. Both are refused; the state is unchanged.
    const body = JSON.parse(r.state()) as Record<string, unknown> & {
      pending: string[][];
      budgets: Record<string, number>;
    };
    delete body.digest;
    body.pending[0]![3] = body.pending[0]![3]!.replace('"path":"a"', '"path":"/etc/shadow"');
    body.budgets.toolEffects = 1_000_000;
    const text = canonicalJson(body);
    const hex = (k: string) =>
      [...hmac(sha256, new TextEncoder().encode(k), new TextEncoder().encode(text))]
        .map((b) => b.toString(16).padStart(2, "0"))
        .join("");
    for (const digest of [`sha256:${sha256Hex(text)}`, `hmac-sha256:${hex("guessed")}`]) {
      const forged = canonicalJson({ ...body, digest });
      const out = resumeState(forged, { id, value: null }, { integrityKey: key });
      expect(out, digest.slice(0, 12)).toMatchObject({
        rejected: true,
        result: { failure: { class: "integrity", message: expect.stringContaining("digest") } },
      });
      expect(out.state()).toBe(forged);
    }
    // The same edit under the right key reads: the key is what stops a forger, as docs/eval.md says.
    expect(
      resumeState(
        canonicalJson({ ...body, digest: `hmac-sha256:${hex("host secret")}` }),
        { id, value: null },
        {
          integrityKey: key,
        },
      ).rejected,
    ).toBe(false);
  });

  it("grows with live bindings, not with steps taken", () => {
    const size = (n: number) => {
      const binds = Array.from({ length: n }, (_, i) => `(bind v${i} ${i})`).join(" ");
      const r = startProgram(compile(`(eval (requires (tools read)) (seq ${binds} (call read (path "x"))))`));
      return r.state().length;
    };
    const base = size(1);
    const d1 = size(41) - base;
    const d2 = size(81) - base;
    expect(d2 / d1).toBeGreaterThan(1.8);
    expect(d2 / d1).toBeLessThan(2.2);
  });
});

describe("starting from the IR text yaoc ir prints", () => {
  it("runs it as the analyzer's program, and refuses edited IR or source text", () => {
    const program = compile('(eval (requires (tools read)) (seq (bind x (div 7 2)) (call read (path "a.txt"))))');
    const text = `${programJson(program)}\n`;
    const fromText = startProgram(text);
    const fromProgram = startProgram(program);
    expect(fromText.result).toMatchObject({ outcome: "suspended" });
    expect(fromText.state()).toBe(fromProgram.state());
    // An edit that keeps the IR well-formed changes its program_hash: the stated source_hash no longer matches.
    expect(() => startProgram(text.replace('"a.txt"', '"b.txt"'))).toThrow(/does not match its program_hash/);
    expect(() => startProgram("(eval 1)")).toThrow(/not valid JSON/);
    expect(() => startProgram("(eval 1)")).toThrow(StateError);
  });

  it("refuses a runtime binding the state could not hold, and writes a state that resumes with one it can", () => {
    const program = compile('(eval (requires (tools read)) (seq (bind a runtime.agent) (call read (path "a"))))');
    let deep: unknown = null;
    for (let i = 0; i < 600; i++) deep = [deep];
    for (const runtime of [{ agent: "plain object" }, deep, Number.NaN, new Map([["agent", undefined]])])
      expect(() => startProgram(program, { runtime: runtime as never })).toThrow(
        /the runtime binding is not a Yao value/,
      );
    // A well-formed runtime of the host's own is kept in the state and read back on resume.
    const own = localRuntime() as Map<string, unknown>;
    const runtime = new Map(own).set("objective", "ship it") as never;
    const r = startProgram(program, { runtime });
    expect(r.result.outcome).toBe("suspended");
    expect(r.state()).toContain("ship it");
    const id = (r.result.outcome === "suspended" ? r.result.requests[0]!.get("id") : "") as string;
    const done = resumeState(r.state(), { id, value: "x" });
    expect(done.rejected).toBe(false);
    expect(done.result).toMatchObject({ outcome: "value", value: "x" });
  });
});

describe("budgets", () => {
  it("exhausting a budget is a resource failure at the node that exceeded it", () => {
    expect(startProgram(compile("(eval (add 1 (add 2 3)))"), { budgets: { steps: 2 } }).result).toMatchObject({
      outcome: "failure",
      failure: { class: "resource", message: "the typed-IR step budget of 2 is exhausted" },
    });
    expect(
      startProgram(compile("(eval (map (list 1 2 3) x x))"), { budgets: { mapElements: 2 } }).result,
    ).toMatchObject({
      failure: { class: "resource", message: "map collection has 3 elements; the map element budget is 2" },
    });
    const r = startProgram(
      compile('(eval (requires (tools read)) (seq (call read (path "a")) (call read (path "b"))))'),
      {
        budgets: { toolEffects: 1 },
      },
    );
    const id = (r.result.outcome === "suspended" && (r.result.requests[0]!.get("id") as string)) || "";
    expect(resumeState(r.state(), { id, value: null }).result).toMatchObject({
      failure: { class: "resource", message: "the tool effect budget of 1 is exhausted" },
    });
  });

  it("the Morphz defaults: 128 tool effects, 8 inference effects, nesting 4, 64 map elements", () => {
    const r = startProgram(compile("(eval 1)"));
    const budgets = (JSON.parse(r.state()) as { budgets: Record<string, number> }).budgets;
    expect(budgets).toMatchObject({ toolEffects: 128, inferEffects: 8, nesting: 4, mapElements: 64, branches: 32 });
  });

  it("a resource failure is caught by fallback", () => {
    const r = startProgram(compile("(eval (fallback (map (list 1 2 3) x x) (list)))"), { budgets: { mapElements: 2 } });
    expect(r.result).toMatchObject({ outcome: "value" });
  });
});
