/** JSON Pointer (RFC 6901) helpers shared by every frontend that reports a `pointer`. */

/** RFC 6901 §3 escaping of one reference token: `~` becomes `~0`, then `/` becomes `~1`. */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}
