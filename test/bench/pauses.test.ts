/**
 * bench/measure.ts `timeWithPauses`, behind the c10/c100 details ("collector pauses N% of readAll's
 * time"): it counts this thread's garbage-collection pauses inside the timed stretch only.
 */
import { describe, expect, it } from "vitest";
import { timeWithPauses } from "../../bench/measure.js";

describe("timeWithPauses", () => {
  it("finds pauses where the function keeps building live objects, and they fit inside the time", async () => {
    let live: number[][] = [];
    const t = await timeWithPauses(() => {
      live = [];
      for (let i = 0; i < 200_000; i++) live.push([i, i + 1]);
    }, 10);
    expect(live.length).toBe(200_000);
    expect(t.gcMs).toBeGreaterThan(0);
    expect(t.gcMs).toBeLessThanOrEqual(t.ms);
  });

  it("counts next to nothing for allocation-free code, even right after garbage was made", async () => {
    // Garbage right before: its collections fall before or after the stretch, not in it.
    let garbage: number[][] = [];
    for (let i = 0; i < 300_000; i++) garbage.push([i]);
    garbage = [];
    let sum = 0;
    const t = await timeWithPauses(() => {
      for (let i = 0; i < 2_000_000; i++) sum = (sum + i) | 0;
    }, 10);
    expect(garbage.length + sum).not.toBe(0.5);
    expect(t.ms).toBeGreaterThan(0);
    // Allocation-free code is not paused (a marking step the collector's threads ask for may still
    // land in it, hence not exactly zero).
    expect(t.gcMs).toBeLessThan(t.ms / 4);
  });
});
