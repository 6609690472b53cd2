/**
 * The string-coded diagnostic builder, private to src/diagnostics (test/architecture/diagnostics.test.ts):
 * frontends build diagnostics through their typed code rows (`diagnosticsFor` in codes.ts, the
 * collector in collector.ts), so a code outside a table or a severity other than its row's cannot
 * be written.
 */
import type { Diagnostic, RelatedLocation, Severity, Span } from "./diagnostic.js";

/** Where a diagnostic points and what it says besides its message; severity comes from the code's row. */
export interface DiagnosticFields {
  file?: string | undefined;
  span?: Span | undefined;
  pointer?: string | undefined;
  hint?: string | undefined;
  related?: readonly RelatedLocation[] | undefined;
  label?: string | undefined;
  function?: string | undefined;
  referenceMessage?: string | undefined;
}

/** Build a diagnostic, leaving out absent optional fields so JSON output stays minimal. */
export function diagnostic(
  code: string,
  message: string,
  where: DiagnosticFields & { severity?: Severity } = {},
): Diagnostic {
  const d: { -readonly [K in keyof Diagnostic]: Diagnostic[K] } = {
    code,
    severity: where.severity ?? "error",
    message,
  };
  if (where.file !== undefined) d.file = where.file;
  if (where.span !== undefined) d.span = where.span;
  if (where.pointer !== undefined) d.pointer = where.pointer;
  if (where.hint !== undefined) d.hint = where.hint;
  if (where.related !== undefined && where.related.length > 0) d.related = where.related;
  if (where.label !== undefined) d.label = where.label;
  if (where.function !== undefined) d.function = where.function;
  if (where.referenceMessage !== undefined && where.referenceMessage !== message)
    d.referenceMessage = where.referenceMessage;
  return d;
}
