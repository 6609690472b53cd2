/**
 * What a cold `yaoc check` loads: the worker pool (node:worker_threads) only with `--jobs` above 1
 * and several packages, the glob library (tinyglobby, with picomatch through require) only for an
 * input that is not a path on disk. Each is a few per cent of a cold check's start-up.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/repo.js";

const BIN = join(REPO_ROOT, "bin", "yaoc.js");
const tmp = mkdtempSync(join(tmpdir(), "yaoc-startup-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const PRELOAD = join(tmp, "loaded.cjs");
writeFileSync(
  PRELOAD,
  `process.on("exit", () => process.stderr.write("LOADED " + JSON.stringify({
    workerThreads: process.moduleLoadList.includes("NativeModule worker_threads"),
    picomatch: Object.keys(require.cache).some((k) => k.includes("picomatch")),
  }) + "\\n"));`,
);

function loaded(args: readonly string[]): { workerThreads: boolean; picomatch: boolean } {
  const r = spawnSync(process.execPath, ["-r", PRELOAD, BIN, "check", ...args], { cwd: REPO_ROOT, encoding: "utf8" });
  expect([0, 1, 2], r.stderr).toContain(r.status);
  const line = r.stderr.split("\n").find((l) => l.startsWith("LOADED "));
  if (line === undefined) throw new Error(`no report in: ${r.stderr}`);
  return JSON.parse(line.slice("LOADED ".length)) as { workerThreads: boolean; picomatch: boolean };
}

describe("yaoc check start-up", () => {
  const one = "fixtures/hns/success/coding.hns";
  const two = "fixtures/hns/success/coding-comments.hns";

  it("loads neither the pool nor the glob library for paths checked in-process", () => {
    expect(loaded([one, two])).toEqual({ workerThreads: false, picomatch: false });
    expect(loaded(["--jobs", "2", one])).toEqual({ workerThreads: false, picomatch: false });
  });

  it("loads the pool for --jobs 2 with two packages, and the glob library for a pattern", () => {
    expect(loaded(["--jobs", "2", one, two]).workerThreads).toBe(true);
    expect(loaded(["fixtures/hns/success/coding-*.hns"]).picomatch).toBe(true);
  });
});
