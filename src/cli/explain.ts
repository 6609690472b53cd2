/**
 * `yaoc explain CODE` (like `rustc --explain`): the code's meaning, the spec clause it enforces, its
 * severity and evidence reason code, and for the common codes a worked example (the package that
 * gets it and the fixed package). An unknown code is a usage error (exit 2) with close matches.
 */
import { CODE_EXAMPLES } from "../diagnostics/code-examples.js";
import { actionOf } from "../diagnostics/codes-doc.js";
import { ALL_CODES, codeInfo } from "../codes/registry.js";
import { EXIT_OK, EXIT_USAGE } from "./io.js";

type Write = (text: string) => void;

function indent(text: string): string {
  return text
    .replace(/\n$/, "")
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n");
}

/** The explain page of a known code, or undefined. */
export function explainPage(code: string): string | undefined {
  const row = codeInfo(code);
  if (row === undefined) return undefined;
  const lines = [
    `${row.code} (${row.severity})`,
    "",
    row.summary,
    "",
    `Enforces:    ${row.clause}`,
    `Reason code: ${actionOf(row)} / ${row.layer} / ${row.reason} (seed 002 §4)`,
  ];
  const ex = CODE_EXAMPLES[code];
  if (ex !== undefined) {
    lines.push(
      "",
      `Example: ${ex.path} gets ${code}:`,
      "",
      indent(ex.wrong),
      "",
      `Fix: ${ex.change}:`,
      "",
      indent(ex.fix),
    );
    if (ex.path.endsWith(".hns"))
      lines.push("", `Try it: save the first text as ${ex.path} and run \`yaoc check ${ex.path}\`.`);
  }
  lines.push("", `More: docs/diagnostics.md#${code}`);
  return `${lines.join("\n")}\n`;
}

/** Known codes that look like `code`: same suffix after the dot, or containing it. */
export function closeCodes(code: string): string[] {
  const needle = code.toLowerCase();
  const tail = needle.includes(".") ? needle.slice(needle.lastIndexOf(".") + 1) : needle;
  if (tail === "") return [];
  return ALL_CODES.map((r) => r.code)
    .filter((c) => c.endsWith(`.${tail}`) || c.includes(tail))
    .slice(0, 8);
}

export function runExplain(code: string, write: Write, writeErr: Write): number {
  const page = explainPage(code);
  if (page !== undefined) {
    write(page);
    return EXIT_OK;
  }
  const close = closeCodes(code);
  writeErr(
    `yaoc explain: unknown diagnostic code '${code}'${close.length > 0 ? `; did you mean ${close.join(", ")}?` : ""}\n(every code is listed in docs/diagnostics.md)\n`,
  );
  return EXIT_USAGE;
}
