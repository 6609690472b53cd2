/**
 * Only the reference-conformance tests may read the reference material kept beside the repository,
 * and only through their one helper (test/reference/reference.ts): no other source, test, script,
 * benchmark, grammar, schema, CI or configuration file may name that folder, and nothing outside
 * test/reference/ may import the helper. A clone without the folder must test everything with our
 * own fixtures. Prose documentation (README.md, docs/, fixtures/README.md) may cite the reference
 * notes for humans; code may not, not even in a comment.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/repo.js";

// Built from pieces so that this file does not name the folder itself.
const FOLDER = ["sha", "red"].join("");
const PATTERNS: RegExp[] = [
  new RegExp(`\\.\\.[\\\\/]${FOLDER}\\b`), // ../<folder> or ..\<folder>
  new RegExp(`["'\`]${FOLDER}["'\`]`), // a path segment: join(REPO, "..", "<folder>")
  new RegExp(`\\b${FOLDER}[\\\\/](reference|seeds|tools|hooks)\\b`), // <folder>/reference/…
  new RegExp(`/work/${FOLDER}\\b`),
];
const HELPER_IMPORT = /from\s+["'][^"']*reference\/reference\.js["']|from\s+["']\.\/reference\.js["']/;

/** The pattern a text matches, if it names the reference folder. */
export function namesReferenceFolder(text: string): string | null {
  for (const p of PATTERNS) {
    const m = p.exec(text);
    if (m) return m[0];
  }
  return null;
}

const CODE_ROOTS = [
  "src",
  "test",
  "scripts",
  "bench",
  "grammar",
  "bin",
  "ir",
  "schemas",
  "conformance",
  "examples",
  "playground",
  ".ci",
].filter((d) => existsSync(join(REPO_ROOT, d)));
const ROOT_FILES = ["package.json", "vitest.config.ts", "tsconfig.json", "tsconfig.build.json", ".gitignore"];
const HELPER = join("test", "reference", "reference.ts");
/** CI sets YAOC_REQUIRE_REFERENCE=1 when the folder is there; it reads nothing from it. */
const CI_RUN = join(".ci", "run");

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else out.push(p);
  }
  return out;
}

const all = [...CODE_ROOTS.flatMap((d) => files(join(REPO_ROOT, d))), ...ROOT_FILES.map((f) => join(REPO_ROOT, f))].map(
  (p) => relative(REPO_ROOT, p),
);

describe("the reference folder is read only by the reference-conformance tests", () => {
  it("the scan finds the code it is meant to scan", () => {
    expect(all).toContain(join("src", "index.ts"));
    expect(all).toContain(join("scripts", "fuzz-targets.ts"));
    expect(all).toContain(HELPER);
    expect(all.length).toBeGreaterThan(200);
  });

  it("recognises every way of naming the folder (so the scan can fail)", () => {
    const dotdot = "..";
    for (const sample of [
      `${dotdot}/${FOLDER}/reference/x.json`,
      `join(REPO, "${dotdot}", "${FOLDER}", "reference")`,
      `${FOLDER}/seeds/000.md`,
      `/work/${FOLDER}`,
      `${dotdot}\\${FOLDER}`,
    ]) {
      expect(namesReferenceFolder(sample), sample).not.toBeNull();
    }
    for (const fine of [
      'rec("acme/shared", "1.9.0")',
      "shared types of the entry",
      "const sharedPath = 1",
      "SharedArrayBuffer",
    ]) {
      expect(namesReferenceFolder(fine), fine).toBeNull();
    }
  });

  it("no file but test/reference/reference.ts and .ci/run (which requires the suites when it is there) names it", () => {
    const offenders = all
      .filter((f) => f !== HELPER && f !== CI_RUN)
      .flatMap((f) => {
        const hit = namesReferenceFolder(readFileSync(join(REPO_ROOT, f), "latin1"));
        return hit === null ? [] : [`${f}: ${hit}`];
      });
    expect(offenders).toEqual([]);
  });

  it("the helper does name it (the scan would notice it moving)", () => {
    expect(namesReferenceFolder(readFileSync(join(REPO_ROOT, HELPER), "utf8"))).not.toBeNull();
  });

  it("every reference-conformance test file puts its tests inside describeReference (so they skip with the reason)", () => {
    const dir = join(REPO_ROOT, "test", "reference");
    const tests = readdirSync(dir).filter((f) => f.endsWith(".test.ts"));
    expect(tests.length).toBeGreaterThanOrEqual(10);
    for (const f of tests) {
      const text = readFileSync(join(dir, f), "utf8");
      expect(text, f).toContain("describeReference(");
      expect(text.match(/^(describe|it|test)\b/gm), f).toBeNull();
    }
  });

  it("only test/reference/ uses the helper", () => {
    const inside = `${join("test", "reference")}${sep}`;
    const offenders = all.filter(
      (f) =>
        !f.startsWith(inside) &&
        /\.(ts|mts|js|mjs)$/.test(f) &&
        HELPER_IMPORT.test(readFileSync(join(REPO_ROOT, f), "utf8")),
    );
    expect(offenders).toEqual([]);
  });
});
