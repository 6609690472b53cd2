/**
 * `yaoc new` and `yaoc init` (issue 34, item 8): each makes a package that passes `yaoc check`,
 * is already formatted, points to docs/language.md, and never overwrites anything.
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { formatSource } from "../../src/fmt/index.js";
import { REPO_ROOT } from "../support/repo.js";

const BIN = join(REPO_ROOT, "bin/yaoc.js");

function yaoc(args: string[], cwd: string): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

const temps: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "yaoc-new-"));
  temps.push(d);
  return d;
}
afterEach(() => {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
});

function filesUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe("yaoc new and init", () => {
  it("new NAME, new NAME --dir, and init in NAME.hns/ and in a plain directory make packages that check", () => {
    const d = tempDir();
    expect(yaoc(["new", "one"], d)).toMatchObject({ code: 0, err: "" });
    expect(yaoc(["new", "two", "--dir"], d)).toMatchObject({ code: 0, err: "" });
    mkdirSync(join(d, "three.hns"));
    expect(yaoc(["init"], join(d, "three.hns"))).toMatchObject({ code: 0, err: "" });
    mkdirSync(join(d, "four"));
    expect(yaoc(["init"], join(d, "four"))).toMatchObject({ code: 0, err: "" });
    const made = ["one.hns", "two.hns", "three.hns", "four/four.hns"].map((p) => join(d, p));
    expect(readdirSync(join(d, "two.hns")).sort()).toEqual(["contract.yao", "functions", "manifest.yao", "programs"]);
    expect(readdirSync(join(d, "three.hns")).sort()).toEqual(["contract.yao", "functions", "manifest.yao", "programs"]);
    const check = yaoc(["check", "--format", "json", ...made], d);
    expect(check.code, check.out + check.err).toBe(0);
    const results = (JSON.parse(check.out) as { results: { valid: boolean; diagnostics: unknown[] }[] }).results;
    expect(results.map((r) => [r.valid, r.diagnostics.length])).toEqual(made.map(() => [true, 0]));
    for (const p of made) {
      const files = filesUnder(p);
      expect(files.length, p).toBeGreaterThan(0);
      for (const f of files) {
        const text = readFileSync(f, "utf8");
        const formatted = formatSource(text);
        expect(formatted.ok && formatted.text, f).toBe(text);
      }
    }
    expect(readFileSync(join(d, "one.hns"), "utf8")).toContain("docs/language.md");
    expect(readFileSync(join(d, "two.hns/manifest.yao"), "utf8")).toContain("docs/language.md");
    expect(readFileSync(join(d, "one.hns"), "utf8")).toContain("(id one)");
  });

  it("refuses a name that exists, changing nothing, and a name that cannot be an id (exit 2)", () => {
    const d = tempDir();
    writeFileSync(join(d, "taken.hns"), "mine\n");
    const r = yaoc(["new", "taken"], d);
    expect(r.code).toBe(2);
    expect(r.err).toContain("already exists");
    expect(readFileSync(join(d, "taken.hns"), "utf8")).toBe("mine\n");
    expect(yaoc(["new", "taken", "--dir"], d).code).toBe(2);
    for (const bad of ["two words", "1st", "a/b", "../up", ""]) {
      const b = yaoc(["new", bad], d);
      expect(b.code, bad).toBe(2);
      expect(b.out).toBe("");
    }
    expect(readdirSync(d)).toEqual(["taken.hns"]);
    mkdirSync(join(d, "has.hns"));
    writeFileSync(join(d, "has.hns/manifest.yao"), "(manifest)\n");
    const i = yaoc(["init"], join(d, "has.hns"));
    expect(i.code).toBe(2);
    expect(readdirSync(join(d, "has.hns"))).toEqual(["manifest.yao"]);
    expect(existsSync(join(d, "has.hns/contract.yao"))).toBe(false);
  });
});
