/**
 * Terminal display width of source text, so code-frame carets line up under CJK and emoji: a wide
 * character (East Asian Wide/Fullwidth, most emoji) takes two columns, combining marks, variation
 * selectors and zero-width joiners none. `get-east-asian-width` holds the Unicode width table; it
 * is pure data and code, so the core stays browser-safe.
 */
import { eastAsianWidth } from "get-east-asian-width";

/** Combining marks, variation selectors, ZWJ/ZWNJ and other zero-width format characters. */
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\u200b\ufe00-\ufe0f]$/u;

export function charWidth(ch: string): number {
  const cp = ch.codePointAt(0)!;
  if (cp === 0x09) return 1; // tabs are reproduced as tabs in the padding; count one column
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (ZERO_WIDTH.test(ch)) return 0;
  return eastAsianWidth(cp);
}

export function displayWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += charWidth(ch);
  return w;
}

/**
 * Blank padding as wide as `text` on screen: tabs stay tabs (so the terminal's tab stops apply to
 * both lines alike), every other character becomes as many spaces as it is wide.
 */
export function paddingFor(text: string): string {
  let out = "";
  for (const ch of text) out += ch === "\t" ? "\t" : " ".repeat(charWidth(ch));
  return out;
}
