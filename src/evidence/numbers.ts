/**
 * The fixed-point number policy of R3 (seed 002 §3.1): before a receipt is hashed every JSON number
 * in it becomes a decimal string, so float jitter below the declared scale cannot move a hash.
 *
 * `fixedPoint(x)`:
 *  1. `x` must be finite and `|x| < 1e21` (else `FixedPointError`);
 *  2. round half away from zero to `FIXED_POINT_SCALE` (6) fractional digits, exactly as
 *     ECMAScript `Number.prototype.toFixed(6)` does on the IEEE-754 value;
 *  3. strip trailing fractional zeros and then a trailing ".";
 *  4. a result of "-0" becomes "0".
 * So `3` → "3", `2.5` → "2.5", `0.1 + 0.2` → "0.3", `1.9999999999` → "2", `-0.0000001` → "0",
 * `1e-7` → "0", `123456789.123456789` → "123456789.123457". No exponent ever appears.
 */
export const FIXED_POINT_SCALE = 6;
export const FIXED_POINT_LIMIT = 1e21;

export class FixedPointError extends Error {
  constructor(readonly value: number) {
    super(`${value} cannot be written as a fixed-point decimal (finite, |x| < 1e21 required)`);
    this.name = "FixedPointError";
  }
}

export function fixedPoint(x: number): string {
  if (!Number.isFinite(x) || Math.abs(x) >= FIXED_POINT_LIMIT) throw new FixedPointError(x);
  let s = x.toFixed(FIXED_POINT_SCALE);
  if (s.includes(".")) s = s.replace(/0+$/, "").replace(/\.$/, "");
  return s === "-0" ? "0" : s;
}
