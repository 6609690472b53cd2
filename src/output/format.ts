/**
 * The one output family every command renders through: `--format human|json|sarif|github`.
 *
 * A command hands over its check results (diagnostics grouped by package, with source texts for code
 * frames and display columns) and, for JSON, optionally its own document builder (e.g. `check`'s
 * evidence receipts, `catalog verify`'s package list); the diagnostics inside it use the one JSON
 * shape of format-json.ts either way.
 */
import type { CheckResult } from "../diagnostics/result.js";
import { renderGithub } from "./format-github.js";
import { renderJson } from "./format-json.js";
import { renderSarif } from "./format-sarif.js";
import { renderHuman, renderHumanDiagnostics } from "../diagnostics/render.js";

export const OUTPUT_FORMATS = ["human", "json", "sarif", "github"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface FormatOptions {
  /** Human form only: ANSI colours. */
  readonly color: boolean;
  readonly toolVersion: string;
  /** Absolute URI of docs/diagnostics.md for SARIF rules' `helpUri`. */
  readonly docsUri: string;
  /** The JSON document; defaults to `{"results": [...]}` with the common result shape. */
  readonly json?: (results: readonly CheckResult[]) => string;
  /** Human form only: leave out the per-package verdict lines and the summary. */
  readonly diagnosticsOnly?: boolean | undefined;
}

export function renderResults(results: readonly CheckResult[], format: OutputFormat, options: FormatOptions): string {
  switch (format) {
    case "json":
      return (options.json ?? renderJson)(results);
    case "sarif":
      return renderSarif(results, { toolVersion: options.toolVersion, docsUri: options.docsUri });
    case "github":
      return renderGithub(results);
    case "human":
      return options.diagnosticsOnly === true
        ? renderHumanDiagnostics(results, { color: options.color })
        : renderHuman(results, { color: options.color });
  }
}
