/**
 * `yaoc explain CODE` (like `rustc --explain`): the code's meaning, the spec clause it enforces, its
 * severity and evidence reason code, and for the common codes a worked example (the package that
 * gets it and the fixed package). `yaoc explain FORM` and `yaoc explain TYPE` (`get`, `Option`) print
 * the language table's row (src/yao/forms.ts, the same one docs/language.md is built from); with no
 * argument it lists the topics and the codes. An unknown name is a usage error (exit 2) with close
 * matches.
 */
import { CODE_EXAMPLES } from "../diagnostics/code-examples.js";
import { actionOf } from "../diagnostics/codes-doc.js";
import { ALL_CODES, codeInfo } from "../codes/registry.js";
import { closestName } from "../diagnostics/suggest.js";
import { FORM_DOCS, FORMS, TYPE_DOCS, TYPES } from "../yao/forms.js";
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

/** The page of a form or type of the language table, or undefined. */
export function languagePage(name: string): string | undefined {
  const form = FORM_DOCS.get(name);
  if (form !== undefined)
    return `${form.signature}   (form, ${form.group})

${form.meaning}

Type: ${form.type}

Example:

    ${form.example}

More: docs/language.md#${anchor(form.name)}
`;
  const type = TYPE_DOCS.get(name);
  if (type !== undefined)
    return `${type.signature}   (type)

${type.meaning}

Example:

    ${type.example}

More: docs/language.md#${anchor(`type ${type.name}`)}
`;
  return undefined;
}

/** The heading anchor docs/language.md gives a form or type (GitHub's rule: lower case, no dots). */
export function anchor(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, "")
    .replace(/ /g, "-");
}

/** `yaoc explain` alone: the topics (forms and types) and where the codes are. */
export function topicsPage(): string {
  const byGroup = new Map<string, string[]>();
  for (const f of FORMS) byGroup.set(f.group, [...(byGroup.get(f.group) ?? []), f.name]);
  const lines = [
    "yaoc explain TOPIC: a form or type of Yao, or a diagnostic code.",
    "",
    "Forms:",
    ...[...byGroup].map(([g, names]) => `  ${`${g}:`.padEnd(22)}${names.join(" ")}`),
    "",
    `Types: ${TYPES.map((t) => t.name).join(" ")}`,
    "",
    `Codes (${ALL_CODES.length}): ${ALL_CODES.map((r) => r.code).join(" ")}`,
    "",
    "The language guide is docs/language.md; every code is in docs/diagnostics.md.",
  ];
  return `${lines.join("\n")}\n`;
}

export function runExplain(code: string | undefined, write: Write, writeErr: Write): number {
  if (code === undefined) {
    write(topicsPage());
    return EXIT_OK;
  }
  const language = languagePage(code);
  if (language !== undefined) {
    write(language);
    return EXIT_OK;
  }
  const page = explainPage(code);
  if (page !== undefined) {
    write(page);
    return EXIT_OK;
  }
  const names = [...FORM_DOCS.keys(), ...TYPE_DOCS.keys()];
  const near = closestName(code, names);
  const close = [...(near === undefined ? [] : [near]), ...closeCodes(code)];
  writeErr(
    `yaoc explain: '${code}' is neither a form, a type nor a diagnostic code${close.length > 0 ? `; did you mean ${close.join(", ")}?` : ""}\n(yaoc explain alone lists them; the codes are in docs/diagnostics.md)\n`,
  );
  return EXIT_USAGE;
}
