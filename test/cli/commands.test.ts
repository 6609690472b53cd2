/** The yaoc command line: hash for every kind, --strict, and broken package links. */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/repo.js";

const BIN = join(REPO_ROOT, "bin/yaoc.js");

function yaoc(args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

describe("yaoc hash", () => {
  it.each([["examples/review.hns"], ["examples/review-dir.hns"], ["fixtures/harp/valid-full"], ["fixtures/hcp/valid"]])(
    "%s: prints exactly the identity yaoc check reports",
    (path) => {
      const check = JSON.parse(
        execFileSync(process.execPath, [BIN, "check", "--format", "json", path], { cwd: REPO_ROOT, encoding: "utf8" }),
      ) as {
        results: { identity: string | null }[];
      };
      const identity = check.results[0]!.identity;
      expect(identity).toMatch(/^sha256:[0-9a-f]{64}$/);
      const r = yaoc(["hash", path]);
      // An HCP digest covers only the three protocol files; hash says so every time it prints one.
      const note = path.includes("hcp")
        ? "note: the HCP pack digest covers only surface.json, policy.json and HARNESS.md (by design, docs/hcp.md); other files in the pack are not part of it\n"
        : "";
      expect(r).toEqual({ code: 0, out: `${identity}\n`, err: note });
    },
  );

  it("exits 1 with the diagnostics on stderr for an invalid package, 2 for a missing path", () => {
    const invalid = yaoc(["hash", "fixtures/harp/invalid-duplicate-key"]);
    expect(invalid.code).toBe(1);
    expect(invalid.out).toBe("");
    expect(invalid.err).toContain("harp.duplicate_key");
    expect(yaoc(["hash", "no/such/package"]).code).toBe(2);
  });
});

describe("yaoc check --strict", () => {
  it("turns warnings into errors: the package becomes invalid (exit 1) and has no identity", () => {
    const path = "fixtures/hns/success/warn-unknown-field.hns";
    const lenient = yaoc(["check", "--format", "json", path]);
    const strict = yaoc(["check", "--strict", "--format", "json", path]);
    expect(lenient.code).toBe(0);
    expect(strict.code).toBe(1);
    const l = (
      JSON.parse(lenient.out) as { results: { identity: string; diagnostics: { code: string; severity: string }[] }[] }
    ).results[0]!;
    const s = (
      JSON.parse(strict.out) as {
        results: { identity: string | null; diagnostics: { code: string; severity: string }[] }[];
      }
    ).results[0]!;
    expect(l.diagnostics.length).toBeGreaterThan(0);
    expect(l.diagnostics.every((d) => d.code === "hns.unknown_field" && d.severity === "warning")).toBe(true);
    expect(s.diagnostics.map((d) => [d.code, d.severity])).toEqual(l.diagnostics.map((d) => [d.code, "error"]));
    expect(l.identity).toMatch(/^sha256:/);
    expect(s.identity).toBeNull();
  });

  it("leaves a clean package valid", () => {
    expect(yaoc(["check", "--strict", "examples/review.hns"]).code).toBe(0);
  });
});

describe("yaoc check on a package path that is a broken symbolic link", () => {
  it("reports a dangling link or a loop as an invalid package (exit 1), not a missing path", () => {
    const dir = mkdtempSync(join(tmpdir(), "yaoc-links-"));
    try {
      symlinkSync("loop.hns", join(dir, "loop.hns"));
      symlinkSync("missing.hns", join(dir, "dangling.hns"));
      for (const name of ["loop.hns", "dangling.hns"]) {
        const r = yaoc(["check", join(dir, name)]);
        expect(r.code).toBe(1);
        expect(r.out).toContain("error[hns.not_regular_file]");
        expect(r.out).toContain("does not resolve");
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
