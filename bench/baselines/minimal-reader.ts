/**
 * Yardstick only (never used by yaoc): a minimal hand-written char-loop S-expression reader.
 * Builds the bare tree — arrays for lists, strings for symbols, `{ s }` for string literals — with
 * no spans, no limits, no error positions, ASCII white space, block strings and the five escapes. It is the floor a reader that
 * must build a tree could reach in JavaScript; `npm run bench` reports yaoc's reader against it.
 */
export type MinimalNode = string | { s: string } | MinimalNode[];

export function minimalRead(text: string): MinimalNode[] {
  const root: MinimalNode[] = [];
  const stack: MinimalNode[][] = [];
  let cur = root;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 40) {
      const list: MinimalNode[] = [];
      cur.push(list);
      stack.push(cur);
      cur = list;
      i++;
    } else if (c === 41) {
      const up = stack.pop();
      if (up === undefined) throw new Error(`unexpected ) at ${i}`);
      cur = up;
      i++;
    } else if (c === 32 || c === 10 || c === 9 || c === 13) {
      i++;
    } else if (c === 59) {
      const nl = text.indexOf("\n", i);
      i = nl < 0 ? n : nl;
    } else if (c === 34) {
      if (text.charCodeAt(i + 1) === 34 && text.charCodeAt(i + 2) === 34) {
        const close = text.indexOf('"""', i + 3);
        if (close < 0) throw new Error("unterminated block string");
        cur.push({ s: text.slice(i + 3, close) });
        i = close + 3;
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
      cur.push({ s: value + text.slice(run, i) });
      i++;
    } else {
      const start = i;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 40 || d === 41 || d === 34 || d === 59 || d <= 32) break;
        i++;
      }
      cur.push(text.slice(start, i));
    }
  }
  if (stack.length > 0) throw new Error("unclosed list");
  return root;
}
