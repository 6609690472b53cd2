import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/canonical/hash.js";
import { FAILURE_CLASSES, isCatchable } from "../../src/eval/index.js";
import { canonicalJson } from "../../src/json/jcs.js";
import { yaoc } from "../support/cli.js";

const dir = mkdtempSync(join(tmpdir(), "yaoc-run-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const tools = file(
  "tools.json",
  JSON.stringify({ read: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } }),
);
const json = (out: string) => JSON.parse(out) as Record<string, unknown>;

describe("yaoc run", () => {
  it("prints a value in Yao notation, or as the JSON value model with --format json", () => {
    const p = file("pure.yao", "(eval (seq (bind x (div 7 2)) (par (branch a x) (branch b (some 1)))))");
    const human = yaoc(["run", p]);
    expect(human).toMatchObject({ code: 0 });
    expect(human.out).toContain("value: {a 3.5, b (some 1)}");
    const machine = yaoc(["run", p, "--format", "json"]);
    expect(machine.code).toBe(0);
    expect(machine.out).toContain(
      '{"outcome":"value","value":{"$yao":{"fields":[{"name":"a","value":3.5},{"name":"b","value":{"$yao":{"kind":"option","value":1,"variant":"some"}}}],"kind":"structural_record"}},"state":{',
    );
  });

  it("a failure exits 1 with its class, message and span, and the human form has a code frame", () => {
    const p = file("zero.yao", "(eval (div 1 0))");
    const r = yaoc(["run", p, "--format", "json"]);
    expect(r.code).toBe(1);
    expect(json(r.out)).toMatchObject({
      outcome: "failure",
      class: "value",
      message: "division by zero",
      span: { start: { line: 1, column: 7 } },
    });
    const human = yaoc(["run", p]);
    expect(human.code).toBe(1);
    expect(human.out).toContain("error[eval.value]: value failure: division by zero");
    expect(human.out).toContain("^^^^^^^^^");
  });

  it("an ill-typed program is refused with the analyzer's diagnostics, as check and ir give them", () => {
    const p = file("bad.yao", '(eval (add 1 "x"))');
    const run = yaoc(["run", p]);
    const ir = yaoc(["ir", p]);
    expect(run.code).toBe(1);
    expect(run.out).toBe("");
    expect(run.err).toBe(ir.err);
    expect(run.err).toContain("error[yao.type_mismatch]: numeric operator received String");
    // An ill-typed package: run prints exactly what check prints, and both exit 1.
    const pkg = file(
      "bad.hns",
      '(manifest (id acme.bad) (version "1.0.0") (title "Bad") (capabilities (tools read)))\n(contract (purpose "b"))\n(eval (add 1 "x"))\n',
    );
    const runPkg = yaoc(["run", pkg]);
    const check = yaoc(["check", pkg]);
    expect(runPkg.code).toBe(1);
    expect(check.code).toBe(1);
    expect(runPkg.out + runPkg.err).toBe(check.out + check.err);
    expect(runPkg.err + runPkg.out).toContain("bad.hns:3:14: error[yao.type_mismatch]");
    // With --format json the refusal is one object on stdout, its diagnostics as check's JSON has them.
    const runJson = yaoc(["run", pkg, "--format", "json"]);
    const checkJson = json(yaoc(["check", pkg, "--format", "json"]).out).results as Record<string, unknown>[];
    expect(runJson.code).toBe(1);
    expect(json(runJson.out)).toEqual({ outcome: "rejected", path: pkg, diagnostics: checkJson[0]!.diagnostics });
  });

  it("a static tool argument its schema forbids is refused before the run, as check refuses it", () => {
    const schemas = file(
      "mode-tools.json",
      JSON.stringify({
        write: {
          type: "object",
          properties: { path: { type: "string" }, mode: { type: "string", enum: ["append", "replace"] } },
          required: ["path", "mode"],
        },
      }),
    );
    const call = (mode: string) => `(eval (requires (tools write)) (call write (path "a") (mode "${mode}")))`;
    const pkg = file(
      "mode.hns",
      `(manifest (id acme.mode) (version "1.0.0") (title "Mode") (capabilities (tools write)))\n(contract (purpose "m"))\n${call("delete")}\n`,
    );
    const check = yaoc(["check", pkg, "--tools", schemas]);
    const run = yaoc(["run", pkg, "--tools", schemas]);
    expect(check.code).toBe(1);
    expect(run.code).toBe(1);
    expect(run.out + run.err).toBe(check.out + check.err);
    expect(run.err).toContain("error[eval.tool_contract]");
    expect(run.err).toContain("#/properties/mode/enum");
    // Without the schemas nothing is known of the tool's arguments: the run suspends at the call.
    expect(json(yaoc(["run", pkg, "--format", "json"]).out)).toMatchObject({ outcome: "suspended" });
    // A lone program is held to its --tools schemas the same way; an allowed value runs.
    const lone = file("mode.yao", call("delete"));
    const refused = yaoc(["run", lone, "--tools", schemas, "--format", "json"]);
    expect(refused.code).toBe(1);
    const out = json(refused.out);
    expect(out).toMatchObject({ outcome: "rejected", diagnostics: [{ code: "eval.tool_contract" }] });
    expect(JSON.stringify(out.diagnostics)).toContain("#/properties/mode/enum");
    const fine = yaoc(["run", file("append.yao", call("append")), "--tools", schemas, "--format", "json"]);
    expect(fine.code).toBe(0);
    expect(json(fine.out)).toMatchObject({ outcome: "suspended", requests: [{ kind: "tool", tool: "write" }] });
  });

  it("suspends with requests, resumes with a completion file, and never rewrites a state in place", () => {
    const p = file("tool.yao", '(eval (requires (tools read)) (seq (bind r (call read (path "a.txt"))) (list r)))');
    const s1 = join(dir, "s1.json");
    const first = yaoc(["run", p, "--tools", tools, "--format", "json", "--state-out", s1]);
    expect(first.code).toBe(0);
    const out = json(first.out);
    expect(out.outcome).toBe("suspended");
    expect(out.state).toBeUndefined();
    const [req] = out.requests as { id: string; kind: string; tool: string; arguments: unknown }[];
    expect(req).toMatchObject({ kind: "tool", tool: "read", arguments: { path: "a.txt" } });
    const before = readFileSync(s1, "utf8");
    const c = file("c1.json", JSON.stringify({ id: req!.id, value: { text: "hello" } }));
    const refused = yaoc(["run", "--resume", s1, "--completion", c, "--state-out", s1]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain("already exists");
    expect(readFileSync(s1, "utf8")).toBe(before);
    const s2 = join(dir, "s2.json");
    const done = yaoc(["run", "--resume", s1, "--completion", c, "--format", "json", "--state-out", s2]);
    expect(done.code).toBe(0);
    expect(json(done.out)).toMatchObject({ outcome: "value", value: [{ text: "hello" }] });
    // An exact duplicate is idempotent; any other completion for the finished machine is refused.
    expect(yaoc(["run", "--resume", s2, "--completion", c, "--format", "json"]).code).toBe(0);
    const other = file("c2.json", JSON.stringify({ id: req!.id, value: "different" }));
    const late = yaoc(["run", "--resume", s2, "--completion", other, "--format", "json"]);
    expect(late.code).toBe(1);
    expect(json(late.out)).toMatchObject({ outcome: "failure", class: "integrity", rejected: true });
    expect(json(late.out).state).toBeUndefined();
  });

  it("bad states and completions get a clear error and lose nothing", () => {
    const p = file("tool2.yao", '(eval (requires (tools read)) (call read (path "b")))');
    const s = join(dir, "t1.json");
    expect(yaoc(["run", p, "--tools", tools, "--state-out", s]).code).toBe(0);
    const state = readFileSync(s, "utf8");
    const truncated = file("trunc.json", state.slice(0, 200));
    const c = file("c.json", JSON.stringify({ id: "x", value: 1 }));
    const t = yaoc(["run", "--resume", truncated, "--completion", c, "--format", "json"]);
    expect(t.code).toBe(1);
    expect(json(t.out)).toMatchObject({ class: "integrity" });
    for (const [text, words] of [
      ["{", "not valid JSON"],
      ['{"id":"x","kind":"teleport","value":1}', "unknown request kind"],
      ['{"id":"x"}', "exactly one of"],
      ['{"id":"x","value":1,"value":2}', "duplicate key"],
    ] as const) {
      const r = yaoc(["run", "--resume", s, "--completion", file("bad-c.json", text)]);
      expect(r.code, text).toBe(2);
      expect(r.err, text).toContain(words);
    }
    const huge = file("huge.json", `{"id":"x","value":"${"a".repeat(16 * 1024 * 1024)}"}`);
    const tooBig = yaoc(["run", "--resume", s, "--completion", huge]);
    expect(tooBig.code).toBe(2);
    expect(tooBig.err).toContain("larger than 16777216 bytes");
    // A sparse file: the size is refused before a byte of it is read.
    const bigState = join(dir, "big-state.json");
    writeFileSync(bigState, "");
    truncateSync(bigState, 64 * 1024 * 1024 + 1);
    const bigOut = yaoc(["run", "--resume", bigState, "--completion", c]);
    expect(bigOut.code).toBe(2);
    expect(bigOut.err).toContain("the state is larger than 67108864 bytes");
    const cut = yaoc(["run", "--resume", s, "--completion", file("cut-c.json", '{"id":"x","val')]);
    expect(cut.code).toBe(2);
    expect(cut.err).toContain("not valid JSON");
    const foreign = yaoc(["run", "--resume", s, "--completion", c]);
    expect(foreign.code).toBe(1);
    expect(foreign.out).toContain("integrity failure");
    expect(readFileSync(s, "utf8")).toBe(state);
  });

  it("--max-steps bounds the typed-IR steps (100000 by default); running out is a resource failure", () => {
    const p = file("steps.yao", "(eval (add 1 (add 2 3)))");
    const ok = json(yaoc(["run", p, "--format", "json"]).out);
    expect(ok).toMatchObject({ outcome: "value", value: 6 });
    expect((ok.state as { budgets: Record<string, unknown> }).budgets.steps).toBe(100000);
    const out = yaoc(["run", p, "--max-steps", "2", "--format", "json"]);
    expect(out.code).toBe(1);
    expect(json(out.out)).toMatchObject({
      outcome: "failure",
      class: "resource",
      message: "the typed-IR step budget of 2 is exhausted",
    });
    const bad = yaoc(["run", p, "--max-steps", "two"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("expected a non-negative integer");
  });

  it("--budget overrides budgets, --elapsed-ms reports the time, --cancel cancels; each writes a new state", () => {
    const p = file(
      "deadline.yao",
      '(eval (requires (tools read)) (seq (call read (path "a")) (call read (path "b"))))',
    );
    const s = join(dir, "d1.json");
    const start = yaoc([
      "run",
      p,
      "--tools",
      tools,
      "--budget",
      "elapsed-ms=100",
      "--budget",
      "model-rounds=2",
      "--state-out",
      s,
    ]);
    expect(start.code).toBe(0);
    expect(JSON.parse(readFileSync(s, "utf8")).budgets).toMatchObject({ elapsedMs: 100, modelRounds: 2 });
    const bad = yaoc(["run", p, "--budget", "speed=1"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("expected NAME=N with NAME one of steps, tool-effects");
    const id = (JSON.parse(readFileSync(s, "utf8")) as { pending: string[][] }).pending[0]![0]!;
    const c = file("d-c.json", JSON.stringify({ id, value: "a" }));
    const late = yaoc(["run", "--resume", s, "--completion", c, "--elapsed-ms", "101", "--format", "json"]);
    expect(late.code).toBe(1);
    expect(json(late.out)).toMatchObject({
      class: "resource",
      message: "the elapsed-time budget of 100 ms is exhausted (101 ms elapsed)",
    });
    const both = yaoc(["run", "--resume", s, "--completion", c, "--cancel"]);
    expect(both.code).toBe(2);
    expect(both.err).toContain("not both");
    const s2 = join(dir, "d2.json");
    const cancelled = yaoc(["run", "--resume", s, "--cancel", "the user stopped it", "--state-out", s2]);
    expect(cancelled.code).toBe(1);
    expect(cancelled.out).toContain("cancelled failure (at 1:36): the run was cancelled: the user stopped it");
    const after = yaoc(["run", "--resume", s2, "--completion", c, "--format", "json"]);
    expect(after.code).toBe(1);
    expect(json(after.out)).toMatchObject({ class: "integrity", rejected: true });
  });

  it("--integrity-key-file digests states with HMAC: resuming needs the same key, and a re-digested edit is refused", () => {
    const p = file("keyed.yao", '(eval (requires (tools read)) (call read (path "a")))');
    const key = file("state.key", "a host secret of more than sixteen bytes");
    const s = join(dir, "keyed-1.json");
    expect(yaoc(["run", p, "--tools", tools, "--integrity-key-file", key, "--state-out", s]).code).toBe(0);
    const state = readFileSync(s, "utf8");
    expect(JSON.parse(state).digest).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    const id = (JSON.parse(state) as { pending: string[][] }).pending[0]![0]!;
    const c = file("keyed-c.json", JSON.stringify({ id, value: "text" }));
    const noKey = yaoc(["run", "--resume", s, "--completion", c, "--format", "json"]);
    expect(noKey.code).toBe(1);
    expect(json(noKey.out)).toMatchObject({
      class: "integrity",
      rejected: true,
      message: expect.stringContaining("digested with an integrity key (hmac-sha256); give that key"),
    });
    const other = file("other.key", "another secret of more than sixteen bytes");
    const wrong = yaoc(["run", "--resume", s, "--completion", c, "--integrity-key-file", other, "--format", "json"]);
    expect(json(wrong.out)).toMatchObject({ class: "integrity", rejected: true });
    // An edit of the request's arguments, re-digested the only way the editor can (plain SHA-256).
    const body = JSON.parse(state) as Record<string, unknown> & { pending: string[][] };
    delete body.digest;
    body.pending[0]![3] = body.pending[0]![3]!.replace('"path":"a"', '"path":"b"');
    const forged = file("forged.json", canonicalJson({ ...body, digest: `sha256:${sha256Hex(canonicalJson(body))}` }));
    const refused = yaoc([
      "run",
      "--resume",
      forged,
      "--completion",
      c,
      "--integrity-key-file",
      key,
      "--format",
      "json",
    ]);
    expect(refused.code).toBe(1);
    expect(json(refused.out)).toMatchObject({ class: "integrity", rejected: true });
    const ok = yaoc(["run", "--resume", s, "--completion", c, "--integrity-key-file", key, "--format", "json"]);
    expect(ok.code).toBe(0);
    expect(json(ok.out)).toMatchObject({ outcome: "value", value: "text" });
    expect(JSON.parse(JSON.stringify(json(ok.out).state)).digest).toMatch(/^hmac-sha256:/);
    const short = yaoc(["run", p, "--integrity-key-file", file("short.key", "tiny")]);
    expect(short.code).toBe(2);
    expect(short.err).toContain("an integrity key needs at least 16 bytes (it has 4)");
  });

  it("runs an HNS package's entry", () => {
    const r = yaoc(["run", "examples/review.hns", "--format", "json"]);
    expect(r.code).toBe(0);
    expect(json(r.out)).toMatchObject({ outcome: "suspended", requests: [{ kind: "tool", tool: "read" }] });
  });

  it("a package's run admits the model's program against the package, as yaoc admit does", () => {
    const pkg = file(
      "notes.hns",
      `(manifest (id acme.notes) (version "1.0.0") (title "Notes") (capabilities (tools read)))
(contract (purpose "notes"))
(fn normalize (params (path String)) (returns String) (body path))
(eval (requires (tools read)) (seq (bind p (infer (returns (Program String (effects))) "write a program")) (run p)))
`,
    );
    const internal = '(eval (normalize (path "b.md")))';
    const admit = yaoc(["admit", "--package", pkg, file("model.yao", internal)]);
    expect(admit.code).toBe(1);
    const code = /error\[(yao\.\w+)\]: (.*)/.exec(admit.err);
    expect(code, admit.err).not.toBeNull();
    const started = json(yaoc(["run", pkg, "--format", "json"]).out);
    const [infer] = started.requests as { id: string }[];
    const state = file("notes-state.json", JSON.stringify(started.state));
    const refused = yaoc([
      "run",
      "--resume",
      state,
      "--completion",
      file("internal.json", JSON.stringify({ id: infer!.id, text: internal })),
      "--format",
      "json",
    ]);
    expect(refused.code).toBe(1);
    expect(json(refused.out)).toMatchObject({ outcome: "failure", class: "inference" });
    expect(String(json(refused.out).message)).toMatch(
      new RegExp(
        `^the model's program is not admitted against acme\\.notes 1\\.0\\.0 sha256:[0-9a-f]{64}: ${code![1]}: `,
      ),
    );
    expect(String(json(refused.out).message)).toContain(code![2]!);
    const pure = yaoc([
      "run",
      "--resume",
      state,
      "--completion",
      file("pure.json", JSON.stringify({ id: infer!.id, text: '(eval "ok")' })),
      "--format",
      "json",
    ]);
    expect(json(pure.out)).toMatchObject({ outcome: "suspended", requests: [{ kind: "program" }] });
  });

  it("check --format json reports the tool contract fields, and --tools makes an illegal enum value an error", () => {
    const pkg = file(
      "w.hns",
      `(manifest (id acme.w) (version "1.0.0") (title "W") (capabilities (tools read)))
(contract (purpose "Read"))
(mind (frame (id w/one)))
(eval (requires (tools read)) (call read (path "c")))
`,
    );
    const bad = file(
      "enum-tools.json",
      JSON.stringify({ read: { type: "object", properties: { path: { type: "string", enum: ["a", "b"] } } } }),
    );
    const plain = json(yaoc(["check", pkg, "--format", "json"]).out).results as Record<string, unknown>[];
    expect(plain[0]).toMatchObject({ valid: true, tool_contracts_verified: false, unresolved_tool_schemas: ["read"] });
    const strict = yaoc(["check", pkg, "--tools", bad, "--format", "json"]);
    expect(strict.code).toBe(1);
    const result = (json(strict.out).results as Record<string, unknown>[])[0]!;
    expect(result).toMatchObject({ valid: false, tool_contracts_verified: false, unresolved_tool_schemas: [] });
    expect(JSON.stringify(result.diagnostics)).toContain("#/properties/path/enum");
  });

  it("explain covers every failure class, and says whether fallback catches it", () => {
    expect(FAILURE_CLASSES.length).toBe(8);
    for (const cls of FAILURE_CLASSES) {
      const r = yaoc(["explain", `eval.${cls}`]);
      expect(r.code, cls).toBe(0);
      expect(r.out, cls).toContain(`eval.${cls} (error)`);
      expect(r.out, cls).toContain(`Yao Evaluation Semantics`);
      expect(r.out, cls).toContain(isCatchable(cls) ? "`fallback` catches it" : "`fallback` never catches it");
    }
    expect(yaoc(["explain", "eval.integrity"]).out).toContain("foreign or stale");
  });
});
