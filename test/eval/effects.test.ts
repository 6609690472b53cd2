import { describe, expect, it } from "vitest";
import {
  resumeState,
  startProgram,
  valueText,
  type Completion,
  type RunResult,
  type Value,
} from "../../src/eval/index.js";
import { answer, compile, replacer, requests } from "./helpers.js";

const start = (src: string) => startProgram(compile(src));

describe("effect requests and completions", () => {
  it("a tool call suspends with its evaluated arguments and resumes with the completion", () => {
    const r = start('(eval (requires (tools read)) (seq (bind p "a.txt") (call read (path p))))');
    const [req] = requests(r);
    expect(req!.get("kind")).toBe("tool");
    expect(req!.get("tool")).toBe("read");
    expect(valueText(req!.get("arguments")!)).toBe('{"path":"a.txt"}');
    expect(String(req!.get("id"))).toMatch(/^yao-effect:[0-9a-f]{32}:1$/);
    const done = answer(r, { id: req!.get("id") as string, value: new Map([["text", "hi"]]) });
    expect(done.result).toMatchObject({ outcome: "value" });
    if (done.result.outcome === "value") expect(valueText(done.result.value)).toBe('{"text":"hi"}');
  });

  it("request ids derive from the program hash and the effect sequence: a replay gives the same ids", () => {
    const src = '(eval (requires (tools read)) (seq (call read (path "a")) (call read (path "b"))))';
    const a = start(src);
    const b = start(src);
    expect(requests(a)[0]!.get("id")).toBe(requests(b)[0]!.get("id"));
    expect(a.state()).toBe(b.state());
    const a2 = answer(a, { id: requests(a)[0]!.get("id") as string, value: null });
    const b2 = answer(b, { id: requests(b)[0]!.get("id") as string, value: null });
    expect(requests(a2)[0]!.get("id")).toMatch(/:2$/);
    expect(a2.state()).toBe(b2.state());
  });

  it("a tool error is a tool failure that fallback catches", () => {
    const r = start('(eval (requires (tools read)) (fallback (call read (path "a")) (to-json "backup")))');
    const done = answer(r, { id: requests(r)[0]!.get("id") as string, error: { message: "no such file" } });
    expect(done.result).toMatchObject({ outcome: "value" });
    const plain = start('(eval (requires (tools read)) (call read (path "a")))');
    const failed = answer(plain, { id: requests(plain)[0]!.get("id") as string, error: { message: "no such file" } });
    expect(failed.result).toMatchObject({ outcome: "failure", failure: { class: "tool", message: "no such file" } });
  });

  it("foreign, stale and conflicting completions are integrity failures that change nothing; exact duplicates are idempotent", () => {
    const r = start('(eval (requires (tools read)) (seq (call read (path "a")) (call read (path "b"))))');
    const id = requests(r)[0]!.get("id") as string;
    const foreign = answer(r, { id: "yao-effect:0000:1", value: null });
    expect(foreign.rejected).toBe(true);
    expect(foreign.result).toMatchObject({ outcome: "failure", failure: { class: "integrity" } });
    expect(foreign.state()).toBe(r.state());
    const wrongKind = answer(r, { id, kind: "infer", value: null });
    expect(wrongKind.rejected).toBe(true);
    const next = answer(r, { id, value: 1n });
    const dup = resumeState(next.state(), { id, value: 1n });
    expect(dup.rejected).toBe(false);
    expect(dup.state()).toBe(next.state());
    const conflicting = resumeState(next.state(), { id, value: 2n });
    expect(conflicting.rejected).toBe(true);
    expect(conflicting.state()).toBe(next.state());
    const id2 = requests(next)[0]!.get("id") as string;
    const finished = resumeState(next.state(), { id: id2, value: null });
    expect(finished.result.outcome).toBe("value");
    const late = resumeState(finished.state(), { id: "yao-effect:x:3", value: null });
    expect(late).toMatchObject({ rejected: true, result: { failure: { class: "integrity" } } });
  });

  it("a completion built in JavaScript that is not a Yao value is refused with its path, and changes nothing", () => {
    const r = start('(eval (requires (tools read)) (call read (path "a")))');
    const id = requests(r)[0]!.get("id") as string;
    // Deeper than value text reads back: a state holding it would not read again.
    const deep = (n: number): Value => (n === 0 ? null : [deep(n - 1)]);
    const cases: [Completion, string][] = [
      [{ id, value: new Map([["rows", [{ enabled: true } as unknown as Value]]]) }, '$["rows"][0]: a plain object'],
      [{ id, value: Number.NaN }, "$: a Float must be finite, found NaN"],
      [{ id, value: [1n, 2n ** 70n] }, "$[1]: the Int 1180591620717411303424 is outside i64"],
      [{ id, value: deep(513) }, "it nests deeper than 512"],
      [{ id, value: null, rounds: Number.NaN }, '"rounds" must be an integer of at least 1'],
      [{ id, value: null, elapsedMs: -1 }, '"elapsedMs" must be an integer of at least 0'],
      [{ id, error: {} } as unknown as Completion, 'exactly one of "value", "text" or "error"'],
    ];
    for (const [c, words] of cases) {
      const out = resumeState(r.state(), c);
      expect(out.rejected, words).toBe(true);
      expect(out.result, words).toMatchObject({
        outcome: "failure",
        failure: { class: "integrity", message: expect.stringContaining(words) },
      });
      expect(out.state()).toBe(r.state());
    }
    expect(resumeState(r.state(), { id, value: deep(512) }).result.outcome).toBe("value");
    // The same answer as a Map is taken, and the state it gives reads back.
    const ok = resumeState(r.state(), { id, value: new Map([["rows", [new Map([["enabled", true]])]]]) });
    expect(ok.result.outcome).toBe("value");
    expect(resumeState(ok.state(), { id, value: new Map([["rows", [new Map([["enabled", true]])]]]) }).rejected).toBe(
      false,
    );
  });

  it("an infer request carries the body, result contract, schema and exactly the captured values", () => {
    const r = start(`(eval (types (record Row (enabled Bool)) (record Table (rows (List Row))))
      (seq (bind secret "s3cr3t") (bind topic "cats")
        (infer (captures topic) (returns Table) (seq topic "classify"))))`);
    const [req] = requests(r);
    expect(req!.get("kind")).toBe("infer");
    expect(valueText(req!.get("captures")!)).toBe('{"topic":"cats"}');
    expect(valueText(req!)).not.toContain("s3cr3t");
    expect(valueText(req!.get("schema")!)).toContain('"additionalProperties":false');
    expect((req!.get("body") as Map<string, unknown>).has("kind")).toBe(true);
    const id = req!.get("id") as string;
    const bad = answer(r, { id, text: '{"rows":[{"enabled":"yes"}]}' });
    expect(bad.result).toMatchObject({
      outcome: "failure",
      failure: { class: "inference", message: '$["rows"][0]["enabled"]: expected Bool, found string' },
    });
    const fenced = answer(r, { id, text: '```json\n{"rows":[]}\n```' });
    expect(fenced.result).toMatchObject({ failure: { class: "inference" } });
    const dupKey = answer(r, { id, text: '{"rows":[],"rows":[]}' });
    expect(dupKey.result).toMatchObject({
      failure: { class: "inference", message: expect.stringContaining("duplicate key") },
    });
    const trailing = answer(r, { id, text: '{"rows":[]} {}' });
    expect(trailing.result).toMatchObject({ failure: { class: "inference" } });
    const extra = answer(r, { id, text: '{"rows":[],"more":1}' });
    expect(extra.result).toMatchObject({ failure: { message: '$["more"]: unknown field' } });
    const missing = answer(r, { id, text: '{"rows":[{}]}' });
    expect(missing.result).toMatchObject({
      failure: { class: "inference", message: '$["rows"][0]["enabled"]: missing required field' },
    });
    const overflow = answer(r, { id, text: '{"rows":[{"enabled":9223372036854775808}]}' });
    expect(overflow.result).toMatchObject({ failure: { class: "inference" } });
    const infinite = answer(r, { id, text: '{"rows":[{"enabled":1e999}]}' });
    expect(infinite.result).toMatchObject({
      failure: { class: "inference", message: expect.stringContaining("not finite") },
    });
    const ok = answer(r, { id, text: '{"rows":[{"enabled":true}]}' });
    expect(ok.result.outcome).toBe("value");
    if (ok.result.outcome === "value")
      expect(valueText(ok.result.value)).toBe(
        '{"$yao":{"fields":{"rows":[{"$yao":{"fields":{"enabled":true},"kind":"record","type":"Row"}}]},"kind":"record","type":"Table"}}',
      );
  });

  it("par with effectful branches gives every request at once, answered in any order, joined in source order", () => {
    const src = `(eval (requires (tools read))
      (par (branch b (call read (path "b"))) (branch a (call read (path "a"))) (branch c 3)))`;
    const r = start(src);
    const reqs = requests(r);
    expect(reqs.map((q) => valueText(q.get("arguments")!))).toEqual(['{"path":"b"}', '{"path":"a"}']);
    const [qb, qa] = reqs.map((q) => q.get("id") as string);
    const order1 = resumeState(answer(r, { id: qa!, value: "A" }).state(), { id: qb!, value: "B" });
    const order2 = resumeState(answer(r, { id: qb!, value: "B" }).state(), { id: qa!, value: "A" });
    expect(order1.result.outcome).toBe("value");
    const text = (x: RunResult) =>
      x.result.outcome === "value" ? valueText(x.result.value) : JSON.stringify(x.result, replacer);
    expect(text(order1)).toBe(text(order2));
    expect(text(order1)).toBe(
      '{"$yao":{"fields":[{"name":"b","value":"B"},{"name":"a","value":"A"},{"name":"c","value":3}],"kind":"structural_record"}}',
    );
  });

  it("a branch failure is one parallel failure naming every branch", () => {
    const r = start(
      `(eval (requires (tools read)) (par (branch x (call read (path "x"))) (branch y (call read (path "y")))))`,
    );
    const [qx, qy] = requests(r).map((q) => q.get("id") as string);
    const after = resumeState(answer(r, { id: qx!, error: { message: "denied" } }).state(), { id: qy!, value: 1n });
    expect(after.result).toMatchObject({
      outcome: "failure",
      failure: {
        class: "parallel",
        branches: [
          { name: "x", status: "failed", class: "tool", message: "denied" },
          { name: "y", status: "succeeded" },
        ],
      },
    });
  });

  it("a branch failure fallback never catches keeps its class at the join, so fallback cannot turn it into data", () => {
    const commit = (k: string) => `(evidence.commit (evidence (kind "${k}") (value (dict (ok true))) (refs)))`;
    const src = `(eval (requires (tools read)) (fallback
      (seq (bind j (par (branch a ${commit("a")}) (branch b (call read (path "b"))))) (to-json "joined"))
      (to-json "caught")))`;
    const r = start(src);
    const [qa, qb] = requests(r).map((q) => q.get("id") as string);
    // The host refuses the commit (an authority failure); the other branch is answered afterwards.
    const denied = resumeState(answer(r, { id: qa!, error: { message: "lease revoked" } }).state(), {
      id: qb!,
      value: "text",
    });
    expect(denied.result).toMatchObject({
      outcome: "failure",
      failure: {
        class: "authority",
        span: { start: { line: 2 } },
        branches: [
          { name: "a", status: "failed", class: "authority", message: "lease revoked" },
          { name: "b", status: "succeeded" },
        ],
      },
    });
    // Integrity outranks authority when both occur; a tool error with an explicit class keeps it.
    const both = resumeState(answer(r, { id: qb!, error: { message: "tampered", class: "integrity" } }).state(), {
      id: qa!,
      error: { message: "lease revoked" },
    });
    expect(both.result).toMatchObject({ failure: { class: "integrity" } });
    // An ordinary branch failure is still one catchable parallel failure: the backup runs.
    const ordinary = resumeState(answer(r, { id: qb!, error: { message: "no such file" } }).state(), {
      id: qa!,
      value: new Map([
        [
          "$yao",
          new Map<string, Value>([
            ["kind", "ref"],
            ["ref_kind", "Evidence"],
            ["id", "e1"],
          ]),
        ],
      ]),
    });
    expect(ordinary.result).toMatchObject({ outcome: "value", value: "caught" });
  });

  it("host operations suspend with a typed host request and decode the result into the declared type", () => {
    const r = start(`(eval (host.view runtime.agent (returns Json)))`);
    const [req] = requests(r);
    expect(req!.get("kind")).toBe("host");
    expect(req!.get("operation")).toBe("host.view");
    const done = answer(r, { id: req!.get("id") as string, value: new Map([["name", "a"]]) });
    expect(done.result.outcome).toBe("value");
    const commit = start(`(eval (evidence.commit (evidence (kind "k") (value (dict (ok true))) (refs))))`);
    const [c] = requests(commit);
    const forged = answer(commit, { id: c!.get("id") as string, value: "not a ref" });
    expect(forged.result).toMatchObject({ outcome: "failure", failure: { class: "value" } });
    const denied = answer(commit, { id: c!.get("id") as string, error: { message: "capability revoked" } });
    expect(denied.result).toMatchObject({ failure: { class: "authority" } });
  });

  it("an authority failure is never caught by fallback", () => {
    const r = start(
      `(eval (fallback (evidence.commit (evidence (kind "k") (value (dict (ok true))) (refs))) (evidence.commit (evidence (kind "b") (value (dict (ok true))) (refs)))))`,
    );
    const [c] = requests(r);
    const denied = answer(r, { id: c!.get("id") as string, error: { message: "revoked" } });
    expect(denied.result).toMatchObject({ outcome: "failure", failure: { class: "authority" } });
  });
});
