/** Turns the read protocol files into parsed JSON documents, reporting encoding and syntax problems. */

import { readJson } from "./json-reader.js";
import type { PackFile } from "./pack-files.js";
import type { JsonDoc, Reporter } from "./report.js";
import { TextPositions } from "../diagnostics/text-positions.js";

export function parseJsonFile(file: PackFile, report: Reporter): JsonDoc | null {
  if (!file.utf8) {
    report.emit("hcp.file.not_utf8", `${file.file} is not valid UTF-8; JSON protocol files must be UTF-8 encoded.`, {
      file: file.file,
      hint: "Re-save the file as UTF-8 (without a byte order mark).",
    });
    return null;
  }
  const positions = new TextPositions(file.text);
  const result = readJson(file.text);
  if (!result.ok) {
    const span = positions.span(result.offset, Math.min(result.offset + 1, file.text.length));
    if (result.problem === "too_deep") {
      report.emit("hcp.json.too_deep", `${file.file}: ${result.message}; the pack model needs only a few levels.`, { file: file.file, span });
    } else {
      report.emit("hcp.json.syntax", `${file.file} is not valid JSON: ${result.message}.`, { file: file.file, span });
    }
    return null;
  }
  for (const d of result.duplicates) {
    const pointer = `${d.objectPointer}`;
    report.emit(
      "hcp.json.duplicate_key",
      `${file.name} ${pointer === "" ? "(top level)" : pointer}: member ${JSON.stringify(d.key)} appears more than once; readers disagree on which value wins.`,
      {
        file: file.file,
        span: positions.span(d.start, d.end),
        pointer,
        hint: "Keep one occurrence of the member.",
        related: [{ file: file.file, span: positions.span(d.firstStart, d.firstEnd), message: "first occurrence" }],
      },
    );
  }
  if (result.root.kind !== "object") {
    report.emit("hcp.json.not_object", `${file.file}: the top-level value must be a JSON object, but it is ${describe(result.root.kind)}.`, {
      file: file.file,
      span: positions.span(result.root.start, result.root.end),
      pointer: "",
    });
    return null;
  }
  return { name: file.name, file: file.file, root: result.root, positions };
}

function describe(kind: string): string {
  return kind === "array" ? "an array" : kind === "null" ? "null" : `a ${kind}`;
}


