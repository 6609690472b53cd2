/**
 * The one JSON shape of a diagnostic, for every command's `--format json` (schemas/diagnostic.schema.json
 * is its JSON Schema; tests validate every command's output against it).
 *
 * Every field is always present (null when it does not apply), so consumers never test for absence:
 * code, severity, message, `reference_message` (the reference implementation's exact wording when
 * `message` says it in Yao notation instead; null when they agree), file (as the user named it, relative to the working directory when they
 * gave a relative path), `line`/`column` and `end_line`/`end_column` (one-based; columns are display
 * columns, see diagnostics/text-positions.ts), `byte`/`end_byte` (zero-based UTF-8 offsets, end exclusive),
 * `function` (the HNS function the problem is inside), `label` (what was expected and found),
 * `help` (how to fix it), `related` spans, the JSON `pointer` for JSON-based files, and the evidence
 * reason code (`action`, `layer`, `reason`; seed 002 §4) from the code tables.
 */
import { reasonOrMissing, actionForSeverity } from "../codes/reasons.js";
import type { Diagnostic, Position, Span } from "../diagnostics/diagnostic.js";
import { DisplayColumnCache } from "../diagnostics/text-positions.js";
import type { CheckResult } from "../diagnostics/result.js";

export interface JsonLocation {
  readonly line: number | null;
  readonly column: number | null;
  readonly end_line: number | null;
  readonly end_column: number | null;
  readonly byte: number | null;
  readonly end_byte: number | null;
}

export interface JsonRelated extends JsonLocation {
  readonly file: string | null;
  readonly message: string;
}

export interface JsonDiagnostic extends JsonLocation {
  readonly code: string;
  readonly severity: Diagnostic["severity"];
  readonly message: string;
  readonly reference_message: string | null;
  readonly file: string | null;
  readonly function: string | null;
  readonly label: string | null;
  readonly help: string | null;
  readonly pointer: string | null;
  readonly related: readonly JsonRelated[];
  readonly action: "allow" | "advise" | "block";
  readonly layer: string;
  readonly reason: string;
}

const NO_LOCATION: JsonLocation = {
  line: null,
  column: null,
  end_line: null,
  end_column: null,
  byte: null,
  end_byte: null,
};

function location(file: string | undefined, span: Span | undefined, columns: DisplayColumnCache): JsonLocation {
  if (span === undefined) return NO_LOCATION;
  const col = (p: Position): number => columns.column(file, p);
  return {
    line: span.start.line,
    column: col(span.start),
    end_line: span.end.line,
    end_column: col(span.end),
    byte: span.start.byte,
    end_byte: span.end.byte,
  };
}

/** One diagnostic in the JSON shape; display columns come from `sources` when the file's text is there. */
export function toJsonDiagnostic(
  d: Diagnostic,
  columns: DisplayColumnCache = new DisplayColumnCache(undefined),
): JsonDiagnostic {
  const reason = reasonOrMissing(d.code, d.severity);
  return {
    code: d.code,
    severity: d.severity,
    message: d.message,
    reference_message: d.referenceMessage ?? null,
    file: d.file ?? null,
    ...location(d.file, d.span, columns),
    function: d.function ?? null,
    label: d.label ?? null,
    help: d.hint ?? null,
    pointer: d.pointer ?? null,
    related: (d.related ?? []).map((r) => ({
      file: r.file ?? d.file ?? null,
      ...location(r.file ?? d.file, r.span, columns),
      message: r.message,
    })),
    // The action follows the severity the diagnostic is reported with (strict mode promotes warnings).
    action: actionForSeverity(d.severity),
    layer: reason.layer,
    reason: reason.reason,
  };
}

/** One diagnostic without source texts (columns stay Unicode scalars); safe to pass to `Array.map`. */
export function jsonDiagnostic(d: Diagnostic): JsonDiagnostic {
  return toJsonDiagnostic(d);
}

/** Diagnostics of one result, with display columns from the result's sources. */
export function jsonDiagnostics(
  diagnostics: readonly Diagnostic[],
  sources?: ReadonlyMap<string, string>,
): JsonDiagnostic[] {
  const columns = new DisplayColumnCache(sources);
  return diagnostics.map((d) => toJsonDiagnostic(d, columns));
}

/** The common result shape: path, kind, verdict, identity, the frontend's own fields, diagnostics. */
export function jsonResult(r: CheckResult): Record<string, unknown> {
  return {
    path: r.path,
    kind: r.kind,
    valid: r.valid,
    identity: r.identity,
    ...r.extra,
    diagnostics: jsonDiagnostics(r.diagnostics, r.sources),
  };
}

/** `{"results": [...]}`: the JSON document of every command that checks packages. */
export function renderJson(results: readonly CheckResult[]): string {
  return `${JSON.stringify({ results: results.map((r) => (r.report === undefined ? jsonResult(r) : { ...jsonResult(r), ...r.report })) })}\n`;
}
