/**
 * The typed canonical printer (yao-v0.1.md §2.1): symbols verbatim, strings double-quoted with
 * exactly five escapes, lists joined by one space, no comments, no whitespace, no trailing newline.
 * It is the identity text of programs, functions, type modules and entries.
 */
import type { SNode } from "../syntax/tree.js";

export function canonicalSource(node: SNode): string {
  const out: string[] = [];
  write(node, out);
  return out.join("");
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
