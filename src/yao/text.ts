/**
 * Small text rules the reference fixes exactly: byte (code point) order, identifiers and the
 * Unicode White_Space trim.
 */

import { compareCodePoints } from "../text/code-point-order.js";

export { compareCodePoints };

export function sortByCodePoints(names: Iterable<string>): string[] {
  return [...names].sort(compareCodePoints);
}

const IDENTIFIER = /^[\p{Alphabetic}_][\p{Alphabetic}\p{N}_-]*$/u;

/** yao-v0.1.md §3.2: binding, type, field, variant, branch, function and parameter names. */
export function isIdentifier(s: string): boolean {
  return IDENTIFIER.test(s);
}

/** The Unicode White_Space trim (JS `trim()` also strips U+FEFF and keeps U+0085). */
export { trimWhiteSpace } from "../syntax/white-space.js";
