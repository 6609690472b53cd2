/**
 * Yardstick only (never used by yaoc): a minimal hand-written reader that builds the *same* tree as
 * yaoc's `readAll` — the same `ReadSymbol` / `ReadString` / `ReadList` nodes over one `SourceText`,
 * each with its UTF-16 offsets (spans come from those on demand, exactly as for `readAll`'s nodes)
 * — in one iterative char loop, without Chevrotain, limits, diagnostics or error positions (ASCII
 * white space, block strings and the five escapes; it throws on malformed input).
 *
 * This is the yardstick issue 19 names for figure a1 ("a minimal hand-written S-expression reader,
 * same trees with spans"): the gap between it and `readAll` is the price of the Chevrotain parser
 * pass and the reference-exact checks, not of the tree shape. (Until issue 19's reader work the
 * tree carried eager position objects and this reader built those; it follows the tree.)
 */
import { ReadList, ReadString, ReadSymbol, type SNode, SourceText } from "../../src/syntax/tree.js";

export function spanRead(text: string, file = "<input>"): SNode[] {
  const source = new SourceText(file, text);
  const root: SNode[] = [];
  // The enclosing lists' items and the offsets of their `(`, innermost last.
  const outer: SNode[][] = [];
  const opens: number[] = [];
  let items = root;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 40) {
      outer.push(items);
      opens.push(i);
      items = [];
      i++;
    } else if (c === 41) {
      const up = outer.pop();
      if (up === undefined) throw new Error(`unexpected ) at ${i}`);
      i++;
      up.push(new ReadList(source, opens.pop()!, i, items));
      items = up;
    } else if (c === 32 || c === 10 || c === 9 || c === 13) {
      i++;
    } else if (c === 59) {
      const nl = text.indexOf("\n", i);
      i = nl < 0 ? n : nl;
    } else if (c === 34) {
      const from = i;
      if (text.charCodeAt(i + 1) === 34 && text.charCodeAt(i + 2) === 34) {
        const close = text.indexOf('"""', i + 3);
        if (close < 0) throw new Error("unterminated block string");
        i = close + 3;
        items.push(new ReadString(source, from, i, text.slice(from + 3, close), true));
        continue;
      }
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
        } else i++;
      }
      value += text.slice(run, i);
      i++;
      items.push(new ReadString(source, from, i, value, false));
    } else {
      const from = i;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 40 || d === 41 || d === 34 || d === 59 || d <= 32) break;
        i++;
      }
      items.push(new ReadSymbol(source, from, i, text.slice(from, i)));
    }
  }
  if (outer.length > 0) throw new Error("unclosed list");
  return root;
}
