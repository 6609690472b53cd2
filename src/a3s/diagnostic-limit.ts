/**
 * At most `A3S_DIAGNOSTIC_LIMIT` diagnostics per part of an A3S check, and per package. Past the
 * limit a finding is only counted (with whether it is an error, so the verdict stays exact): no
 * message, span or object is built, so a manifest of 240,000 bad lines costs what reading it costs.
 * The package result then ends with one `a3s.diagnostic_limit` line saying how many were left out.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { DIAGNOSTIC_LIMIT, LIMIT_HINT, limitMessage, type Omissions } from "../diagnostics/collector.js";
import { diagnostic } from "./codes.js";

/** The one cap of src/diagnostics/collector.ts. */
export const A3S_DIAGNOSTIC_LIMIT = DIAGNOSTIC_LIMIT;

/** What the parts of one package counted but did not build, added up. */
export class Omitted {
  count = 0;
  errors = 0;

  merge(other: Omissions): void {
    this.count += other.count;
    this.errors += other.errors;
  }
}

/** `list` cut to the limit (the rest counted into `omitted`), closed by the limit line when anything was left out. */
export function limitDiagnostics(list: readonly Diagnostic[], omitted: Omitted, file: string): Diagnostic[] {
  const kept = list.slice(0, A3S_DIAGNOSTIC_LIMIT);
  for (const d of list.slice(A3S_DIAGNOSTIC_LIMIT)) {
    omitted.count++;
    if (d.severity === "error") omitted.errors++;
  }
  if (omitted.count === 0) return kept;
  kept.push(
    diagnostic("a3s.diagnostic_limit", limitMessage(omitted.count, omitted.errors, A3S_DIAGNOSTIC_LIMIT), {
      file,
      hint: LIMIT_HINT,
    }),
  );
  return kept;
}
