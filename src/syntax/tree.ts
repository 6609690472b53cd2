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

  constructor(
    readonly file: string,
    readonly text: string,
  ) {}

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

  constructor(source: SourceText, from: number, to: number, items: readonly SNode[]) {
    super(source, from, to);
    this.kind = "list";
    this.items = items;
  }
}
