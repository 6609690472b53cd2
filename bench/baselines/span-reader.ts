/**
 * Yardstick only (never used by yaoc): a hand-written reader that builds the *same* tree as yaoc's
 * reader — `SNode`s with file/byte/line/column spans — in one iterative char loop, without
 * Chevrotain, limits or diagnostics (ASCII whitespace and five escapes only, throws on errors).
 * It measures what the public tree shape itself costs, so the gap between it and yaoc's reader is
 * exactly the price of the Chevrotain parser and the reference-exact checks.
 */
import type { Position } from "../../src/diagnostics/diagnostic.js";
import type { SNode, SourceSpan } from "../../src/syntax/tree.js";

export function spanRead(text: string, file = "<input>"): SNode[] {
  const root: SNode[] = [];
  const stack: { items: SNode[]; start: Position }[] = [];
  let items = root;
  let line = 1;
  let lineStart = 0;
  let extra = 0;
  const n = text.length;
  let i = 0;
  const pos = (k: number): Position => ({ byte: k + extra, line, column: k - lineStart + 1 });
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 40) {
      stack.push({ items, start: pos(i) });
      items = [];
      i++;
    } else if (c === 41) {
      const open = stack.pop();
      if (open === undefined) throw new Error(`unexpected ) at ${i}`);
      i++;
      const span: SourceSpan = { file, start: open.start, end: pos(i) };
      open.items.push({ kind: "list", items, span });
      items = open.items;
    } else if (c === 10) {
      i++;
      line++;
      lineStart = i;
    } else if (c === 32 || c === 9 || c === 13) {
      i++;
    } else if (c === 59) {
      while (i < n && text.charCodeAt(i) !== 10) {
        if (text.charCodeAt(i) >= 0x80) extra += text.charCodeAt(i) < 0x800 ? 1 : 2;
        i++;
      }
    } else if (c === 34) {
      const start = pos(i);
      let value = "";
      let run = ++i;
      for (;;) {
        if (i >= n) throw new Error("unterminated string");
        const d = text.charCodeAt(i);
        if (d === 34) break;
        if (d === 92) {
          value += text.slice(run, i);
          const e = text.charCodeAt(i + 1);
          value += e === 110 ? "\n" : e === 116 ? "\t" : e === 114 ? "\r" : String.fromCharCode(e);
          i += 2;
          run = i;
        } else {
          if (d >= 0x80) extra += d < 0x800 ? 1 : 2;
          i++;
        }
      }
      value += text.slice(run, i);
      i++;
      items.push({ kind: "string", value, block: false, span: { file, start, end: pos(i) } });
    } else {
      const start = pos(i);
      const from = i;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 40 || d === 41 || d === 34 || d === 59 || d <= 32) break;
        if (d >= 0x80) extra += d < 0x800 ? 1 : 2;
        i++;
      }
      items.push({ kind: "symbol", name: text.slice(from, i), span: { file, start, end: pos(i) } });
    }
  }
  if (stack.length > 0) throw new Error("unclosed list");
  return root;
}
