/**
 * The manifest text code frames are drawn from (a result's `sources`): every string value the
 * secret scan flagged (HARP §9.4) has its characters masked, so a frame of its line — its own or
 * another diagnostic's on the same line — never prints the secret, as the JSON output and every
 * message never do (src/harp/secret-scan.ts). Only the value between its quotes changes.
 *
 * The mask keeps the line's geometry: each scalar becomes one scalar of the display width it had
 * (`*` for one column, `＊` U+FF0A for two, U+200B for none, as inside a grapheme), so the display
 * columns computed from this text (code frame carets, JSON and GitHub columns) are those of the
 * original file.
 */
import type { Span } from "../diagnostics/diagnostic.js";
import { measureLine } from "../diagnostics/display-width.js";
import { utf16IndexOfByte } from "../diagnostics/text-positions.js";

/** `text` with the inside of each string value at `spans` (quotes included in the span) masked. */
export function maskSecretValues(text: string, spans: readonly Span[]): string {
  if (spans.length === 0) return text;
  const at = utf16IndexOfByte(text);
  const ordered = spans.slice().sort((a, b) => a.start.byte - b.start.byte);
  let out = "";
  let done = 0;
  for (const s of ordered) {
    const from = at[s.start.byte]! + 1;
    const to = at[s.end.byte]! - 1;
    if (from < done || to <= from) continue;
    out += text.slice(done, from) + mask(text.slice(from, to));
    done = to;
  }
  return out + text.slice(done);
}

/** One scalar per scalar, each of the width it added to the line (linear: measureLine is). */
function mask(value: string): string {
  const columns = measureLine(value);
  let out = "";
  for (let i = 0; i + 1 < columns.length; i++) {
    const width = columns[i + 1]! - columns[i]!;
    out += width === 0 ? "\u200B" : width === 1 ? "*" : "\uFF0A";
  }
  return out;
}
