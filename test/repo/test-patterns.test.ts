/**
 * No test that can pass without testing (issue 33 item 6): the patterns of test-patterns.ts are
 * absent from every test source. The finder is exercised on made-up snippets first, each bad one
 * beside its good neighbour, so a rule that could never fire is caught too.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/repo.js";
import { findTestPatterns } from "./test-patterns.js";

const rules = (source: string): string[] => findTestPatterns(source).map((f) => f.rule);

describe("the test-pattern finder", () => {
  it("finds a silent return on an environment probe, not a narrowing return or a ctx.skip", () => {
    expect(rules('  if (spawnSync("mkfifo", [p]).status !== 0) return;')).toEqual(["probe-return"]);
    expect(rules("  if (made.status !== 0) return; // no mkfifo on this system")).toEqual(["probe-return"]);
    expect(rules('  if (!existsSync("/proc/self/fd")) {\n    return;\n  }')).toEqual(["probe-return"]);
    expect(rules("  if (!r.ok) return;")).toEqual([]);
    expect(rules("  if (!r.ok) {\n    return;\n  }")).toEqual([]);
    expect(rules('  skipUnless(ctx, made.status === 0, "no mkfifo on this system");')).toEqual([]);
  });

  it("finds a conditional test or suite whose title does not say why it may be skipped", () => {
    expect(rules('describe.skipIf(!built)("yaoc CLI", () => {')).toEqual(["skip-without-reason"]);
    expect(rules('  it.skipIf(!procfs)(\n    "reads a procfs file",\n    async () => {')).toEqual([
      "skip-without-reason",
    ]);
    expect(rules('it.runIf(NO_SANDBOX !== null)("says why", () => {')).toEqual(["skip-without-reason"]);
    expect(rules('describe.skipIf(!built)("yaoc CLI (skipped before npm run build)", () => {')).toEqual([]);
    expect(
      rules('  it.skipIf(!procfs)(\n    "reads a procfs file (skipped without /proc)",\n    async () => {'),
    ).toEqual([]);
    expect(rules("it.skipIf(SKIP)(`starts an app (${SANDBOX_SKIP_NOTE})`, async () => {")).toEqual([]);
    expect(rules('expect(titles(\'it.skipIf(x)("b", f)\')).toEqual(["b"]);')).toEqual([]);
  });

  it("finds a placeholder test, not one in a string or one with a body", () => {
    expect(rules('it("reads the folder", () => undefined);')).toEqual(["placeholder"]);
    expect(rules('  test("x", async () => {});')).toEqual(["placeholder"]);
    expect(rules('expect(titles(\'it("a", () => {});\')).toEqual(["a"]);')).toEqual([]);
    expect(rules('it("x", () => expect(1).toBe(1));')).toEqual([]);
  });

  it("finds an assertion loop over found things without a non-emptiness assertion before it", () => {
    expect(rules("for (const m of src.matchAll(/a/g)) expect(m[0]).toBe('a');")).toEqual(["unasserted-loop"]);
    const found = "const names = readdirSync(dir);\n";
    const loop = "for (const n of names) {\n  expect(n).toMatch(/x/);\n}\n";
    expect(rules(found + loop)).toEqual(["unasserted-loop"]);
    expect(rules(`${found}expect(names.length).toBeGreaterThan(0);\n${loop}`)).toEqual([]);
    expect(rules(`${found}// may be empty: a fresh catalog has none\n${loop}`)).toEqual([]);
    // A loop that only collects (a directory walk) is asserted on by whoever uses the list.
    expect(rules("for (const n of readdirSync(dir)) out.push(join(dir, n));")).toEqual([]);
    // A counter bounded after the loop is an assertion too.
    const counted = `${found}let seen = 0;\nfor (const n of names) {\n  expect(n).toMatch(/x/);\n  seen++;\n}\nexpect(seen).toBeGreaterThan(3);\n`;
    expect(rules(counted)).toEqual([]);
  });
});

describe("test sources", () => {
  it("have no silent skip, skip without a reason, placeholder test or unasserted loop over found things", () => {
    const root = join(REPO_ROOT, "test");
    const files = (readdirSync(root, { recursive: true }) as string[]).filter(
      (f) => f.endsWith(".ts") && f !== join("repo", "test-patterns.ts") && f !== join("repo", "test-patterns.test.ts"),
    );
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((f) =>
      findTestPatterns(readFileSync(join(root, f), "utf8")).map((x) => `test/${f}:${x.line} ${x.rule}: ${x.text}`),
    );
    expect(found).toEqual([]);
  });
});
