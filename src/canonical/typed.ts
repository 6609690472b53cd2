/**
 * The typed canonical printer (yao-v0.1.md §2.1): symbols verbatim, strings double-quoted with
 * exactly five escapes, lists joined by one space, no comments, no whitespace, no trailing newline.
 * It is the identity text of programs, functions, type modules and entries.
 */
import type { SList, SNode } from "../syntax/tree.js";

/**
 * Texts already printed, by node. Trees are never mutated after reading, so a node's text never
 * changes; the loader prints each function and the entry, and the analysis and identity ask for the
 * same nodes again (issue 19: 129 of 384 prints per check were repeats). Weak, so a dropped tree
 * takes its texts with it.
 */
const printed = new WeakMap<SNode, string>();

export function canonicalSource(node: SNode): string {
  const known = printed.get(node);
  if (known !== undefined) return known;
  const out: string[] = [];
  write(node, out);
  const text = out.join("");
  if (node.kind === "list") printed.set(node, text);
  return text;
}

/**
 * The canonical texts of `list` and of `list` without the items `drop` names (a function and its
 * body-free interface, §7.5), from one walk: the pieces written for each item are joined again for
 * the second text instead of printing (and escaping) its items a second time.
 */
export function canonicalSourceWithout(
  list: SList,
  drop: (item: SNode, index: number) => boolean,
): { readonly full: string; readonly without: string } {
  const out: string[] = ["("];
  const kept: string[] = ["("];
  list.items.forEach((item, i) => {
    const from = out.length;
    if (i > 0) out.push(" ");
    write(item, out);
    if (drop(item, i)) return;
    // Each item's pieces start with its separator; the first item kept has none.
    const first = kept.length === 1;
    for (let k = first && i > 0 ? from + 1 : from; k < out.length; k++) kept.push(out[k]!);
  });
  out.push(")");
  kept.push(")");
  const full = printed.get(list) ?? out.join("");
  printed.set(list, full);
  return { full, without: kept.join("") };
}

function write(node: SNode, out: string[]): void {
  switch (node.kind) {
    case "symbol":
      out.push(node.name);
      return;
    case "string":
      out.push('"', escapeTyped(node.value), '"');
      return;
    case "list":
      out.push("(");
      node.items.forEach((item, i) => {
        if (i > 0) out.push(" ");
        write(item, out);
      });
      out.push(")");
  }
}

const TYPED_ESCAPES = /[\\"\n\r\t]/g;
const NEEDS_ESCAPE = /[\\"\n\r\t]/;
const TYPED_ESCAPE_OF: Record<string, string> = { "\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** The body of a typed string literal: most strings need no escape, and are then returned as they are. */
function escapeTyped(value: string): string {
  return NEEDS_ESCAPE.test(value) ? value.replace(TYPED_ESCAPES, (c) => TYPED_ESCAPE_OF[c]!) : value;
}

/** A typed string literal: only `\`, `"`, LF, CR and TAB are escaped; everything else is raw. */
export function quoteTyped(value: string): string {
  return `"${escapeTyped(value)}"`;
}
