/**
 * `node dist/bench/run.js --only GROUPS` (e.g. `--only k,l,n`): measure only some figure groups and
 * merge them into bench/results.json, for a shared machine where a whole run costs every other user
 * minutes of CPU. Each figure measured replaces the row of the same figure; every other row stays
 * as it was and is marked `earlier_run` with the commit, time and load of the run that measured it
 * (docs/performance.md's table says so in its detail), so no row is ever credited to a run that did
 * not measure it. The header (commit, time, load, command) is this run's.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname } from "node:path";
import type { Row } from "./measure.js";
import { withReproduction } from "./reproduction.js";

/** Where a row carried over from an earlier results.json was measured. */
export interface EarlierRun {
  readonly commit: string;
  readonly measure_ts: string;
  readonly load_average: { readonly before: readonly number[]; readonly after: readonly number[] };
  readonly measure_source: string;
}

export type CarriedRow = Row & { readonly earlier_run?: EarlierRun };

interface EarlierResults {
  readonly commit?: string;
  readonly measure_ts?: string;
  readonly measure_source?: string;
  readonly load_average?: EarlierRun["load_average"];
  readonly rows?: CarriedRow[];
}

/**
 * The rows of a partial run merged into the earlier results: the earlier order, each measured figure
 * in place of its old row (new figures appended), the others marked with the run that measured them
 * (a row already marked keeps its mark).
 */
export function mergeRows(earlierJson: string | undefined, measured: readonly Row[]): CarriedRow[] {
  let earlier: EarlierResults = {};
  try {
    if (earlierJson !== undefined) earlier = JSON.parse(earlierJson) as EarlierResults;
  } catch {
    earlier = {};
  }
  const mark: EarlierRun = {
    commit: earlier.commit ?? "unknown",
    measure_ts: earlier.measure_ts ?? "unknown",
    load_average: earlier.load_average ?? { before: [], after: [] },
    measure_source: earlier.measure_source ?? "unknown",
  };
  const byFigure = new Map(measured.map((r) => [r.figure, r]));
  const out: CarriedRow[] = [];
  const seen = new Set<string>();
  for (const old of Array.isArray(earlier.rows) ? earlier.rows : []) {
    const now = byFigure.get(old.figure);
    seen.add(old.figure);
    if (now !== undefined) out.push(now);
    else out.push(old.earlier_run === undefined ? { ...old, earlier_run: mark } : old);
  }
  for (const r of measured) if (!seen.has(r.figure)) out.push(r);
  return out;
}

/** Write the merged results (this run's header, `mergeRows`' rows) and return the rows. */
export function writePartialResults(
  resultsPath: string,
  measured: readonly Row[],
  run: {
    readonly commit: string;
    readonly loadBefore: readonly number[];
    readonly loadAfter: readonly number[];
    readonly quick: boolean;
    readonly rounds: number;
    readonly groups: readonly string[];
  },
): CarriedRow[] {
  const earlierJson = existsSync(resultsPath) ? readFileSync(resultsPath, "utf8") : undefined;
  const rows = mergeRows(earlierJson, withReproduction(measured, earlierJson, run.commit));
  const measureTs = new Date().toISOString();
  const results = {
    evidence_class: "measured",
    measure_source: `node dist/bench/run.js ${process.argv.slice(2).join(" ")}`.trim(),
    measure_ts: measureTs,
    source: `npm run bench (bench/run.ts), partial run of figure groups ${run.groups.join(", ")}; rows marked earlier_run were measured by the run named there; ratios are medians of per-round ratios, subject and yardstick alternating; spread = min/median/max of those per-round ratios`,
    timestamp: measureTs,
    commit: run.commit,
    machine: {
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      cpus: cpus().length,
      cpu: cpus()[0]?.model ?? "?",
    },
    load_average: { before: run.loadBefore, after: run.loadAfter },
    quick: run.quick,
    rounds: run.rounds,
    partial: run.groups,
    rows,
  };
  mkdirSync(dirname(resultsPath), { recursive: true });
  writeFileSync(resultsPath, `${JSON.stringify(results, null, 2)}\n`);
  return rows;
}
