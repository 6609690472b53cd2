/**
 * The S-expression tree the Yao reader produces. Strings and symbols stay distinct (the typed view);
 * the legacy metadata view that conflates them lives in src/canonical/legacy.ts.
 */
import type { SourceSpan } from "../../ir/span.js";
import { TextPositions } from "../diagnostics/text-positions.js";

export type { SourceSpan } from "../../ir/span.js";

export interface SSymbol {
  readonly kind: "symbol";
  readonly name: string;
  readonly span: SourceSpan;
}

export interface SString {
  readonly kind: "string";
  /** The decoded value (escapes applied; block strings raw). */
  readonly value: string;
  /** Written as a `"""` block string; block strings have no identity of their own. */
  readonly block: boolean;
  readonly span: SourceSpan;
}

export interface SList {
  readonly kind: "list";
  readonly items: readonly SNode[];
  readonly span: SourceSpan;
}

export type SNode = SSymbol | SString | SList;
export type SAtom = SSymbol | SString;

export function isList(n: SNode | undefined): n is SList {
  return n !== undefined && n.kind === "list";
}

export function isSymbol(n: SNode | undefined, name?: string): n is SSymbol {
  return n !== undefined && n.kind === "symbol" && (name === undefined || n.name === name);
}

/** The symbol name heading a list, or undefined. */
export function headName(n: SNode | undefined): string | undefined {
  if (n === undefined || n.kind !== "list") return undefined;
  const h = n.items[0];
  return h !== undefined && h.kind === "symbol" ? h.name : undefined;
}

/** The file a node was read from, without computing its span when the reader built it. */
export function fileOf(node: SNode): string {
  return node instanceof ReadNode ? node.source.file : node.span.file;
}

/**
 * The text a tree was read from. Nodes the reader builds keep UTF-16 offsets into it and nothing
 * else positional; their `span` is computed on first use from one line index per text (built on
 * the first span asked for), so reading allocates no position objects.
 */
export class SourceText {
  private index: TextPositions | undefined = undefined;
  /** UTF-16 offset of the text's first TAB, -1 for none, -2 until asked (see `hasTabIn`). */
  private firstTab = -2;

  constructor(
    readonly file: string,
    readonly text: string,
  ) {}

  /** Whether a TAB is among the units `[from, to)`: most texts have none, and then no unit is looked at. */
  hasTabIn(from: number, to: number): boolean {
    if (this.firstTab === -2) this.firstTab = this.text.indexOf("\t");
    const first = this.firstTab;
    if (first < 0 || first >= to) return false;
    if (first >= from) return true;
    for (let i = from; i < to; i++) if (this.text.charCodeAt(i) === 0x09) return true;
    return false;
  }

  /** The span of UTF-16 offsets `[from, to)`. */
  span(from: number, to: number): SourceSpan {
    const index = (this.index ??= new TextPositions(this.text, "lf"));
    return { file: this.file, start: index.position(from), end: index.position(to) };
  }
}

/**
 * What every node the reader builds has: its text and offsets, and `span` as a getter on the shared
 * prototype (computed once, then kept). A spread (`{ ...node }`) copies own fields only, so it
 * drops `span`: build a new node with `span: node.span` instead.
 */
abstract class ReadNode {
  declare readonly source: SourceText;
  /** UTF-16 offset of the node's first unit in `source.text`. */
  declare readonly from: number;
  /** UTF-16 offset just past the node's last unit. */
  declare readonly to: number;
  declare private cachedSpan: SourceSpan | undefined;

  constructor(source: SourceText, from: number, to: number) {
    this.source = source;
    this.from = from;
    this.to = to;
    this.cachedSpan = undefined;
  }

  get span(): SourceSpan {
    return (this.cachedSpan ??= this.source.span(this.from, this.to));
  }
}

export class ReadSymbol extends ReadNode implements SSymbol {
  declare readonly kind: "symbol";
  declare readonly name: string;

  constructor(source: SourceText, from: number, to: number, name: string) {
    super(source, from, to);
    this.kind = "symbol";
    this.name = name;
  }
}

export class ReadString extends ReadNode implements SString {
  declare readonly kind: "string";
  declare readonly value: string;
  declare readonly block: boolean;

  constructor(source: SourceText, from: number, to: number, value: string, block: boolean) {
    super(source, from, to);
    this.kind = "string";
    this.value = value;
    this.block = block;
  }
}

export class ReadList extends ReadNode implements SList {
  declare readonly kind: "list";
  declare readonly items: readonly SNode[];
  /** `writtenCanonically`'s answer for this list: 0 until asked, then 1 (yes) or 2 (no). */
  declare canonicalLayout: number;
  /** The list's typed canonical text once printed (src/canonical/typed.ts), so it is printed once. */
  declare printed: string | undefined;

  constructor(source: SourceText, from: number, to: number, items: readonly SNode[]) {
    super(source, from, to);
    this.kind = "list";
    this.items = items;
    this.canonicalLayout = 0;
    this.printed = undefined;
  }
}

/**
 * Whether the node's source text, `source.text.slice(from, to)`, is exactly its typed canonical
 * text (yao-v0.1.md §2.1), so a printer can take the slice instead of printing the node again:
 * - a symbol always is (the reader takes its name from the source as it is);
 * - a plain string is unless it holds a raw TAB: the reader knows only the five escapes the
 *   printer writes and refuses a raw LF or CR, so every other unit is printed as it is written;
 *   a `"""` block string never is;
 * - a list is when every item is and the list is written `(a b c)`: no space after `(` or before
 *   `)`, one space between items, no comment, and the items are the ones read from that text
 *   (same `SourceText`, offsets inside it; a list with items dropped, as `withoutBodyClauses`
 *   makes, leaves a gap and is not).
 * Nodes the reader did not build never are. A list's answer is kept on it, so each node is judged
 * once however often its ancestors are printed.
 */
export function writtenCanonically(node: SNode): boolean {
  if (node instanceof ReadSymbol) return true;
  if (node instanceof ReadString) return !node.block && !node.source.hasTabIn(node.from, node.to);
  if (!(node instanceof ReadList)) return false;
  if (node.canonicalLayout !== 0) return node.canonicalLayout === 1;
  const ok = listWrittenCanonically(node);
  node.canonicalLayout = ok ? 1 : 2;
  return ok;
}

/** The node's source text when it is its canonical text (`writtenCanonically`), else undefined. */
export function canonicalSlice(node: SNode): string | undefined {
  if (!writtenCanonically(node)) return undefined;
  if (node.kind === "symbol") return node.name;
  const n = node as unknown as ReadNode;
  return n.source.text.slice(n.from, n.to);
}

function listWrittenCanonically(list: ReadList): boolean {
  const items = list.items;
  const text = list.source.text;
  // Where the next item must start (just after `(`, then after one space) and where `)` must be.
  let close = list.from + 1;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const at = i === 0 ? close : close + 1;
    if (!(item instanceof ReadNode) || item.source !== list.source || item.from !== at) return false;
    if (i > 0 && text.charCodeAt(close) !== 0x20) return false;
    if (!writtenCanonically(item as SNode)) return false;
    close = item.to;
  }
  return list.to === close + 1 && text.charCodeAt(close) === 0x29;
}
