/**
 * Issue 34 item 3: one cause gives one diagnostic, so no frozen output holds two diagnostics with
 * the same code at the same place. Every golden record under golden/ is scanned: each
 * `diagnostics` array anywhere in it (check results, loader views, receipts), a diagnostic's place
 * being whatever locates it there (file, line and column, end, byte, JSON pointer, `at`).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "../hns/helpers.js";

const PLACE_KEYS = ["file", "line", "column", "end_line", "end_column", "byte", "end_byte", "pointer", "at"] as const;

function goldenJsonFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) goldenJsonFiles(path, out);
    else if (entry.name.endsWith(".json")) out.push(path);
  }
  return out;
}

/** Every array under a `diagnostics` key, at any depth. */
function diagnosticLists(value: unknown, into: unknown[][] = []): unknown[][] {
  if (Array.isArray(value)) for (const v of value) diagnosticLists(v, into);
  else if (value !== null && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) {
      if (key === "diagnostics" && Array.isArray(v)) into.push(v);
      diagnosticLists(v, into);
    }
  }
  return into;
}

function placeOf(d: Record<string, unknown>): string {
  return JSON.stringify([d.code, ...PLACE_KEYS.map((k) => d[k] ?? null)]);
}

describe("no two diagnostics with the same code and span in any golden output", () => {
  const files = goldenJsonFiles(join(REPO, "golden"));
  const lists = files.flatMap((file) => {
    const json: unknown = JSON.parse(readFileSync(file, "utf8"));
    return diagnosticLists(json).map((list) => ({ file: relative(REPO, file), list }));
  });

  it("finds the corpus: golden records with diagnostics, several per list in some", () => {
    expect(files.length).toBeGreaterThan(100);
    const located = lists.flatMap(({ list }) => list).filter((d) => typeof (d as { code?: unknown }).code === "string");
    expect(located.length).toBeGreaterThan(200);
    expect(lists.some(({ list }) => list.length >= 3)).toBe(true);
  });

  it("has no duplicate (code, place) within one output", () => {
    const duplicates: string[] = [];
    for (const { file, list } of lists) {
      const seen = new Set<string>();
      for (const d of list) {
        if (d === null || typeof d !== "object" || typeof (d as { code?: unknown }).code !== "string") continue;
        const key = placeOf(d as Record<string, unknown>);
        if (seen.has(key)) duplicates.push(`${file}: ${key}`);
        seen.add(key);
      }
    }
    expect(duplicates).toEqual([]);
  });

  it("would report a duplicate (the scan can fail)", () => {
    const d = { code: "hns.unknown_field", file: "p.hns", line: 1, column: 5 };
    expect(placeOf(d)).toBe(placeOf({ ...d }));
    expect(placeOf(d)).not.toBe(placeOf({ ...d, column: 6 }));
    expect(diagnosticLists({ results: [{ diagnostics: [d, d] }] })).toEqual([[d, d]]);
  });
});
