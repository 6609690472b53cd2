/** The reference's wording of a UTF-8 decoding error in an OKF document. */
import { utf8SequenceAt } from "../../syntax/utf8.js";

/**
 * Rust's `Utf8Error` display, which the reference puts in "must be UTF-8: {error}":
 * `invalid utf-8 sequence of N bytes from index I` or `incomplete utf-8 byte sequence from index I`.
 */
export function rustUtf8ErrorText(b: Uint8Array, validUpTo: number): string {
  const at = utf8SequenceAt(b, validUpTo);
  if (at === 0) return `incomplete utf-8 byte sequence from index ${validUpTo}`;
  // A well-formed sequence here means the caller's offset is not an error: Rust's one-byte form.
  return `invalid utf-8 sequence of ${at < 0 ? -at : 1} bytes from index ${validUpTo}`;
}
