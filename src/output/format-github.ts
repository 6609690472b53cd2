/**
 * `--format github`: GitHub Actions workflow commands, one line per diagnostic, which the Actions
 * runner turns into annotations on the pull request:
 *
 *   ::error file=F,line=L,col=C,endLine=EL,endColumn=EC,title=CODE::MESSAGE
 *
 * Errors are `::error`, warnings `::warning`, infos `::notice`. Columns are display columns (as in
 * the JSON form). Escaping follows the runner's rules (actions/toolkit `command.ts`): in the message
 * `%`, CR and LF become `%25`, `%0D`, `%0A`; in property values also `:` and `,` become `%3A`, `%2C`.
 * The message carries the label and the help on their own (escaped) lines.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { DisplayColumnCache } from "../diagnostics/text-positions.js";
import type { CheckResult } from "../diagnostics/result.js";

export function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

const COMMAND = { error: "error", warning: "warning", info: "notice" } as const;

function annotation(d: Diagnostic, fallbackFile: string, columns: DisplayColumnCache): string {
  const file = d.file ?? fallbackFile;
  const props: string[] = [`file=${escapeProperty(file)}`];
  if (d.span !== undefined) {
    props.push(
      `line=${d.span.start.line}`,
      `col=${columns.column(file, d.span.start)}`,
      `endLine=${d.span.end.line}`,
      `endColumn=${columns.column(file, d.span.end)}`,
    );
  }
  props.push(`title=${escapeProperty(d.code)}`);
  const message = [
    d.message,
    ...(d.label !== undefined ? [d.label] : []),
    ...(d.hint !== undefined ? [`help: ${d.hint}`] : []),
  ].join("\n");
  return `::${COMMAND[d.severity]} ${props.join(",")}::${escapeData(message)}`;
}

export function renderGithub(results: readonly CheckResult[]): string {
  const lines: string[] = [];
  for (const r of results) {
    const columns = new DisplayColumnCache(r.sources);
    for (const d of r.diagnostics) lines.push(annotation(d, r.path, columns));
  }
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}
