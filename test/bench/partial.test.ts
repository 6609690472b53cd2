/**
 * A partial bench run (`--only`) replaces only the rows it measured; every other row keeps its
 * figures and is marked with the run that measured them, and the generated table says so.
 */
import { describe, expect, it } from "vitest";
import { mergeRows } from "../../bench/partial.js";
import { performanceTable, type Results } from "../../bench/render.js";
import type { Row } from "../../bench/measure.js";

const row = (figure: string, ratio: number): Row => ({
  figure,
  subject: `subject ${figure}`,
  yardstick: "yardstick",
  ratio,
  spread: { min: ratio / 2, median: ratio, max: ratio * 2, rounds: 15 },
  detail: `detail ${figure}`,
});

const earlier = {
  commit: "abcdef0123456789",
  measure_ts: "2026-12-01T00:00:00.000Z",
  measure_source: "node dist/bench/run.js --quick",
  load_average: { before: [3, 2, 1], after: [4, 3, 2] },
  rows: [row("a1", 1), row("k-warm", 4), row("h-file", 0.1)],
};

describe("mergeRows", () => {
  it("replaces measured figures in place, marks the others with their run, appends new ones", () => {
    const merged = mergeRows(JSON.stringify(earlier), [row("k-warm", 12), row("n", 1.6)]);
    expect(merged.map((r) => [r.figure, r.ratio])).toEqual([
      ["a1", 1],
      ["k-warm", 12],
      ["h-file", 0.1],
      ["n", 1.6],
    ]);
    expect(merged[0]!.earlier_run).toEqual({
      commit: earlier.commit,
      measure_ts: earlier.measure_ts,
      load_average: earlier.load_average,
      measure_source: earlier.measure_source,
    });
    expect(merged[1]!.earlier_run).toBeUndefined();
    expect(merged[3]!.earlier_run).toBeUndefined();
    // A second partial run keeps the mark of the run that really measured a carried row.
    const again = mergeRows(JSON.stringify({ ...earlier, commit: "1111111", rows: merged }), [row("n", 1.7)]);
    expect(again[0]!.earlier_run?.commit).toBe(earlier.commit);
    expect(again[1]!.earlier_run?.commit).toBe("1111111");
  });

  it("renders carried rows with the run that measured them", () => {
    const rows = mergeRows(JSON.stringify(earlier), [row("k-warm", 12)]);
    const table = performanceTable({
      ...earlier,
      commit: "2222222",
      quick: true,
      machine: { node: "v20", cpu: "cpu", cpus: 2 },
      partial: ["k"],
      rows,
    } as unknown as Results);
    expect(table).toContain("A partial run of figure groups k");
    expect(table).toMatch(
      /\| a1 \|.*measured by the run of abcdef0 at 2026-12-01T00:00:00.000Z \(load 3\.0\/2\.0\/1\.0\): detail a1 \|/,
    );
    expect(table).toMatch(/\| k-warm \|.*\| detail k-warm \|/);
    expect(table).not.toMatch(/\| k-warm \|.*measured by/);
  });
});
