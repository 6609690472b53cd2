/**
 * docs/architecture.md is the code map; a map that names files or folders the tree no longer has is
 * worse than none. Every repository path the page names (src/…, test/…, ir/…, grammar/…, scripts/…,
 * bench/…, playground/…, editors/…, schemas/…, golden/…, fixtures/…) must exist, and every folder
 * under src/ must have its paragraph in the "Folders" section.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/repo.js";

const page = readFileSync(join(REPO_ROOT, "docs/architecture.md"), "utf8");
const PATH =
  /(?<![\w./-])((?:src|test|ir|grammar|scripts|bench|playground|editors|schemas|golden|fixtures)\/[\w./-]*[\w/])/g;

describe("docs/architecture.md", () => {
  it("names only paths that exist", () => {
    const named = [...new Set([...page.matchAll(PATH)].map((m) => m[1]!.replace(/\/$/, "")))];
    expect(named.length).toBeGreaterThan(30);
    const missing = named.filter((p) => !p.includes("*") && !existsSync(join(REPO_ROOT, p)));
    expect(missing).toEqual([]);
  });

  it("gives every folder under src/ its paragraph in Folders", () => {
    const folders = page.slice(page.indexOf("## Folders"), page.indexOf("## Invariants"));
    const dirs = readdirSync(join(REPO_ROOT, "src")).filter((d) => statSync(join(REPO_ROOT, "src", d)).isDirectory());
    expect(dirs.filter((d) => !folders.includes(`\`src/${d}\``))).toEqual([]);
  });

  it("gives every folder under src/ a row of the code map, with an invariant and tests that exist", () => {
    const map = page.slice(page.indexOf("## Code map"), page.indexOf("## The check facade"));
    const rows = [...map.matchAll(/^\| `src\/([\w-]+)` \| ([^|]+) \| ([^|]+) \|$/gm)];
    expect(rows.length).toBeGreaterThan(15);
    const dirs = readdirSync(join(REPO_ROOT, "src")).filter((d) => statSync(join(REPO_ROOT, "src", d)).isDirectory());
    const mapped = new Set(rows.map((r) => r[1]!));
    expect(dirs.filter((d) => !mapped.has(d))).toEqual([]);
    for (const [, folder, invariant, tests] of rows) {
      expect(invariant!.trim().length, folder).toBeGreaterThan(10);
      const named = [...tests!.matchAll(/test\/[\w./-]+\.ts/g)].map((m) => m[0]);
      expect(named.length, folder).toBeGreaterThan(0);
      expect(
        named.filter((t) => !existsSync(join(REPO_ROOT, t))),
        folder,
      ).toEqual([]);
    }
  });
});
