/**
 * The bench's promise that a second run of the same commit says whether each figure held
 * (docs/performance.md): bench/reproduction.ts compares, bench/render.ts prints the column.
 */
import { describe, expect, it } from "vitest";
import type { Row } from "../../bench/measure.js";
import { performanceTable } from "../../bench/render.js";
import { withReproduction } from "../../bench/reproduction.js";

const row = (figure: string, median: number, min: number, max: number): Row => ({
  figure,
  subject: `subject ${figure}`,
  yardstick: "yardstick",
  ratio: median,
  spread: { min, median, max, rounds: 15 },
  detail: "",
});

const earlier = (commit: string, rows: Row[]): string =>
  JSON.stringify({ commit, measure_ts: "2026-12-02T10:00:00.000Z", rows });

describe("bench reproduction", () => {
  it("marks each figure whose median lies inside the earlier run's spread, and each that does not", () => {
    const before = earlier("abc", [row("a1-16k", 0.5, 0.4, 0.6), row("i", 0.9, 0.85, 0.95)]);
    const now = withReproduction(
      [row("a1-16k", 0.55, 0.5, 0.6), row("i", 1.2, 1.1, 1.3), row("new", 1, 1, 1)],
      before,
      "abc",
    );
    expect(now.map((r) => r.reproduced)).toEqual([
      { previous_ts: "2026-12-02T10:00:00.000Z", previous: 0.5, within: true },
      { previous_ts: "2026-12-02T10:00:00.000Z", previous: 0.9, within: false },
      undefined,
    ]);
  });

  it("compares nothing across commits, on a dirty tree, without an earlier run or with an unreadable one", () => {
    const rows = [row("a1-16k", 0.55, 0.5, 0.6)];
    const before = earlier("abc", [row("a1-16k", 0.5, 0.4, 0.6)]);
    for (const [json, commit] of [
      [before, "def"],
      [earlier("abc+dirty", [row("a1-16k", 0.5, 0.4, 0.6)]), "abc+dirty"],
      [undefined, "abc"],
      ["{not json", "abc"],
    ] as const)
      expect(withReproduction(rows, json, commit)[0]!.reproduced).toBeUndefined();
  });

  it("prints the earlier median and the verdict in the generated table", () => {
    const rows = withReproduction(
      [row("a1-16k", 0.55, 0.5, 0.6), row("i", 1.2, 1.1, 1.3)],
      earlier("abc", [row("a1-16k", 0.5, 0.4, 0.6), row("i", 0.9, 0.85, 0.95)]),
      "abc",
    );
    const table = performanceTable({
      measure_source: "node dist/bench/run.js --quick",
      measure_ts: "2026-12-02T11:00:00.000Z",
      commit: "abc",
      quick: true,
      machine: { node: "v20", cpu: "cpu", cpus: 2 },
      load_average: { before: [0, 0, 0], after: [0, 0, 0] },
      rows,
    });
    expect(table).toContain("Compared with the run of the same commit at 2026-12-02T10:00:00.000Z.");
    expect(table).toContain("| median 0.500; this run's median within its spread |");
    expect(table).toContain("| median 0.900; this run's median **outside** its spread |");
  });
});
