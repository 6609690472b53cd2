/**
 * Small text rules the reference fixes exactly: byte (code point) order, identifiers and the
 * Unicode White_Space trim.
 */

/** Compare as UTF-8 bytes do, i.e. by code point (JS `<` compares UTF-16 units, which differs). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    // A surrogate (astral code point) sorts after every BMP unit; among surrogates UTF-16 order holds.
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

export function sortByCodePoints(names: Iterable<string>): string[] {
  return [...names].sort(compareCodePoints);
}

const IDENTIFIER = /^[\p{Alphabetic}_][\p{Alphabetic}\p{N}_-]*$/u;

/** yao-v0.1.md §3.2: binding, type, field, variant, branch, function and parameter names. */
export function isIdentifier(s: string): boolean {
  return IDENTIFIER.test(s);
}

/** Trim the Unicode White_Space property (JS `trim()` also strips U+FEFF and keeps U+0085). */
export function trimWhiteSpace(s: string): string {
  return s.replace(/^\p{White_Space}+|\p{White_Space}+$/gu, "");
}
