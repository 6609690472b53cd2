/**
 * Display width: how many columns a piece of text takes on a monospace terminal or in an editor.
 * This is the one file that imports a width library (`string-width`: Unicode East Asian Width,
 * emoji presentation, grapheme aware), so a code frame, `--format json` and `--format github` can
 * never disagree about a character (issue 33: a family emoji was 6 columns in a code frame and 2 in
 * JSON, BEL 0 in one and 1 in the other). Positions and their display columns are computed from
 * one line index in text-positions.ts, which measures lines with `measureLine` below.
 *
 * The rule, per grapheme (user-perceived character):
 * - a control character (C0 or DEL) is one column: editors show it as one character, and the code
 *   frame prints it as its Control Pictures symbol (U+2400 + code), which is one column too;
 * - everything else is `string-width`'s answer: CJK and emoji two, an emoji ZWJ sequence, a flag or
 *   a keycap one picture of two, a combining mark or a variation selector inside its base's
 *   grapheme nothing.
 */
import stringWidth from "string-width";

/** The display width of one grapheme. */
export function graphemeWidth(segment: string): number {
  return isControl(segment) ? 1 : stringWidth(segment);
}

/** C0 controls (tab included) and DEL: one column each, whatever the terminal would do. */
function isControl(segment: string): boolean {
  if (segment.length !== 1) return false;
  const c = segment.charCodeAt(0);
  return c < 0x20 || c === 0x7f;
}

/** The display width of a whole text (no line breaks expected): the last entry of `measureLine`. */
export function displayWidth(text: string): number {
  const columns = measureLine(text);
  return columns[columns.length - 1]!;
}

/**
 * columns[i] = display width of the first i scalars of `text`; a grapheme's width is counted at its
 * first scalar and the scalars inside it add nothing (a ZWJ emoji sequence is one 2-column picture).
 *
 * Linear in the line. V8's Intl.Segmenter costs time proportional to the string's length for every
 * segment it yields, so segmenting a whole 250 KB line took minutes (one-line JSON with 125,000
 * diagnostics). Two ASCII code units in a row are therefore measured directly (no grapheme rule
 * joins two ASCII characters, and each is one column: printable ones by East Asian Width, controls
 * by the rule above), and only the stretches around non-ASCII text go to the segmenter, in short
 * windows.
 */
export function measureLine(text: string): Uint32Array {
  const columns = new Uint32Array(scalarCount(text) + 1);
  let scalar = 0;
  let width = 0;
  const add = (scalars: number, w: number): void => {
    for (let k = 0; k < scalars; k++) columns[scalar + k] = width;
    scalar += scalars;
    width += w;
    columns[scalar] = width;
  };
  let i = 0;
  while (i < text.length) {
    if (isAsciiAt(text, i) && (i + 1 === text.length || isAsciiAt(text, i + 1))) {
      add(1, 1);
      i += 1;
      continue;
    }
    // A stretch that needs the Unicode rules ends where two ASCII code units meet: always a grapheme
    // boundary (one ASCII unit is not enough: a Prepend character joins the character after it).
    let end = i + 1;
    while (end < text.length && !(isAsciiAt(text, end - 1) && isAsciiAt(text, end))) end++;
    for (const segment of graphemesOf(text.slice(i, end))) add(scalarCount(segment), graphemeWidth(segment));
    i = end;
  }
  return columns;
}

/** Graphemes of `text` from the segmenter, in windows so each call sees a short string. */
function* graphemesOf(text: string): Generator<string> {
  let start = 0;
  let window = SEGMENT_WINDOW;
  while (start < text.length) {
    let end = Math.min(text.length, start + window);
    if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end++;
    const segments = Array.from(graphemeSegmenter().segment(text.slice(start, end)), (s) => s.segment);
    if (end === text.length) {
      yield* segments;
      return;
    }
    // The window's last grapheme may continue past the cut: keep it for the next window. A window
    // that is one grapheme (a base with thousands of combining marks) doubles until it ends; a
    // single long grapheme is cheap for the segmenter, so this stays linear.
    if (segments.length <= 1) {
      window *= 2;
      continue;
    }
    for (let k = 0; k < segments.length - 1; k++) {
      yield segments[k]!;
      start += segments[k]!.length;
    }
    window = SEGMENT_WINDOW;
  }
}

function isAsciiAt(text: string, i: number): boolean {
  return text.charCodeAt(i) < 0x80;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function scalarCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++)
    if (!isLowSurrogate(text.charCodeAt(i)) || i === 0 || !isHighSurrogate(text.charCodeAt(i - 1))) n++;
  return n;
}

const SEGMENT_WINDOW = 256;
/**
 * Made on first use: the first Intl.Segmenter of a process loads ICU's break data (20–30 ms on this
 * machine), and most runs measure only ASCII text, which never reaches the segmenter.
 */
let GRAPHEMES: Intl.Segmenter | undefined;
function graphemeSegmenter(): Intl.Segmenter {
  GRAPHEMES ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return GRAPHEMES;
}
