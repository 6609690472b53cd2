/**
 * No import cycle in src/: not between files, and not between top-level folders (`src/hns`,
 * `src/yao`, …; a file directly under src/ is its own node). Type-only imports count: a circle of
 * types is still a circle a reader has to climb. The cycle finder is tried on made-up graphs first,
 * so a finder that never reports cannot pass.
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/repo.js";
import { cycles, importsOf, sourceFiles, type Edge } from "./graph.js";

function graphOf(edges: readonly Edge[], node: (file: string) => string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const e of edges) {
    const [from, to] = [node(e.from), node(e.to)];
    if (!graph.has(from)) graph.set(from, new Set());
    if (from !== to) graph.get(from)!.add(to);
  }
  return graph;
}

const cyclesOf = (graph: Map<string, Set<string>>): string[][] =>
  cycles([...graph.keys()].sort(), (n) => [...(graph.get(n) ?? [])]);

/** `src/hns/load.ts` → `src/hns`; `src/index.ts` → itself. */

const folderOf = (file: string): string => (file.split("/").length > 2 ? file.split("/").slice(0, 2).join("/") : file);

function sourceEdges(): Edge[] {
  const files = sourceFiles(`${REPO_ROOT}src`);
  expect(files.length).toBeGreaterThan(100);
  return files
    .flatMap((f) => importsOf(relative(REPO_ROOT, f), readFileSync(f, "utf8")))
    .filter((e) => e.to.startsWith("src/"));
}

describe("import cycles", () => {
  it("the finder reports a circle of files, one through a type-only import, and a circle of folders", () => {
    const text = {
      "src/a/x.ts": 'import { y } from "./y.js";',
      "src/a/y.ts": 'import type { X } from "./x.js";',
      "src/a/z.ts": 'import { y } from "./y.js";\nimport { q } from "../b/q.js";',
      "src/b/q.ts": 'export { z } from "../a/z.js";',
      "src/c/r.ts": 'import { q } from "../b/q.js";',
    };
    const edges = Object.entries(text).flatMap(([f, t]) => importsOf(f, t));
    expect(cyclesOf(graphOf(edges, (f) => f))).toEqual([
      ["src/a/x.ts", "src/a/y.ts"],
      ["src/a/z.ts", "src/b/q.ts"],
    ]);
    expect(cyclesOf(graphOf(edges, folderOf))).toEqual([["src/a", "src/b"]]);
    const acyclic = edges.filter((e) => e.from !== "src/a/y.ts" && e.from !== "src/b/q.ts");
    expect(cyclesOf(graphOf(acyclic, (f) => f))).toEqual([]);
    expect(cyclesOf(graphOf(acyclic, folderOf))).toEqual([]);
  });

  it("no two files of src/ import each other, directly or around a circle", () => {
    expect(cyclesOf(graphOf(sourceEdges(), (f) => f))).toEqual([]);
  });

  it("no two top-level folders of src/ import each other, directly or around a circle", () => {
    const graph = graphOf(sourceEdges(), folderOf);
    expect(graph.size).toBeGreaterThan(15);
    expect(cyclesOf(graph)).toEqual([]);
  });
});
