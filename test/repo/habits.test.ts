/**
 * Habits in CI (issue 15): `npm test` lints and format-checks before anything else, so an
 * unformatted or lint-failing change cannot pass the suite, and the compiler refuses unused code.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/repo.js";

const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
};

describe("habits", () => {
  it("npm test runs the Biome check first, failing on warnings too", () => {
    expect(pkg.scripts["test"]?.startsWith("npm run lint && ")).toBe(true);
    expect(pkg.scripts["lint"]).toBe("biome ci --error-on-warnings .");
    expect(pkg.devDependencies["@biomejs/biome"]).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("the compiler refuses unused locals and parameters", () => {
    const tsconfig = readFileSync(join(REPO_ROOT, "tsconfig.json"), "utf8");
    expect(tsconfig).toMatch(/"noUnusedLocals": true/);
    expect(tsconfig).toMatch(/"noUnusedParameters": true/);
  });
});
