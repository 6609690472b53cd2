/**
 * Issue 19: a figure holds when a second run reproduces it. Each row with a spread is compared with
 * the same figure of an earlier results.json measured on the same commit: `within` when this run's
 * median lies inside that run's min–max. A different commit, a dirty tree (which may have been
 * another tree), or no earlier run compares nothing: their figures may differ by design.
 */
import type { Row } from "./measure.js";

export function withReproduction(rows: readonly Row[], earlierJson: string | undefined, commit: string): Row[] {
  if (earlierJson === undefined) return [...rows];
  let earlier: { commit?: unknown; measure_ts?: unknown; rows?: unknown };
  try {
    earlier = JSON.parse(earlierJson) as typeof earlier;
  } catch {
    return [...rows];
  }
  if (earlier.commit !== commit || commit.endsWith("+dirty") || !Array.isArray(earlier.rows)) return [...rows];
  const byFigure = new Map((earlier.rows as Row[]).map((r) => [r.figure, r]));
  const previousTs = typeof earlier.measure_ts === "string" ? earlier.measure_ts : "?";
  return rows.map((r) => {
    const before = byFigure.get(r.figure)?.spread;
    if (r.spread === undefined || before === undefined) return r;
    return {
      ...r,
      reproduced: {
        previous_ts: previousTs,
        previous: before.median,
        within: r.spread.median >= before.min && r.spread.median <= before.max,
      },
    };
  });
}
