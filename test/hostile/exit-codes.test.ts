/**
 * One exit-code table for every command (README "Exit codes", `yaoc help`): a path that cannot be
 * used — missing, a dangling symlink, a symlink loop — is a usage/I/O error, exit 2, in every
 * command that takes one, never 1 ("invalid") and never a stack trace. The HARP commands follow the
 * same table and are tested with the HARP host.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/shared.js";

const root = mkdtempSync(join(tmpdir(), "yaoc-exit-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const MISSING = join(root, "missing");
const DANGLING = join(root, "dangling");
const LOOP = join(root, "loop-a");
symlinkSync(join(root, "nowhere"), DANGLING);
symlinkSync(join(root, "loop-b"), LOOP);
symlinkSync(LOOP, join(root, "loop-b"));

function yaoc(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(REPO_ROOT, "bin", "yaoc.js"), ...args],
      { cwd: root, timeout: 60_000, env: { ...process.env, YAOC_CATALOG: join(root, "catalog") } },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stdout, stderr });
      },
    );
  });
}

const GOOD_HNS = join(REPO_ROOT, "examples", "review.hns");

/** Every non-HARP command that takes a path, with the path in each place it can go. */
const COMMANDS: ((p: string) => string[])[] = [
  (p) => ["check", p],
  (p) => ["check", "--format", "json", p],
  (p) => ["hash", p],
  (p) => ["ir", p],
  (p) => ["ir", GOOD_HNS, "--tools", p],
  (p) => ["profile", p],
  (p) => ["admit", "--package", p, GOOD_HNS],
  (p) => ["admit", "--package", GOOD_HNS, p],
  (p) => ["a3s", "model", p],
  (p) => ["a3s", "readiness", p],
  (p) => ["a3s", "check", p],
  (p) => ["a3s", "resolve", "x", "--registry", p, "--target", "linux-x86_64", "--use-version", "0.3.0"],
  (p) => ["a3s", "lock", "verify", p],
  (p) => ["okf", "check", p],
  (p) => ["okf", "check", join(REPO_ROOT, "fixtures", "a3s", "okf", "bundle-v02"), "--contract", p],
  (p) => ["hcp", "lint", p],
  (p) => ["hcp", "lint", "--json", p],
  (p) => ["hcp", "digest", p],
  (p) => ["catalog", "install", p],
  (p) => ["evidence", "receipt", p],
  (p) => ["evidence", "canon", p],
  (p) => ["evidence", "hash", p],
  (p) => ["golden", "verify", p],
  (p) => ["golden", "freeze", "--root", p],
  (p) => ["attest", "--root", p, "--out", join(root, "reports")],
  (p) => ["attest", "--golden", p, "--out", join(root, "reports")],
];

describe("a path that cannot be used is exit 2 in every command", () => {
  const cases = COMMANDS.flatMap((make) =>
    [
      ["missing", MISSING],
      ["dangling symlink", DANGLING],
      ["symlink loop", LOOP],
    ].map(([label, path]) => [make(path!).join(" ").replace(root, "…"), label!, make(path!)] as const),
  );
  it.each(cases)(
    "%s (%s)",
    async (_name, _label, args) => {
      const r = await yaoc(args);
      expect(r.stderr).not.toMatch(/^ {4}at /m);
      expect(r.stderr).not.toContain("internal error");
      expect(r.code, r.stderr.slice(0, 600)).toBe(2);
    },
    120_000,
  );
});

describe("the exit-code table", () => {
  it("is printed by yaoc help", async () => {
    const r = await yaoc(["help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Exit codes (the same in every command):");
    expect(r.stdout).toMatch(/^ {2}0 {2}ok:/m);
    expect(r.stdout).toMatch(/^ {2}1 {2}invalid input or a failed check/m);
    expect(r.stdout).toMatch(/^ {2}2 {2}usage or I\/O error/m);
  });

  it("is in the README, with the same three meanings", () => {
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    expect(readme).toContain("| 0 | ok: every package valid, the command did what was asked |");
    expect(readme).toMatch(/^\| 1 \| invalid input or a failed check/m);
    expect(readme).toMatch(/^\| 2 \| usage or I\/O error/m);
  });
});
