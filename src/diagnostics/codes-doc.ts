/** Renders docs/diagnostics.md from the code registry, so the table can never drift from the code. */
import type { CodeInfo, CodeSection } from "./codes.js";

export function actionOf(row: CodeInfo): "block" | "advise" | "allow" {
  return row.severity === "error" ? "block" : row.severity === "warning" ? "advise" : "allow";
}

export function renderCodesDoc(sections: readonly CodeSection[]): string {
  const escape = (s: string): string => s.replace(/\|/g, "\\|");
  const out = [
    "# Diagnostic codes",
    "",
    "Generated from the code tables in `src/` by `npm run docs:diagnostics`; do not edit by hand.",
    "Every diagnostic any yaoc frontend emits has exactly one row. `action`, `layer` and `reason` are the",
    "deterministic-evidence reason code of the diagnostic (seed 002 §4): action follows from severity",
    "(error → block, warning → advise, info → allow); layers are L1 structure, L2 size, L3 danger,",
    "L4 permission, L5 identity, L6 metadata, L7 audit, L8 consistency.",
    "",
    "Exit codes of `yaoc check`: 0 when every package is valid, 1 when some package is invalid, 2 on a",
    "usage or I/O error (`cli.not_found`, `hns.not_found`, `hns.io_error`, a bad option). With `--strict`",
    "every warning is reported as an error (action block).",
    "",
    "Dotted names that are not codes: `harp.json` (the HARP manifest file) and `evidence.commit` (a Yao",
    "host operation of the Morphz profile).",
  ];
  for (const section of sections) {
    out.push(
      "",
      `## ${section.title}`,
      "",
      "| code | severity | meaning | enforces | action | layer | reason |",
      "| --- | --- | --- | --- | --- | --- | --- |",
    );
    for (const row of section.rows) {
      out.push(
        `| <a id="${row.code}"></a>\`${row.code}\` | ${row.severity} | ${escape(row.summary)} | ${escape(row.clause)} | ${actionOf(row)} | ${row.layer} | \`${row.reason}\` |`,
      );
    }
  }
  return `${out.join("\n")}\n`;
}
