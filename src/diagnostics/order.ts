/**
 * The order diagnostics are shown in, in every format (human, JSON, SARIF, GitHub, the language
 * server): by file, then line and column, then code, so the first line a reader meets is the
 * earliest place in the package and a consequence never comes before its cause just because it was
 * detected first (issue 34 item 3). Which error the fail-fast reference would have reported first
 * is not an ordering rule: the verdict does not depend on it, and reference tests compare sets.
 *
 * Diagnostics without a span come before spanned ones of the same file (they are about the file as
 * a whole); a frontend's closing note (`hns.error_limit`, `a3s.diagnostic_limit`, … — an `info`
 * row whose code ends in `_limit`) stays last, since it counts what the list above it leaves out.
 * The sort is stable, so equal positions and codes keep detection order.
 */
import { compareCodePoints } from "../text/code-point-order.js";
import type { Diagnostic } from "./diagnostic.js";

export function orderDiagnostics(ds: readonly Diagnostic[]): Diagnostic[] {
  return ds
    .map((d, i) => ({ d, i }))
    .sort((a, b) => compareDiagnostics(a.d, b.d) || a.i - b.i)
    .map((x) => x.d);
}

/** A frontend's note that closes a capped list; always shown after everything it counts. */
export function isClosingNote(d: Diagnostic): boolean {
  return d.severity === "info" && d.code.endsWith("_limit");
}

/** The position order of two diagnostics (0 when only detection order can tell them apart). */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  const na = isClosingNote(a);
  if (na !== isClosingNote(b)) return na ? 1 : -1;
  const fa = a.file ?? "";
  const fb = b.file ?? "";
  if (fa !== fb) return compareCodePoints(fa, fb);
  // Line then column is the byte order within one file; the byte is what every span carries.
  const pa = a.span === undefined ? -1 : a.span.start.byte;
  const pb = b.span === undefined ? -1 : b.span.start.byte;
  if (pa !== pb) return pa - pb;
  return compareCodePoints(a.code, b.code);
}
