/**
 * The order diagnostics are shown in: the reference's first error first (so the first line a user,
 * a golden file or a reference test sees is the one the reference reports), then everything else
 * by file and position. Diagnostics without a span come before spanned ones of the same file; the
 * sort is stable, so equal positions keep detection order.
 */
import type { Diagnostic } from "./diagnostic.js";

export function orderDiagnostics(ds: readonly Diagnostic[], firstError?: Diagnostic): Diagnostic[] {
  const first = firstError ?? ds.find((d) => d.severity === "error");
  const rest = ds.filter((d) => d !== first);
  const sorted = rest
    .map((d, i) => ({ d, i }))
    .sort((a, b) => comparePosition(a.d, b.d) || a.i - b.i)
    .map((x) => x.d);
  return first === undefined ? sorted : [first, ...sorted];
}

function comparePosition(a: Diagnostic, b: Diagnostic): number {
  const fa = a.file ?? "";
  const fb = b.file ?? "";
  if (fa !== fb) return fa < fb ? -1 : 1;
  const pa = a.span === undefined ? -1 : a.span.start.byte;
  const pb = b.span === undefined ? -1 : b.span.start.byte;
  return pa - pb;
}
