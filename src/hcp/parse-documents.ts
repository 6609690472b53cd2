/** Turns the read protocol files into parsed JSON documents, reporting encoding and syntax problems. */

import { pointerToken, readJson, type JsonMember, type JsonNode } from "./json-reader.js";
import type { PackFile } from "./pack-files.js";
import type { JsonDoc, PackReporter } from "./report.js";
import { TextPositions } from "../diagnostics/text-positions.js";

export function parseJsonFile(file: PackFile, report: PackReporter): JsonDoc | null {
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
      report.emit("hcp.json.too_deep", `${file.file}: ${result.message}; the pack model needs only a few levels.`, {
        file: file.file,
        span,
      });
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
  // Checked on the parsed tree (the reader decodes escapes as JSON.parse does): a document with a
  // lone surrogate is rejected whole, so no rule, digest or receipt ever sees such a string.
  const lone = loneSurrogates(result.root);
  for (const s of lone) {
    report.emit(
      "hcp.json.lone_surrogate",
      `${file.name} ${s.pointer === "" ? "(top level)" : s.pointer}: the ${s.what} ${JSON.stringify(s.text.length > 80 ? `${s.text.slice(0, 80)}…` : s.text)} holds an unpaired surrogate (U+${s.unit.toString(16).toUpperCase()}), which is not a Unicode character; it cannot be encoded as UTF-8 or canonicalized (RFC 8785).`,
      {
        file: file.file,
        span: positions.span(s.start, s.end),
        pointer: s.pointer,
        hint: "Write the character itself, or a surrogate pair (\\ud83d\\ude00), never half of one.",
      },
    );
  }
  if (lone.length > 0) return null;
  if (result.root.kind !== "object") {
    report.emit(
      "hcp.json.not_object",
      `${file.file}: the top-level value must be a JSON object, but it is ${describe(result.root.kind)}.`,
      {
        file: file.file,
        span: positions.span(result.root.start, result.root.end),
        pointer: "",
      },
    );
    return null;
  }
  return { name: file.name, file: file.file, root: result.root, positions };
}

interface LoneSurrogate {
  readonly what: "string" | "member name";
  readonly text: string;
  readonly unit: number;
  readonly pointer: string;
  readonly start: number;
  readonly end: number;
}

/** The first unpaired surrogate code unit of `s`, or -1. */
function loneSurrogateIn(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    const d = s.charCodeAt(i + 1);
    if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
      i++;
      continue;
    }
    return c;
  }
  return -1;
}

/**
 * Every string value and member name holding an unpaired surrogate, in document order (iterative).
 * A pointer never contains one (it is printed and hashed): below such a member name, findings
 * carry the pointer of the object holding the name.
 */
function loneSurrogates(root: JsonNode): LoneSurrogate[] {
  const out: LoneSurrogate[] = [];
  type Item = { node: JsonNode; pointer: string } | { name: JsonMember; pointer: string; unit: number };
  const stack: Item[] = [{ node: root, pointer: "" }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if ("name" in item) {
      const m = item.name;
      out.push({
        what: "member name",
        text: m.key,
        unit: item.unit,
        pointer: item.pointer,
        start: m.keyStart,
        end: m.keyEnd,
      });
      continue;
    }
    const { node, pointer } = item;
    if (node.kind === "string") {
      const unit = loneSurrogateIn(node.value);
      if (unit >= 0) out.push({ what: "string", text: node.value, unit, pointer, start: node.start, end: node.end });
    } else if (node.kind === "array") {
      for (let i = node.items.length - 1; i >= 0; i--) stack.push({ node: node.items[i]!, pointer: `${pointer}/${i}` });
    } else if (node.kind === "object") {
      for (let i = node.members.length - 1; i >= 0; i--) {
        const m = node.members[i]!;
        const unit = loneSurrogateIn(m.key);
        stack.push({ node: m.value, pointer: unit >= 0 ? pointer : `${pointer}/${pointerToken(m.key)}` });
        // Pushed after the value so it pops first: the name is reported before anything inside it.
        if (unit >= 0) stack.push({ name: m, pointer, unit });
      }
    }
  }
  return out;
}

function describe(kind: string): string {
  return kind === "array" ? "an array" : kind === "null" ? "null" : `a ${kind}`;
}
