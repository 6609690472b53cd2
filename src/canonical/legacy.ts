/**
 * The legacy metadata view and printer (yao-v0.1.md §2.2). Manifest, contract and mind enter the
 * package identity through this view, in which strings and symbols are both plain atoms.
 *
 * The reference builds the view by printing a form canonically and re-reading it with its untyped
 * reader; on canonical input that round trip maps a symbol to an atom of its name and a string to
 * an atom of its decoded value, which is what `legacyView` does directly.
 */
import type { SNode } from "../syntax/tree.js";

export type LegacyNode = string | readonly LegacyNode[];

export function legacyView(node: SNode): LegacyNode {
  switch (node.kind) {
    case "symbol":
      return node.name;
    case "string":
      return node.value;
    case "list":
      return node.items.map(legacyView);
  }
}

export function printLegacy(node: LegacyNode): string {
  if (typeof node === "string") return printLegacyAtom(node);
  return `(${node.map(printLegacy).join(" ")})`;
}

/** Bare unless empty or containing space, `(`, `)`, LF, CR, TAB or `"`; then only `\` and `"` are escaped. */
export function printLegacyAtom(atom: string): string {
  if (atom !== "" && !/[ ()\n\r\t"]/.test(atom)) return atom;
  return `"${atom.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}
