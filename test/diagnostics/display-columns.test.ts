import { describe, expect, it } from "vitest";
import stringWidth from "string-width";
import { measureLine } from "../../src/diagnostics/display-width.js";

/** The plain definition: the segmenter over the whole line, widths by string-width (slow on long lines). */
function naive(text: string): number[] {
  const columns = [0];
  let width = 0;
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)) {
    const n = Array.from(segment).length;
    for (let k = 1; k < n; k++) columns.push(width);
    width += /^[\u0000-\u001f\u007f]$/.test(segment) ? 1 : stringWidth(segment);
    columns.push(width);
  }
  return columns;
}

// Pieces chosen for the grapheme rules that cross the fast path's cuts: Prepend (U+0600) before
// ASCII, combining marks after ASCII, ZWJ emoji, regional-indicator pairs, Hangul jamo, Devanagari
// conjuncts, CJK, lone surrogates, controls.
const PIECES = [
  "a",
  "1",
  " ",
  "\t",
  "\u0007",
  "\u0600",
  "\u0301",
  "e\u0301",
  "👩‍💻",
  "🇫🇷",
  "🇫",
  "\u1100\u1161",
  "क्ष",
  "中",
  "\ud800",
  "\udc00",
  "©\ufe0f",
  "\u200d",
  "x",
];

function randomLine(seed: number, length: number): string {
  let state = seed;
  let out = "";
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    out += PIECES[state % PIECES.length];
  }
  return out;
}

describe("display columns of a line", () => {
  it("agree with the whole-line segmenter on mixed text", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const line = randomLine(seed, 1 + (seed % 700));
      expect(Array.from(measureLine(line)), `seed ${seed}`).toEqual(naive(line));
    }
  });

  it("agree on a grapheme longer than the segmenter window (a base with many combining marks)", () => {
    const line = `ab${`e${"\u0301".repeat(2000)}`}中cd`;
    expect(Array.from(measureLine(line))).toEqual(naive(line));
  });

  it("count wide, zero-width and joined characters as a terminal shows them", () => {
    expect(Array.from(measureLine("a中b"))).toEqual([0, 1, 3, 4]);
    expect(Array.from(measureLine("e\u0301x"))).toEqual([0, 0, 1, 2]); // the mark sits in the e's column
    expect(measureLine("👩‍💻").at(-1)).toBe(2);
    expect(measureLine("\u0600" + "1").at(-1)).toBe(naive("\u06001").at(-1));
  });

  it("measure a 250 KB one-line file (the fuzz regression's shape) with one column per ASCII character", () => {
    const line = `{"argv":["node"${",1".repeat(125_000)}]}`;
    const columns = measureLine(line);
    expect(columns.length).toBe(line.length + 1);
    expect(columns[line.length]).toBe(line.length);
  });
});
