/**
 * The closing line of the human form ("2 packages checked: 1 valid, 1 invalid; 3 errors, 1 warning")
 * and what it counts. It counts what was found, not only what is printed: past the one cap a
 * frontend counts findings without building them and closes the list with a coded note saying how
 * many; the human form prints at most HUMAN_DIAGNOSTIC_LIMIT diagnostics of a package; `--quiet`
 * drops warnings. When any of these hides something the line says both the total found and how
 * many are shown: "…; 60000 errors, 0 warnings found; 200 errors, 0 warnings shown".
 */
import type { Diagnostic } from "./diagnostic.js";
import type { CheckResult } from "./result.js";

/**
 * The human form prints at most this many diagnostics per package, then one line saying how many
 * more there are (the JSON form keeps all): 120,000 diagnostics of one hostile file are no use to
 * a reader and would print tens of megabytes.
 */
export const HUMAN_DIAGNOSTIC_LIMIT = 1000;

/** What the summary line counts; a caller streaming results keeps only these. */
export interface SummaryCounts {
  packages: number;
  invalid: number;
  /** Found: printed, past the human limit, only counted past a frontend's cap, or filtered out. */
  errors: number;
  warnings: number;
  /** Printed as diagnostics. */
  shownErrors: number;
  shownWarnings: number;
  /** A note said the analysis stopped at its cap: there may be more errors than were found. */
  stoppedEarly: boolean;
}

export function emptySummary(): SummaryCounts {
  return { packages: 0, invalid: 0, errors: 0, warnings: 0, shownErrors: 0, shownWarnings: 0, stoppedEarly: false };
}

/** Findings a closing note counted without building them. */
interface Counted {
  readonly errors: number;
  readonly warnings: number;
  readonly stoppedEarly: boolean;
}

const NOTHING: Counted = { errors: 0, warnings: 0, stoppedEarly: false };

/**
 * What a frontend's closing note counted. The notes say it in their message only (collector.ts
 * `limitMessage`, hns/context.ts, check/hns.ts), so it is read from there; the rest of a
 * `*.diagnostic_limit` count that is not errors is warnings, the only other severity those frontends
 * omit (their one info row is the note). test/diagnostics/summary-line.test.ts makes each note
 * through its real frontend. A note whose words are not recognised makes the line say "at least".
 */
function countedBy(d: Diagnostic): Counted {
  switch (d.code) {
    case "harp.diagnostic_limit":
    case "hcp.diagnostic_limit":
    case "a3s.diagnostic_limit": {
      const m = /^(\d+) more diagnostics? not shown \((\d+) errors?\)/.exec(d.message);
      if (m === null) return { ...NOTHING, stoppedEarly: true };
      const count = Number(m[1]);
      const errors = Number(m[2]);
      return { errors, warnings: count - errors, stoppedEarly: false };
    }
    case "hns.warning_limit": {
      const m = /\b\d+ warnings shown, (\d+) more not shown/.exec(d.message);
      return m === null ? { ...NOTHING, stoppedEarly: true } : { ...NOTHING, warnings: Number(m[1]) };
    }
    case "hns.error_limit": {
      const m = /\b\d+ errors shown, (\d+) more errors? not shown/.exec(d.message);
      return m === null ? { ...NOTHING, stoppedEarly: true } : { ...NOTHING, errors: Number(m[1]) };
    }
    case "yao.error_limit":
      return { ...NOTHING, stoppedEarly: true };
    default:
      return NOTHING;
  }
}

/**
 * Adds one package: `found` as checked, `shown` the result whose diagnostics are printed (the same
 * result unless the caller filtered it, as `--quiet` does); at most HUMAN_DIAGNOSTIC_LIMIT of them
 * are printed.
 */
export function countSummary(c: SummaryCounts, found: CheckResult, shown: CheckResult = found): void {
  c.packages++;
  if (!found.valid) c.invalid++;
  for (const d of found.diagnostics) {
    if (d.severity === "error") c.errors++;
    else if (d.severity === "warning") c.warnings++;
    const counted = countedBy(d);
    c.errors += counted.errors;
    c.warnings += counted.warnings;
    c.stoppedEarly ||= counted.stoppedEarly;
  }
  const printed = Math.min(shown.diagnostics.length, HUMAN_DIAGNOSTIC_LIMIT);
  for (let i = 0; i < printed; i++) {
    const d = shown.diagnostics[i]!;
    if (d.severity === "error") c.shownErrors++;
    else if (d.severity === "warning") c.shownWarnings++;
  }
}

export function renderHumanSummaryOf(c: SummaryCounts): string {
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;
  const head = `${plural(c.packages, "package")} checked: ${c.packages - c.invalid} valid, ${c.invalid} invalid`;
  const found = `${plural(c.errors, "error")}, ${plural(c.warnings, "warning")}`;
  if (c.errors === c.shownErrors && c.warnings === c.shownWarnings && !c.stoppedEarly) return `${head}; ${found}\n`;
  const shown = `${plural(c.shownErrors, "error")}, ${plural(c.shownWarnings, "warning")} shown`;
  if (c.stoppedEarly) return `${head}; at least ${found} found (the analysis stopped at its limit); ${shown}\n`;
  return `${head}; ${found} found; ${shown}\n`;
}

/** The closing line over whole results, none filtered. */
export function renderHumanSummary(results: readonly CheckResult[]): string {
  const counts = emptySummary();
  for (const result of results) countSummary(counts, result);
  return renderHumanSummaryOf(counts);
}
