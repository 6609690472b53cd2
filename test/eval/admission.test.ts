/**
 * `run` of a model-written Program Value in a run of an HNS package's entry: the model's program is
 * admitted by the same rules as `admitProgram` and `yaoc admit` (one function, admitAgainst), so a
 * program that breaks one is refused with the diagnostic admit gives, as an `inference` failure
 * naming the package. The state carries what admission needs, so the worker that resumes with the
 * model's answer admits by the package without having it.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { describe, expect, it } from "vitest";
import { resumeState, startProgram, STATE_VERSION, type RunResult } from "../../src/eval/index.js";
import { loadFromSource } from "../../src/hns/load.js";
import { canonicalJson } from "../../src/json/jcs.js";
import { readOne } from "../../src/syntax/reader.js";
import { admitProgram, analyzePackage } from "../../src/yao/package-analysis.js";
import { requests } from "./helpers.js";

/** An entry that asks the model for a program reading notes and runs it; `normalize` is internal. */
const PACKAGE = `
(manifest (id acme.notes) (version "1.0.0") (title "Notes") (capabilities (tools read search exec)))
(contract (purpose "notes"))
(fn normalize (params (path String)) (returns String) (body path))
(fn load (visibility exported) (description "Load one note") (params (path String)) (returns Json)
  (effects (tool read)) (body (call read (path (normalize (path path))))))
(eval (requires (tools read search)) (types (record Note (path String)))
  (seq (bind p (infer (returns (Program Json (effects (tool read)))) "write a program that reads a note")) (run p)))`;

function pkg() {
  const loaded = loadFromSource("notes.hns", PACKAGE);
  if (!loaded.ok) throw new Error(loaded.diagnostics.map((d) => d.message).join("; "));
  return loaded.package;
}

function startPackage(): { run: RunResult; inferId: string; pkg: ReturnType<typeof pkg> } {
  const p = pkg();
  const analysis = analyzePackage(p);
  if (analysis.program === undefined) throw new Error(analysis.diagnostics.map((d) => d.message).join("; "));
  const run = startProgram(analysis.program, { package: p });
  const [infer] = requests(run);
  expect(infer!.get("kind")).toBe("infer");
  return { run, inferId: infer!.get("id") as string, pkg: p };
}

function admitted(p: ReturnType<typeof pkg>, text: string) {
  const read = readOne(text, { file: "model.yao" });
  if (!read.ok) throw new Error(read.diagnostic.message);
  return admitProgram(p, read.form);
}

/** One model program per admission rule; each breaks that rule and nothing else. */
const BREAKS: readonly (readonly [string, string])[] = [
  ["applies an internal function", '(eval (requires (tools read)) (normalize (path "b.md")))'],
  ["requires a tool outside the entry's bound", '(eval (requires (tools exec)) (call exec (cmd "x")))'],
  ["calls a tool outside the entry's bound, with no requires", '(eval (call exec (cmd "x")))'],
  [
    "reaches a tool through (requires (effects (program …))) outside the bound",
    "(eval (requires (effects (program (tool exec)))) 1)",
  ],
  [
    "applies a function whose tool is outside its own requires",
    '(eval (requires (tools search)) (load (path "b.md")))',
  ],
];

describe("run in a package's entry: model-written programs are admitted against the package", () => {
  it.each(BREAKS)("refuses a program that %s, with admit's diagnostic", (_rule, text) => {
    const { run, inferId, pkg: p } = startPackage();
    const expected = admitted(p, text).diagnostics[0];
    expect(expected, "admit refuses this program too").toBeDefined();
    const out = resumeState(run.state(), { id: inferId, text });
    expect(out.rejected).toBe(false);
    expect(out.result).toEqual({
      outcome: "failure",
      failure: {
        class: "inference",
        message: `the model's program is not admitted against acme.notes 1.0.0 ${p.identity}: ${expected!.code}: ${expected!.message}`,
        span: expect.anything(),
      },
    });
  });

  it("admits and runs a program that applies an exported function and uses the shared types", () => {
    const { run, inferId, pkg: p } = startPackage();
    const text = '(eval (requires (tools read)) (seq (bind n (record Note (path "b.md"))) (load (path (get n path)))))';
    expect(admitted(p, text).diagnostics).toEqual([]);
    const handoff = resumeState(run.state(), { id: inferId, text });
    const [program] = requests(handoff);
    expect(program!.get("kind")).toBe("program");
    const running = resumeState(handoff.state(), { id: program!.get("id") as string, value: null });
    const [call] = requests(running);
    expect(call!.get("tool")).toBe("read");
    const done = resumeState(running.state(), { id: call!.get("id") as string, value: "the note" });
    expect(done.result).toEqual({ outcome: "value", value: "the note" });
  });

  it("a plain program's run knows no package: the same exported function is unknown there", () => {
    const p = pkg();
    const analysis = analyzePackage(p);
    const run = startProgram(analysis.program!);
    const [infer] = requests(run);
    const out = resumeState(run.state(), {
      id: infer!.get("id") as string,
      text: '(eval (requires (tools read)) (load (path "b.md")))',
    });
    expect(out.result).toMatchObject({ outcome: "failure", failure: { class: "inference" } });
    if (out.result.outcome === "failure") {
      expect(out.result.failure.message).toMatch(/^the model's program is not admitted: yao\./);
      expect(out.result.failure.message).not.toContain("acme.notes");
    }
  });

  it("keeps the package in the state; an edited admission is refused as integrity and changes nothing", () => {
    const { run, inferId } = startPackage();
    const state = JSON.parse(run.state()) as Record<string, unknown>;
    expect(state.version).toBe(STATE_VERSION);
    expect(state.admission).toMatchObject({
      package: { id: "acme.notes", version: "1.0.0" },
      tool_bound: ["read", "search"],
      manifest_tools: ["read", "search", "exec"],
    });
    const widened = run.state().replace('"tool_bound":["read","search"]', '"tool_bound":["exec","read","search"]');
    expect(widened).not.toBe(run.state());
    const out = resumeState(widened, { id: inferId, text: '(eval (call exec (cmd "x")))' });
    expect(out.rejected).toBe(true);
    expect(out.result).toMatchObject({ outcome: "failure", failure: { class: "integrity" } });
    expect(out.state()).toBe(widened);
  });

  it("still resumes a version 2 state (no admission field), as a run with no package", () => {
    const { run, inferId } = startPackage();
    const { digest: _digest, admission: _admission, ...body } = JSON.parse(run.state()) as Record<string, unknown>;
    const v2Body = { ...body, version: 2 };
    const digest = `sha256:${bytesToHex(sha256(new TextEncoder().encode(canonicalJson(v2Body))))}`;
    const v2 = canonicalJson({ ...v2Body, digest });
    const out = resumeState(v2, { id: inferId, text: "(eval 1)" });
    expect(out.rejected).toBe(false);
    expect(requests(out)[0]!.get("kind")).toBe("program");
    expect((JSON.parse(out.state()) as Record<string, unknown>).admission).toBeNull();
    // A version 2 state that names an admission is not one that version 2 wrote.
    const forged = { ...v2Body, admission: null };
    const text = canonicalJson({
      ...forged,
      digest: `sha256:${bytesToHex(sha256(new TextEncoder().encode(canonicalJson(forged))))}`,
    });
    expect(resumeState(text, { id: inferId, text: "(eval 1)" })).toMatchObject({
      rejected: true,
      result: { failure: { class: "integrity", message: expect.stringContaining("has an admission field") } },
    });
  });
});
