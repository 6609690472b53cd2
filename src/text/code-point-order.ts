/**
 * The one code-point comparison of the tree. For well-formed strings, code-point order is UTF-8
 * byte order (what canonical JSON, package identity and tree listings sort by), and it is computed
 * here on UTF-16 units without encoding: a surrogate unit (half of an astral code point) sorts after
 * every BMP unit, and among surrogates UTF-16 order is code-point order.
 *
 * Lone surrogates (only possible in ill-formed text) sort as if astral, so the order stays total and
 * never equates two different strings (encoding both to UTF-8 would turn each into U+FFFD).
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}
