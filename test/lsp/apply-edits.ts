/** Apply LSP text edits (ranges in UTF-16 lines/characters, as the server sends them) to a text. */
import { TextLines } from "../../src/lsp/yao-document.js";

export interface Edit {
  readonly range: {
    readonly start: { line: number; character: number };
    readonly end: { line: number; character: number };
  };
  readonly newText: string;
}

export function applyEdits(text: string, edits: readonly Edit[]): string {
  const lines = new TextLines(text);
  const spans = edits
    .map((e) => ({ from: lines.offsetAt(e.range.start), to: lines.offsetAt(e.range.end), text: e.newText }))
    .sort((a, b) => b.from - a.from);
  let out = text;
  for (const s of spans) out = out.slice(0, s.from) + s.text + out.slice(s.to);
  return out;
}
