/**
 * The CLI as a user runs it: `node bin/yaoc.js check [--format json] PATH...` and `yaoc hash PATH`,
 * spawned as a child process (requires the build in dist/, as `npm test` does first).
 * Exit codes: 0 all valid, 1 some invalid, 2 usage or I/O error.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { REPO } from "./helpers.js";

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const runs = new Map<string, Promise<Run>>();
/** Runs are started once and shared; the suite starts them all up front so they overlap. */
function yaoc(...args: string[]): Promise<Run> {
  const key = JSON.stringify(args);
  let run = runs.get(key);
  if (run === undefined) {
    run = spawnYaoc(args);
    runs.set(key, run);
  }
  return run;
}

/**
 * At most as many CLI processes at once as there are cores: starting all of them together on a
 * loaded 2-core machine made each wait past its hang guard (a bare-clone run saw exit -1, the
 * timeout's kill, on six tests). The guard is generous; speed is measured in npm run bench.
 */
const MAX_RUNNING = Math.max(2, availableParallelism());
let running = 0;
const waiting: (() => void)[] = [];

async function spawnYaoc(args: readonly string[]): Promise<Run> {
  if (running >= MAX_RUNNING) await new Promise<void>((go) => waiting.push(go));
  running++;
  const env = { ...process.env };
  delete env.FORCE_COLOR;
  delete env.NO_COLOR;
  try {
    return await new Promise((resolve) => {
      execFile(
        process.execPath,
        ["bin/yaoc.js", ...args],
        { cwd: REPO, env, timeout: 120_000 },
        (error, stdout, stderr) => {
          const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
          resolve({ code, stdout, stderr });
        },
      );
    });
  } finally {
    running--;
    waiting.shift()?.();
  }
}

const golden = (rel: string): { identity: string } =>
  JSON.parse(readFileSync(join(REPO, "golden/hns", `${rel}.json`), "utf8")) as { identity: string };
const VALID = "fixtures/hns/success/coding.hns";
const VALID_DIR = "fixtures/hns/success/coding-dir.hns";
const WARN = "fixtures/hns/success/warn-empty-title.hns";
const INVALID = "fixtures/hns/failure/yao.unclosed_list/single.hns";
const INVALID_DIR = "fixtures/hns/failure/hns.entry_escape/dir-parent.hns";

const built = existsSync(join(REPO, "dist/src/cli/main.js"));

describe.skipIf(!built)("yaoc CLI (skipped unbuilt)", () => {
  beforeAll(async () => {
    // Queue every invocation of this suite up front: process start-up dominates, and overlaps.
    await Promise.all([
      yaoc("check", VALID),
      yaoc("check", INVALID),
      yaoc("check", WARN, VALID_DIR, INVALID_DIR),
      yaoc("check", "--format", "json", VALID, INVALID, WARN),
      yaoc("check", "--format=json", "fixtures/hns/success/infer-tools-dir.hns", VALID_DIR),
      yaoc("check", "no/such/dir"),
      yaoc("check", VALID, "missing.hns"),
      yaoc("check", "--format", "xml", VALID),
      yaoc("check", "--frobnicate", VALID),
      yaoc("hash"),
      yaoc("hash", VALID),
      yaoc("hash", `${VALID_DIR}/`),
      yaoc("hash", "fixtures/hns/success/change-fn-body.hns"),
      yaoc("hash", "fixtures/hns/failure/hns.duplicate_fn/dir.hns"),
      yaoc("hash", "missing.hns"),
    ]);
  }, 300_000);

  it("check, human: a valid package exits 0 with an ok line and a summary, no colour when piped", async () => {
    const r = await yaoc("check", VALID);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `${VALID}: ok (hns) ${golden("success/coding.hns").identity}\n1 package checked: 1 valid, 0 invalid; 0 errors, 0 warnings\n`,
    );
    expect(r.stdout).not.toContain("\x1b[");
  });

  it("check, human: an invalid package exits 1 with file:line:col: error[code]: message and a caret frame", async () => {
    const r = await yaoc("check", INVALID);
    expect(r.code).toBe(1);
    expect(r.stdout.split("\n")).toEqual([
      `${INVALID}:3:1: error[yao.unclosed_list]: ${INVALID} is not valid typed Yao: unclosed list`,
      "  |",
      "3 | (eval (seq 1 2)",
      "  | ^^^^^^^^^^^^^^^ this list is never closed",
      "  = help: add the missing ')': every '(' needs a matching ')' before the end of the file",
      `${INVALID}: invalid (hns)`,
      "1 package checked: 0 valid, 1 invalid; 1 error, 0 warnings",
      "",
    ]);
  });

  it("check: the four-mistake package shows its four errors in one run, with labels and did-you-mean", async () => {
    const file = "fixtures/teaching/four-mistakes.hns";
    const r = await yaoc("check", file);
    expect(r.code).toBe(1);
    const headers = r.stdout.split("\n").filter((l) => l.startsWith(`${file}:`) && l.includes(": error["));
    expect(headers.map((l) => /error\[([a-z_.]+)\]/.exec(l)![1])).toEqual([
      "yao.unknown_operator",
      "yao.type_mismatch",
      "yao.missing_description",
      "yao.invalid_type",
    ]);
    expect(r.stdout).toContain("^^^^^ no type of this name");
    expect(r.stdout).toContain("= help: did you mean 'String'?");
    expect(r.stdout).toContain("= help: Yao spells this operator 'add': write (add …)");
    expect(r.stdout).toContain("^^^^^^^ expected Int, found String");
    expect(r.stdout).toContain("------------- 'label-for' is declared to return Int here");
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe("1 package checked: 0 valid, 1 invalid; 4 errors, 0 warnings");
  });

  it("check, human: warnings do not make a package invalid; several paths give one summary", async () => {
    const r = await yaoc("check", WARN, VALID_DIR, INVALID_DIR);
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(
      `${WARN}:4:3: warning[hns.empty_title]: (manifest ...) (title ...) is empty; give the package a human-readable title`,
    );
    expect(lines).toContain(`${VALID_DIR}: ok (hns) ${golden("success/coding-dir.hns").identity}`);
    expect(lines).toContain(
      `${INVALID_DIR}/manifest.yao:1:44: error[hns.entry_escape]: Harness entry must stay within the package directory: "../outside.yao"`,
    );
    expect(lines.at(-1)).toBe("3 packages checked: 2 valid, 1 invalid; 1 error, 1 warning");
  });

  it("check --format json prints exactly one JSON document with the documented shape", async () => {
    const r = await yaoc("check", "--format", "json", VALID, INVALID, WARN);
    expect(r.code).toBe(1);
    expect(r.stdout.endsWith("\n")).toBe(true);
    expect(r.stdout.trimEnd().includes("\n")).toBe(false);
    const doc = JSON.parse(r.stdout) as { results: Record<string, unknown>[] };
    expect(Object.keys(doc)).toEqual(["results"]);
    // The result shape, then the evidence receipt fields of seed 002.
    // A package whose analysis ran also has the tool contract report (docs/eval.md); one that does
    // not load has none.
    const common = ["path", "kind", "valid", "identity", "id", "version", "owner", "program_hash", "diagnostics"];
    const report = ["tool_contracts_verified", "tool_schema_coverage", "unresolved_tool_schemas"];
    const receipt = ["evidence_class", "measure_source", "measure_ts", "repro_hash"];
    expect(doc.results.map((x) => Object.keys(x))).toEqual([
      [...common, ...report, ...receipt],
      [...common, ...receipt],
      [...common, ...report, ...receipt],
    ]);
    expect(doc.results[0]).toEqual({
      evidence_class: "simulated",
      measure_source: null,
      measure_ts: null,
      repro_hash: expect.stringMatching(/^[0-9a-f]{16}$/),
      path: VALID,
      kind: "hns",
      valid: true,
      identity: golden("success/coding.hns").identity,
      id: "coding",
      version: "1.0.0",
      owner: "runtime",
      program_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      diagnostics: [],
      tool_contracts_verified: expect.any(Boolean),
      tool_schema_coverage: expect.any(Object),
      unresolved_tool_schemas: expect.any(Array),
    });
    expect(doc.results[1]).toMatchObject({
      path: INVALID,
      kind: "hns",
      valid: false,
      identity: null,
      id: null,
      version: null,
      owner: null,
      program_hash: null,
    });
    expect(doc.results[1]!.diagnostics).toEqual([
      {
        code: "yao.unclosed_list",
        severity: "error",
        message: `${INVALID} is not valid typed Yao: unclosed list`,
        reference_message: `${INVALID} is not valid typed Yao: UnclosedList at 3:1: unclosed list`,
        file: INVALID,
        line: 3,
        column: 1,
        end_line: 4,
        end_column: 1,
        byte: 68,
        end_byte: 84,
        function: null,
        label: "this list is never closed",
        help: "add the missing ')': every '(' needs a matching ')' before the end of the file",
        pointer: null,
        related: [],
        action: "block",
        layer: "L1",
        reason: "struct_unclosed_list",
      },
    ]);
    const warn = doc.results[2]!;
    expect(warn.valid).toBe(true);
    expect((warn.diagnostics as { code: string; severity: string }[]).map((d) => [d.code, d.severity])).toEqual([
      ["hns.empty_title", "warning"],
    ]);
  });

  it("check --format=json on valid packages only exits 0 (model-owned directory package)", async () => {
    const r = await yaoc("check", "--format=json", "fixtures/hns/success/infer-tools-dir.hns", VALID_DIR);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { results: { owner: string; valid: boolean }[] };
    expect(doc.results[0]).toMatchObject({ valid: true, owner: "model", id: "decider" });
    expect(doc.results[1]).toMatchObject({
      valid: true,
      owner: "runtime",
      id: "coding",
      identity: golden("success/coding.hns").identity,
    });
  });

  it("check: a missing path is an I/O error (exit 2), with or without the .hns suffix", async () => {
    const [b, c] = await Promise.all([yaoc("check", "no/such/dir"), yaoc("check", VALID, "missing.hns")]);
    expect(b.code).toBe(2);
    expect(b.stdout).toContain("error[cli.not_found]");
    expect(c.code).toBe(2);
    expect(c.stdout).toContain(`${VALID}: ok (hns)`);
    expect(c.stdout).toContain("missing.hns: error[hns.not_found]");
  });

  it("usage errors exit 2: bad --format value, unknown option, missing argument", async () => {
    const usage = await Promise.all([
      yaoc("check", "--format", "xml", VALID),
      yaoc("check", "--frobnicate", VALID),
      yaoc("hash"),
    ]);
    for (const r of usage) {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/error/);
    }
  });

  it("hash prints only the identity; single file and directory agree", async () => {
    const [a, b] = await Promise.all([yaoc("hash", VALID), yaoc("hash", `${VALID_DIR}/`)]);
    expect(a).toEqual({ code: 0, stdout: `${golden("success/coding.hns").identity}\n`, stderr: "" });
    expect(b.code).toBe(0);
    expect(b.stdout).toBe(a.stdout);
  });

  it("hash is structural: a fn body an analyzer would reject still hashes like the reference", async () => {
    const r = await yaoc("hash", "fixtures/hns/success/change-fn-body.hns");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${golden("success/change-fn-body.hns").identity}\n`);
  });

  it("hash of an invalid package exits 1 with the diagnostic on stderr; of a missing one exits 2", async () => {
    const [bad, missing] = await Promise.all([
      yaoc("hash", "fixtures/hns/failure/hns.duplicate_fn/dir.hns"),
      yaoc("hash", "missing.hns"),
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain("error[hns.duplicate_fn]: directory .hns declares the same fn name more than once");
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toContain("error[hns.not_found]");
  });
});
