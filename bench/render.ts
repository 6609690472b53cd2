/**
 * The results table of docs/performance.md, generated from bench/results.json (issue 19: the doc is
 * not written by hand). `renderPerformanceTable` is called by run.ts after each full or quick run
 * and replaces the text between the two markers; everything else in the doc is prose.
 */
import { readFileSync, writeFileSync } from "node:fs";

export const BEGIN = "<!-- bench results: generated from bench/results.json by bench/render.ts; do not edit -->";
export const END = "<!-- end of bench results -->";

interface Spread {
  readonly min: number;
  readonly median: number;
  readonly max: number;
  readonly rounds: number;
}

export interface Results {
  readonly measure_source: string;
  readonly measure_ts: string;
  readonly commit: string;
  readonly quick: boolean;
  readonly machine: { readonly node: string; readonly cpu: string; readonly cpus: number };
  readonly load_average: { readonly before: readonly number[]; readonly after: readonly number[] };
  readonly rows: readonly {
    figure: string;
    subject: string;
    yardstick: string;
    ratio: number;
    target?: string;
    met?: boolean;
    straddles?: boolean;
    spread?: Spread;
    detail: string;
    reproduced?: { previous_ts: string; previous: number; within: boolean };
    /** Set on a row a partial run (`--only`, bench/partial.ts) carried over: the run that measured it. */
    earlier_run?: { commit: string; measure_ts: string; load_average: { before: readonly number[] } };
  }[];
  /** The figure groups of a partial run (`--only`). */
  readonly partial?: readonly string[];
}

const cell = (s: string): string => s.replace(/\|/g, "\\|");

/** The earlier run the "earlier run" column compares with, named once above the table. */
function earlierRun(r: Results): string {
  const at = r.rows.find((row) => row.reproduced !== undefined)?.reproduced?.previous_ts;
  return at === undefined
    ? " No earlier run of this commit was on disk to compare with."
    : ` Compared with the run of the same commit at ${at}.`;
}

export function performanceTable(r: Results): string {
  const load = (xs: readonly number[]): string => xs.map((x) => x.toFixed(2)).join(" / ");
  const lines = [
    BEGIN,
    "",
    `\`${r.measure_source}\` at ${r.measure_ts}, commit ${r.commit}${r.quick ? " (quick run)" : ""}; Node ${r.machine.node}, ${r.machine.cpus} × ${r.machine.cpu}; load average (1/5/15 min) ${load(r.load_average.before)} before, ${load(r.load_average.after)} after.${earlierRun(r)}${r.partial === undefined ? "" : ` A partial run of figure groups ${r.partial.join(", ")}: a row whose detail begins "measured by" is an earlier run's, carried over unchanged.`}`,
    "",
    "| fig | subject vs yardstick | ratio (median) | spread min–max (rounds) | target | met | earlier run of the same commit | detail |",
    "|---|---|---|---|---|---|---|---|",
  ];
  for (const row of r.rows) {
    const spread =
      row.spread === undefined
        ? "—"
        : `${row.spread.min.toFixed(3)}–${row.spread.max.toFixed(3)} (${row.spread.rounds})`;
    const met =
      row.met === undefined
        ? ""
        : `${row.met ? "yes" : "**no**"}${row.straddles ? ", spread straddles the target" : ""}`;
    const again =
      row.reproduced === undefined
        ? "—"
        : `median ${row.reproduced.previous.toFixed(3)}; this run's median ${row.reproduced.within ? "within" : "**outside**"} its spread`;
    const by =
      row.earlier_run === undefined
        ? ""
        : `measured by the run of ${row.earlier_run.commit.slice(0, 7)} at ${row.earlier_run.measure_ts} (load ${row.earlier_run.load_average.before.map((x) => x.toFixed(1)).join("/")}): `;
    lines.push(
      `| ${row.figure} | ${cell(row.subject)} vs ${cell(row.yardstick)} | ${row.ratio.toFixed(3)} | ${spread} | ${cell(row.target ?? "—")} | ${met} | ${again} | ${cell(by + row.detail)} |`,
    );
  }
  lines.push("", END);
  return lines.join("\n");
}

/** Replace the generated table in `docPath` (between the markers) with one rendered from `resultsPath`. */
export function renderPerformanceDoc(resultsPath: string, docPath: string): void {
  const results = JSON.parse(readFileSync(resultsPath, "utf8")) as Results;
  const doc = readFileSync(docPath, "utf8");
  const at = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (at < 0 || end < at) throw new Error(`${docPath} has no generated-results markers`);
  writeFileSync(docPath, `${doc.slice(0, at)}${performanceTable(results)}${doc.slice(end + END.length)}`);
}
