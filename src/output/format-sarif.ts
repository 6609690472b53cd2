/**
 * `--format sarif`: one SARIF 2.1.0 log with one run per invocation (GitHub code scanning and most
 * CI dashboards read it). Built on the types of `@types/sarif`; a reference-conformance test
 * validates the output against the official schema (with Errata 01).
 *
 * - `tool.driver.rules` has one rule per code the run reports, in first-reported order: its
 *   docs/diagnostics.md row as `fullDescription` (meaning and the clause it enforces) and a
 *   `helpUri` to that row's anchor.
 * - Each result carries its rule (`ruleId`, `ruleIndex`), level (error, warning, note), the message
 *   (with the label and the help when there are any), its location with a region, related
 *   locations, and the evidence reason code plus the HNS function in `properties`.
 * - Regions count columns in Unicode code points (`columnKind: "unicodeCodePoints"`, which is what
 *   diagnostic spans carry; SARIF has no display-column kind), end column exclusive, and also give
 *   the UTF-8 `byteOffset`/`byteLength`.
 * - Artifact URIs are the paths as the user gave them, percent-encoded per segment, relative to the
 *   working directory (`uriBaseId: "%SRCROOT%"`), which is how code scanning maps them to the
 *   repository when yaoc runs at its root.
 */
import type { Location, Log, ReportingDescriptor, Result } from "sarif";
import { reasonOrMissing } from "../codes/reasons.js";
import type { Diagnostic, Span } from "../diagnostics/diagnostic.js";
import { codeInfo } from "../codes/registry.js";
import type { CheckResult } from "../diagnostics/result.js";

export const SARIF_SCHEMA_URI =
  "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

export interface SarifOptions {
  readonly toolVersion: string;
  /** Absolute URI of docs/diagnostics.md; each rule's `helpUri` is this plus `#<code>`. */
  readonly docsUri: string;
}

/** A file path as a relative URI reference: each segment percent-encoded, `/` kept. */
export function pathToUri(path: string): string {
  const slashed = path.replace(/\\/g, "/");
  const absolute = slashed.startsWith("/");
  const encoded = slashed
    .split("/")
    .map((seg) => encodeURIComponent(seg))
    .join("/");
  return absolute ? `file://${encoded}` : encoded;
}

function region(span: Span): NonNullable<Location["physicalLocation"]>["region"] {
  return {
    startLine: span.start.line,
    startColumn: span.start.column,
    endLine: span.end.line,
    endColumn: span.end.column,
    byteOffset: span.start.byte,
    byteLength: Math.max(0, span.end.byte - span.start.byte),
  };
}

function location(file: string | undefined, span: Span | undefined): Location | undefined {
  if (file === undefined) return undefined;
  const uri = pathToUri(file);
  const artifactLocation = uri.startsWith("file:") ? { uri } : { uri, uriBaseId: "%SRCROOT%" };
  return { physicalLocation: { artifactLocation, ...(span !== undefined ? { region: region(span) } : {}) } };
}

function messageText(d: Diagnostic): string {
  const parts = [d.message];
  if (d.label !== undefined) parts.push(d.label);
  if (d.hint !== undefined) parts.push(`help: ${d.hint}`);
  return parts.join("\n");
}

function level(d: Diagnostic): Result.level {
  return d.severity === "error" ? "error" : d.severity === "warning" ? "warning" : "note";
}

function rule(code: string, docsUri: string): ReportingDescriptor {
  const row = codeInfo(code);
  const summary = row?.summary ?? `${code} (no row in docs/diagnostics.md)`;
  return {
    id: code,
    name: code,
    shortDescription: { text: summary },
    fullDescription: {
      text: row === undefined ? summary : `${row.summary.replace(/\.?$/, ".")} Enforces: ${row.clause}.`,
    },
    helpUri: `${docsUri}#${encodeURIComponent(code)}`,
    help: { text: `yaoc explain ${code}` },
    defaultConfiguration: { level: row === undefined ? "error" : row.severity === "info" ? "note" : row.severity },
    ...(row !== undefined ? { properties: { clause: row.clause, layer: row.layer, reason: row.reason } } : {}),
  };
}

/** The SARIF log of one invocation. */
export function sarifLog(results: readonly CheckResult[], options: SarifOptions): Log {
  const rules: ReportingDescriptor[] = [];
  const ruleIndex = new Map<string, number>();
  const sarifResults: Result[] = [];
  for (const r of results) {
    for (const d of r.diagnostics) {
      let index = ruleIndex.get(d.code);
      if (index === undefined) {
        index = rules.length;
        ruleIndex.set(d.code, index);
        rules.push(rule(d.code, options.docsUri));
      }
      const reason = reasonOrMissing(d.code, d.severity);
      const where = location(d.file ?? r.path, d.span);
      const related = (d.related ?? []).flatMap((rel, i): Location[] => {
        const loc = location(rel.file ?? d.file ?? r.path, rel.span);
        return loc === undefined ? [] : [{ id: i, ...loc, message: { text: rel.message } }];
      });
      sarifResults.push({
        ruleId: d.code,
        ruleIndex: index,
        level: level(d),
        message: { text: messageText(d) },
        ...(where !== undefined ? { locations: [where] } : {}),
        ...(related.length > 0 ? { relatedLocations: related } : {}),
        properties: {
          package: r.path,
          action: reason.action,
          layer: reason.layer,
          reason: reason.reason,
          ...(d.function !== undefined ? { function: d.function } : {}),
          ...(d.pointer !== undefined ? { pointer: d.pointer } : {}),
        },
      });
    }
  }
  return {
    $schema: SARIF_SCHEMA_URI,
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "yaoc", version: options.toolVersion, semanticVersion: options.toolVersion, rules } },
        columnKind: "unicodeCodePoints",
        results: sarifResults,
      },
    ],
  };
}

export function renderSarif(results: readonly CheckResult[], options: SarifOptions): string {
  return `${JSON.stringify(sarifLog(results, options), null, 2)}\n`;
}
