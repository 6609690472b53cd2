/**
 * The Unicode White_Space trim (Rust's `str::trim`), which differs from JS `trim` on U+0085 and
 * U+FEFF. Two index scans, not a regular expression: `\p{White_Space}+$` retries at every space of
 * a long description, and descriptions are most of a large package's bytes.
 */
import { isWhiteSpace } from "../../grammar/yao.js";

export function trimWhiteSpace(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isWhiteSpace(s.charCodeAt(a))) a++;
  while (b > a && isWhiteSpace(s.charCodeAt(b - 1))) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}
