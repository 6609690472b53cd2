/**
 * CI runs `yaoc attest` after the tests (.ci/run → .ci/attest, issue 20): red fails CI, yellow is
 * printed and passes, and an exit 2 that is not a yellow report (a usage error) fails. The step is
 * run with a stub `yaoc` (YAOC) that writes the report a real run would.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/repo.js";

const tmp = mkdtempSync(join(tmpdir(), "yaoc-ci-attest-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A stub yaoc: `attest --out DIR` writes a report with `verdict` (none: no report) and exits `code`. */
function stub(verdict: "green" | "yellow" | "red" | null, code: number): string {
  const file = join(tmp, `yaoc-${verdict ?? "none"}-${code}`);
  const report =
    verdict === null
      ? ""
      : `mkdir -p "$3"; printf '%s\\n' '{"check":"D8","status":"warn"}' '{"check":"verdict","verdict":"${verdict}","verdict_hash":"0"}' > "$3/attestation.jsonl"; printf -- '- [~] **D8** honesty\\n  - \`evidence.hon_measured_no_source\` bench\\n' > "$3/attestation.md"`;
  writeFileSync(
    file,
    `#!/usr/bin/env bash\n[ "$1" = attest ] && [ "$2" = --out ] || exit 64\n${report}\nexit ${code}\n`,
  );
  chmodSync(file, 0o755);
  return file;
}

const ci = (yaoc: string) =>
  spawnSync(join(REPO_ROOT, ".ci/attest"), [], { encoding: "utf8", env: { ...process.env, YAOC: yaoc } });

describe(".ci/attest", () => {
  it("passes green and yellow (printing the warnings), fails red and a bare exit 2", () => {
    expect(ci(stub("green", 0)).status).toBe(0);
    const yellow = ci(stub("yellow", 2));
    expect(yellow.status).toBe(0);
    expect(yellow.stdout).toContain("attest: yellow (not fatal)");
    expect(yellow.stdout).toContain("evidence.hon_measured_no_source");
    const red = ci(stub("red", 1));
    expect(red.status).toBe(1);
    expect(red.stderr).toContain('verdict "verdict":"red"');
    expect(ci(stub(null, 2)).status).toBe(1);
    expect(ci(stub("yellow", 70)).status).toBe(1);
  });

  it(".ci/run calls it after the test suite", () => {
    const run = readFileSync(join(REPO_ROOT, ".ci/run"), "utf8");
    const tests = run.indexOf("npm test");
    const step = run.search(/^\.ci\/attest$/m);
    expect(tests).toBeGreaterThan(0);
    expect(step).toBeGreaterThan(tests);
  });
});
