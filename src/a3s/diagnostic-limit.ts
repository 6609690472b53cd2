/**
 * At most `A3S_DIAGNOSTIC_LIMIT` diagnostics per part of an A3S check, and per package. Past the
 * limit a finding is only counted (with whether it is an error, so the verdict stays exact): no
 * message, span or object is built, so a manifest of 240,000 bad lines costs what reading it costs.
 * The package result then ends with one `a3s.diagnostic_limit` line saying how many were left out.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { A3S_CODES, diagnostic, type A3sCode } from "./codes.js";

export const A3S_DIAGNOSTIC_LIMIT = 200;

const SEVERITY = new Map<string, string>(A3S_CODES.map((r) => [r.code, r.severity]));

/** What was counted but not built. */
export class Omitted {
  count = 0;
  errors = 0;

  add(code: A3sCode): void {
    this.count++;
    if (SEVERITY.get(code) === "error") this.errors++;
  }

  merge(other: Omitted): void {
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
    diagnostic(
      "a3s.diagnostic_limit",
      `${omitted.count} more diagnostic${omitted.count === 1 ? "" : "s"} not shown (${omitted.errors} error${omitted.errors === 1 ? "" : "s"}): the check reports at most ${A3S_DIAGNOSTIC_LIMIT}`,
      { file, hint: "fix these and check again to see the rest" },
    ),
  );
  return kept;
}
