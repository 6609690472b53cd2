/**
 * Replays every input `npm run fuzz` saved under fixtures/fuzz-regressions/ through the target it
 * broke: each must now produce diagnostics without throwing (and so without hanging the suite).
 */
import { describe, expect, it } from "vitest";
import { listRegressions, seedFor, target } from "../../scripts/fuzz-targets.js";

const saved = listRegressions();

describe("fuzz regressions", () => {
  it("finds the committed regressions (an unreadable corpus would silently replay nothing)", () => {
    expect(saved.length).toBeGreaterThan(0);
  });

  it("every regression names a seed of our own fixtures that still exists", () => {
    for (const r of saved)
      expect(
        target(r.meta.target)
          .seeds()
          .map((s) => s.id),
        r.file,
      ).toContain(r.meta.seed);
  });

  it.each(saved.map((r) => [r.file, r] as const))(
    "%s replays without an exception",
    async (_file, r) => {
      const t = target(r.meta.target);
      const n = await t.run(seedFor(t, r.meta.seed), r.input);
      expect(typeof n).toBe("number");
    },
    180_000,
  );
});
