/**
 * One bundler (issue 33 item 7): esbuild builds the CLI bundle, the browser core, the playground,
 * the VS Code client and the catalog tests' worker; nothing imports vite (vitest brings its own),
 * and the project does not depend on it directly. docs/architecture.md ("Dependencies") says why.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/repo.js";

const BUNDLERS = [
  "scripts/bundle-cli.mjs",
  "scripts/build-browser.mjs",
  "playground/build.mjs",
  "scripts/bundle-extension.mjs",
  "test/catalog/helpers.ts",
];
const read = (rel: string): string => readFileSync(join(REPO_ROOT, rel), "utf8");
const importsOf = (text: string): string[] =>
  [...text.matchAll(/\bfrom\s+["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((m) => (m[1] ?? m[2])!);

describe("one bundler", () => {
  it("every bundling script builds with esbuild", () => {
    expect(BUNDLERS.length).toBe(5);
    for (const rel of BUNDLERS) expect(importsOf(read(rel)), rel).toContain("esbuild");
  });

  it("no script, test, bench or playground source imports vite, and package.json does not depend on it", () => {
    const files = ["scripts", "test", "bench", "playground", "src", "editors/vscode/src"].flatMap((dir) =>
      (readdirSync(join(REPO_ROOT, dir), { recursive: true }) as string[])
        .filter((f) => /\.(ts|mts|mjs|js)$/.test(f) && !f.includes("node_modules"))
        .map((f) => join(dir, f)),
    );
    expect(files.length).toBeGreaterThan(300);
    const vite = files.filter((f) => importsOf(read(f)).some((m) => m === "vite" || m.startsWith("vite/")));
    expect(vite).toEqual([]);
    const pkg = JSON.parse(read("package.json")) as Record<string, Record<string, string> | undefined>;
    expect(pkg["dependencies"]?.["vite"]).toBeUndefined();
    expect(pkg["devDependencies"]?.["vite"]).toBeUndefined();
    expect(pkg["devDependencies"]?.["esbuild"]).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
