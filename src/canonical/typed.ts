/**
 * The typed canonical printer (yao-v0.1.md §2.1): symbols verbatim, strings double-quoted with
 * exactly five escapes, lists joined by one space, no comments, no whitespace, no trailing newline.
 * It is the identity text of programs, functions, type modules and entries.
 */
import { canonicalSlice, ReadList, type SList, type SNode } from "../syntax/tree.js";

/**
 * Texts already printed are kept on the list nodes the reader built (`ReadList.printed`). Trees are
 * never mutated after reading, so a node's text never changes; the loader prints each function and
 * the entry, and the analysis and identity may ask for the same nodes again (issue 19: 129 of 384
 * prints per check were repeats). On the node rather than in a WeakMap keyed by it: V8's scavenger
 * keeps a WeakMap's values alive while it runs, so every canonical text of a check was copied
 * through each minor collection after its tree had died (issue 29, figure n: a tenth fewer
 * scavenges and a third less time in them once the map was gone).
 */
export function canonicalSource(node: SNode): string {
  const known = printedText(node);
  if (known !== undefined) return known;
  const out: string[] = [];
  write(node, out);
  const text = out.join("");
  remember(node, text);
  return text;
}

function printedText(node: SNode): string | undefined {
  return node instanceof ReadList ? node.printed : undefined;
}

function remember(node: SNode, text: string): void {
  if (node instanceof ReadList) node.printed = text;
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
  const items = list.items;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const from = out.length;
    if (i > 0) out.push(" ");
    write(item, out);
    if (drop(item, i)) continue;
    // Each item's pieces start with its separator; the first item kept has none.
    const first = kept.length === 1;
    for (let k = first && i > 0 ? from + 1 : from; k < out.length; k++) kept.push(out[k]!);
  }
  out.push(")");
  kept.push(")");
  const full = printedText(list) ?? canonicalSlice(list) ?? out.join("");
  remember(list, full);
  return { full, without: kept.join("") };
}

/**
 * A node the reader built whose source is already written canonically is its own source text,
 * taken as a slice (`canonicalSlice`) instead of printed piece by piece and escaped again: on the
 * bench's 256 KiB package most lists and every plain string are (issue 29, figure n).
 */
function write(node: SNode, out: string[]): void {
  const slice = canonicalSlice(node);
  if (slice !== undefined) {
    out.push(slice);
    return;
  }
  switch (node.kind) {
    case "symbol":
      out.push(node.name);
      return;
    case "string":
      out.push('"', escapeTyped(node.value), '"');
      return;
    case "list": {
      out.push("(");
      const items = node.items;
      for (let i = 0; i < items.length; i++) {
        if (i > 0) out.push(" ");
        write(items[i]!, out);
      }
      out.push(")");
    }
  }
}

const NEEDS_ESCAPE = /[\\"\n\r\t]/;

/**
 * The body of a typed string literal: most strings need no escape, and are then returned as they
 * are. The others (block strings hold an LF on every line) are escaped one unit at a time with the
 * platform's search and replace, the backslash first so no escape is escaped again: a `replace`
 * with a callback called back into JS at every match, and a loop here over every unit of the long
 * CJK descriptions cost more (issue 29, figure n).
 */
function escapeTyped(value: string): string {
  if (!NEEDS_ESCAPE.test(value)) return value;
  // Asked of `value`, which holds a unit exactly when `out` does (only `\\` is ever added), so
  // `out`, built by the replacements, is not flattened just to be searched.
  let out = value;
  if (value.includes("\\")) out = out.replaceAll("\\", "\\\\");
  if (value.includes('"')) out = out.replaceAll('"', '\\"');
  if (value.includes("\n")) out = out.replaceAll("\n", "\\n");
  if (value.includes("\r")) out = out.replaceAll("\r", "\\r");
  if (value.includes("\t")) out = out.replaceAll("\t", "\\t");
  return out;
}

/** A typed string literal: only `\`, `"`, LF, CR and TAB are escaped; everything else is raw. */
export function quoteTyped(value: string): string {
  return `"${escapeTyped(value)}"`;
}
