/**
 * The typed canonical printer (yao-v0.1.md §2.1): symbols verbatim, strings double-quoted with
 * exactly five escapes, lists joined by one space, no comments, no whitespace, no trailing newline.
 * It is the identity text of programs, functions, type modules and entries.
 */
import type { SNode } from "../syntax/tree.js";

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

function write(node: SNode, out: string[]): void {
  switch (node.kind) {
    case "symbol":
      out.push(node.name);
      return;
    case "string":
      out.push(quoteTyped(node.value));
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
const TYPED_ESCAPE_OF: Record<string, string> = { "\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** A typed string literal: only `\`, `"`, LF, CR and TAB are escaped; everything else is raw. */
export function quoteTyped(value: string): string {
  return `"${value.replace(TYPED_ESCAPES, (c) => TYPED_ESCAPE_OF[c]!)}"`;
}
