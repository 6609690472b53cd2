/**
 * The `--format human|json|sarif|github` option every reporting command shares, and the process
 * side of rendering (colour, the docs URI for SARIF rules). The renderers themselves are in the core
 * (src/output/format.ts).
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Option, type Command } from "commander";
import type { CheckResult } from "../diagnostics/result.js";
import { OUTPUT_FORMATS, renderResults, type FormatOptions, type OutputFormat } from "../output/format.js";
import { VERSION } from "../version.js";
import { useColor } from "./io.js";

export type { OutputFormat };

/** Adds `--format` (and, where a command had it before, `--json` as an alias of `--format json`). */
export function addFormatOption(command: Command, options: { jsonAlias?: boolean } = {}): Command {
  command.addOption(new Option("--format <format>", "output format").choices([...OUTPUT_FORMATS]).default("human"));
  if (options.jsonAlias === true) command.option("--json", "same as --format json");
  return command;
}

/** The format a command's parsed options ask for (`--json` wins, as it always meant JSON). */
export function formatOf(opts: { format?: string; json?: boolean }): OutputFormat {
  if (opts.json === true) return "json";
  return (OUTPUT_FORMATS as readonly string[]).includes(opts.format ?? "") ? (opts.format as OutputFormat) : "human";
}

let docsUri: string | undefined;

/**
 * `file:` URI of docs/diagnostics.md in this yaoc installation (the package root is the nearest
 * directory above this module holding package.json; the docs ship with the package). SARIF requires
 * an absolute URI for `helpUri`, and the installed copy is the one that matches this version.
 */
export function diagnosticsDocUri(): string {
  if (docsUri !== undefined) return docsUri;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    if (existsSync(join(dir, "package.json"))) break;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  docsUri = pathToFileURL(join(dir, "docs", "diagnostics.md")).href;
  return docsUri;
}

export function formatOptions(stream: NodeJS.WriteStream, extra: Partial<FormatOptions> = {}): FormatOptions {
  return { color: useColor(stream), toolVersion: VERSION, docsUri: diagnosticsDocUri(), ...extra };
}

/** Render `results` in `format` onto stdout. */
export function writeResults(
  results: readonly CheckResult[],
  format: OutputFormat,
  extra: Partial<FormatOptions> = {},
): void {
  process.stdout.write(renderResults(results, format, formatOptions(process.stdout, extra)));
}
