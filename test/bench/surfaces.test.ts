/**
 * `--only s-params` (or any other s-* name) measures only the figures named (docs/performance.md):
 * surfaceFigures with a list gives those rows and no other. The figure's value is the bench's; this
 * test asserts only which rows come back and that the row is a growth exponent with its target.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SURFACE_FIGURES, surfaceFigures } from "../../bench/surfaces.js";

const tmp = mkdtempSync(join(tmpdir(), "yaoc-surfaces-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("the s-* figures", () => {
  it("names s-params among the surface figures", () => {
    expect(SURFACE_FIGURES).toContain("s-params");
  });

  it("measures only s-params when asked for it alone", async () => {
    const rows = await surfaceFigures(join(import.meta.dirname, "../.."), tmp, 1, ["s-params"]);
    expect(rows.map((r) => r.figure)).toEqual(["s-params"]);
    expect(rows[0]!.target).toBe("≤ 1.15");
    expect(rows[0]!.yardstick).toContain("2,500 vs 20,000 parameters");
    expect(Number.isFinite(rows[0]!.ratio)).toBe(true);
  }, 120_000);
});
