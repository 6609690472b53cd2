/**
 * The one text-position module (issue 33 item 2): byte, code point, UTF-16 and display columns from
 * one line index, and every output format reporting the same column for the same character. The
 * expected widths are what a terminal shows (an emoji ZWJ sequence is one 2-column picture, a
 * combining mark sits in its base's column, a control character is one column), written out per
 * piece, not computed by the code under test.
 */
import { describe, expect, it } from "vitest";
import { checkSource } from "../../src/check/check.js";
import { displayWidth, measureLine } from "../../src/diagnostics/display-width.js";
import { positionOfByte, TextPositions, utf16IndexOfByte } from "../../src/diagnostics/text-positions.js";
import { renderResults } from "../../src/output/format.js";
import { TextLines } from "../../src/lsp/yao-document.js";

/** Each piece with the display width a terminal gives it. */
const PIECES: readonly { readonly name: string; readonly text: string; readonly width: number }[] = [
  { name: "ASCII", text: "ab", width: 2 },
  { name: "CJK", text: "数据", width: 4 },
  { name: "simple emoji", text: "🙂", width: 2 },
  { name: "family (ZWJ sequence)", text: "👨‍👩‍👧", width: 2 },
  { name: "flag (regional indicators)", text: "🇫🇷", width: 2 },
  { name: "skin tone modifier", text: "👍🏽", width: 2 },
  { name: "keycap", text: "1\ufe0f\u20e3", width: 2 },
  { name: "combining acute", text: "e\u0301", width: 1 },
  { name: "Hangul jamo", text: "\u1100\u1161", width: 2 },
  { name: "BEL", text: "\u0007", width: 1 },
  { name: "ESC", text: "\u001b", width: 1 },
  { name: "tab", text: "\t", width: 1 },
];

const enc = new TextEncoder();
const scalars = (s: string): number => Array.from(s).length;

describe("one line index: byte, code point, UTF-16 and display columns", () => {
  it("agree with the text's own encodings for every piece", () => {
    expect(PIECES.length).toBeGreaterThan(0);
    for (const piece of PIECES) {
      const prefix = `(x "${piece.text}`;
      const text = `first line\n${prefix}" y)\n`;
      const p = new TextPositions(text, "lf");
      const offset = 11 + prefix.length;
      const at = p.position(offset);
      expect(at, piece.name).toEqual({
        byte: enc.encode(text.slice(0, offset)).length,
        line: 2,
        column: scalars(prefix) + 1,
      });
      expect(p.offsetOf(at), piece.name).toBe(offset);
      expect(p.displayColumn(at), piece.name).toBe(4 + piece.width + 1);
      expect(displayWidth(piece.text), piece.name).toBe(piece.width);
      expect(utf16IndexOfByte(text)[at.byte], piece.name).toBe(offset);
      expect(positionOfByte(enc.encode(text), at.byte), piece.name).toEqual(at);
      expect(new TextLines(text).fromReader(at), piece.name).toEqual({ line: 1, character: prefix.length });
    }
  });

  it("measures a grapheme's width at its first scalar and nothing inside it", () => {
    expect(Array.from(measureLine("a👨‍👩‍👧b"))).toEqual([0, 1, 1, 1, 1, 1, 3, 4]);
    expect(Array.from(measureLine("e\u0301\u0007\t"))).toEqual([0, 0, 1, 2, 3]);
  });

  it("breaks lines at LF only or at LF, CRLF and a lone CR, the CR of a CRLF a column of its line", () => {
    const text = "a\r\nb\rc\nd";
    const lf = new TextPositions(text, "lf");
    const json = new TextPositions(text);
    expect([lf.lineCount, json.lineCount]).toEqual([3, 4]);
    expect(lf.position(text.indexOf("c"))).toEqual({ byte: 5, line: 2, column: 3 });
    expect(json.position(text.indexOf("c"))).toEqual({ byte: 5, line: 3, column: 1 });
    expect(json.position(1)).toEqual({ byte: 1, line: 1, column: 2 }); // the CR of the CRLF
    expect([lf.lineText(1), lf.lineText(2), lf.lineText(4)]).toEqual(["a\r", "b\rc", undefined]);
    expect(json.lineText(2)).toBe("b");
  });

  it("counts a surrogate pair as 4 bytes and one scalar, a lone surrogate as U+FFFD", () => {
    const text = "😀x\ud800y";
    const p = new TextPositions(text, "lf");
    expect(p.position(2)).toEqual({ byte: 4, line: 1, column: 2 });
    expect(p.position(4)).toEqual({ byte: 8, line: 1, column: 4 });
    expect(p.offsetOf({ line: 1, column: 2 })).toBe(2);
  });

  it("answers in any order on a text longer than one block, as a fresh walk does", () => {
    const text = `${"é中😀\n".repeat(200)}${"x".repeat(3000)}`;
    const p = new TextPositions(text, "lf");
    const offsets = [4000, 4, 1700, 2, 999, 0, text.length]; // none inside a surrogate pair
    expect(offsets.length).toBeGreaterThan(0);
    for (const o of offsets) {
      const before = text.slice(0, o);
      const lastLine = before.slice(before.lastIndexOf("\n") + 1);
      expect(p.position(o), String(o)).toEqual({
        byte: enc.encode(before).length,
        line: before.split("\n").length,
        column: scalars(lastLine) + 1,
      });
    }
  });
});

describe("every output format reports the same column for the same character", () => {
  const FORMAT = { color: false, toolVersion: "0", docsUri: "file:///docs/diagnostics.md" } as const;

  it("human code frame, JSON and GitHub in display columns; SARIF in code points", async () => {
    expect(PIECES.length).toBeGreaterThan(0);
    for (const piece of PIECES) {
      const line = `(eval (requires (tools read)) (seq "${piece.text}" zz))`;
      const source = `(manifest (id w) (version "1") (title "t") (capabilities (tools read)))\n(contract (purpose "p"))\n${line}\n`;
      const result = await checkSource("/p.hns", source);
      const unknown = result.diagnostics.filter((d) => d.code === "yao.unknown_name");
      expect(unknown, piece.name).toHaveLength(1);
      const before = line.slice(0, line.indexOf("zz"));
      const display = displayWidth(line.slice(0, line.indexOf('"') + 1)) + piece.width + 2 + 1;
      const codePoints = scalars(before) + 1;
      expect(unknown[0]!.span?.start.column, piece.name).toBe(codePoints);

      const json = JSON.parse(renderResults([result], "json", FORMAT)) as {
        results: { diagnostics: { code: string; column: number; end_column: number }[] }[];
      };
      const jd = json.results[0]!.diagnostics.find((d) => d.code === "yao.unknown_name")!;
      expect([jd.column, jd.end_column], piece.name).toEqual([display, display + 2]);

      const github = renderResults([result], "github", FORMAT).split("\n");
      const annotation = github.find((l) => l.includes("title=yao.unknown_name"));
      expect(annotation, piece.name).toContain(`,col=${display},`);
      expect(annotation, piece.name).toContain(`,endColumn=${display + 2},`);

      const sarif = JSON.parse(renderResults([result], "sarif", FORMAT)) as {
        runs: {
          results: { ruleId: string; locations: { physicalLocation: { region: { startColumn: number } } }[] }[];
        }[];
      };
      const sr = sarif.runs[0]!.results.find((r) => r.ruleId === "yao.unknown_name")!;
      expect(sr.locations[0]!.physicalLocation.region.startColumn, piece.name).toBe(codePoints);

      // The caret line: the padding is one character per display column (a tab stays a tab and
      // counts one, as in the code line above it), then two carets under `zz`.
      const human = renderResults([result], "human", FORMAT).split("\n");
      const codeAt = human.findIndex((l) => l.startsWith("3 | "));
      expect(codeAt, piece.name).toBeGreaterThan(0);
      const caretText = human[codeAt + 1]!.slice(human[codeAt + 1]!.indexOf("| ") + 2);
      expect(caretText.indexOf("^"), piece.name).toBe(display - 1);
      expect(caretText.slice(caretText.indexOf("^")), piece.name).toMatch(/^\^\^ /);
    }
  });

  it("shows control characters in a code frame as one-column Control Pictures, never raw", async () => {
    const source = `(manifest (id w) (version "1") (title "t") (capabilities (tools read)))\n(contract (purpose "p"))\n(eval (requires (tools read)) (seq "\u0007\u001b[2J" zz))\n`;
    const result = await checkSource("/p.hns", source);
    const human = renderResults([result], "human", FORMAT);
    expect(human).toContain('(seq "\u2407\u241b[2J" zz)');
    expect(human).not.toMatch(/[\u0007\u001b]/);
  });
});
