/**
 * The playground's highlighting (playground/src/yao-language.ts) reads its keywords from the
 * language table (src/yao/forms.ts) and the HNS clause keywords, so every form is a keyword —
 * `add`, `host.view`, `evidence.commit`, `context.propose` too — and words that are not Yao
 * (`let`, `type`) are not. Runs the stream grammar in Node over one line at a time.
 */
import { StringStream } from "@codemirror/language";
import { describe, expect, it } from "vitest";
import { KEYWORDS, yaoStreamParser } from "../../playground/src/yao-language.js";
import { ARTIFACT_KEYWORDS, BUILTIN_TYPES } from "../../src/lsp/operators.js";
import { FORMS } from "../../src/yao/forms.js";

/** Each non-space token of `line` with the grammar's style for it. */
function tokens(line: string): [string, string | null][] {
  const state = yaoStreamParser.startState!(2);
  const stream = new StringStream(line, 2, 2);
  const out: [string, string | null][] = [];
  while (!stream.eol()) {
    stream.start = stream.pos;
    const style = yaoStreamParser.token(stream, state);
    const text = stream.current();
    if (text.trim() !== "") out.push([text, style]);
  }
  return out;
}

const styleOf = (word: string) => tokens(`(${word} x)`).find(([t]) => t === word)?.[1];

describe("playground highlighting", () => {
  it("every form of the language table and every clause keyword is a keyword", () => {
    expect(FORMS.length).toBeGreaterThan(40);
    for (const f of FORMS) {
      expect(KEYWORDS.has(f.name), f.name).toBe(true);
      expect(styleOf(f.name), f.name).toBe("keyword");
    }
    for (const k of ARTIFACT_KEYWORDS) expect(styleOf(k), k).toBe("keyword");
    for (const name of [
      "add",
      "sub",
      "mul",
      "div",
      "host.view",
      "evidence.commit",
      "context.propose",
      "outcome.commit",
    ])
      expect(styleOf(name), name).toBe("keyword");
  });

  it("let and type are not Yao and are not keywords; built-in types are types", () => {
    for (const word of ["let", "type"]) {
      expect(KEYWORDS.has(word), word).toBe(false);
      expect(styleOf(word), word).toBe("variableName");
    }
    expect(BUILTIN_TYPES.length).toBeGreaterThan(5);
    for (const t of BUILTIN_TYPES) expect(styleOf(t), t).toBe("typeName");
  });

  it("strings, comments, numbers and atoms keep their styles", () => {
    expect(tokens('(add 1 2.5) ; sum "x"')).toEqual([
      ["(", "paren"],
      ["add", "keyword"],
      ["1", "number"],
      ["2.5", "number"],
      [")", "paren"],
      ['; sum "x"', "comment"],
    ]);
    expect(tokens('(if true "a b" none)').map(([, s]) => s)).toEqual([
      "paren",
      "keyword",
      "atom",
      "string",
      "keyword",
      "paren",
    ]);
  });
});
