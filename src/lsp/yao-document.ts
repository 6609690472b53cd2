/**
 * One Yao source as the language server sees it: its text, the reader's tree with UTF-16 offsets,
 * and position conversions between the reader (UTF-8 bytes; line; column in Unicode scalars; only
 * LF starts a line) and LSP (line; UTF-16 character). Browser-safe.
 */
import type { Position as ReaderPosition, Span } from "../diagnostics/diagnostic.js";
import { readAll } from "../syntax/reader.js";
import type { SNode } from "../syntax/tree.js";
import { TextPositions, utf16IndexOfByte } from "../diagnostics/text-positions.js";

export interface LspPosition {
  readonly line: number;
  readonly character: number;
}
export interface LspRange {
  readonly start: LspPosition;
  readonly end: LspPosition;
}

/** A reader node with UTF-16 offsets and its parent, for cursor lookups. */
export interface YNode {
  readonly node: SNode;
  readonly from: number;
  readonly to: number;
  readonly parent: YNode | undefined;
  /** Index in the parent's items (or among the top-level forms). */
  readonly index: number;
  readonly items: readonly YNode[];
}

/**
 * Text with its one line index (src/diagnostics/text-positions.ts; LF only, as the reader counts
 * lines), answering in LSP positions (zero-based line, UTF-16 character).
 */
export class TextLines {
  private readonly index: TextPositions;
  constructor(readonly text: string) {
    this.index = new TextPositions(text, "lf");
  }

  offsetAt(p: LspPosition): number {
    const line = Math.max(0, Math.min(p.line, this.index.lineCount - 1)) + 1;
    return Math.min(this.index.lineStart(line) + Math.max(0, p.character), this.index.lineEnd(line));
  }

  positionAt(offset: number): LspPosition {
    const line = this.index.position(offset).line;
    return { line: line - 1, character: offset - this.index.lineStart(line) };
  }

  /** A reader position (1-based line, column in scalars) as an LSP position (UTF-16). */
  fromReader(p: ReaderPosition): LspPosition {
    const line = Math.max(1, Math.min(p.line, this.index.lineCount));
    return { line: line - 1, character: this.index.offsetOf({ line, column: p.column }) - this.index.lineStart(line) };
  }

  rangeOfSpan(span: Span): LspRange {
    return { start: this.fromReader(span.start), end: this.fromReader(span.end) };
  }

  range(from: number, to: number): LspRange {
    return { start: this.positionAt(from), end: this.positionAt(to) };
  }
}

export class YaoDocument {
  readonly lines: TextLines;
  private tree: { readonly forms: readonly YNode[]; readonly ok: boolean } | undefined;

  constructor(
    readonly path: string,
    readonly text: string,
  ) {
    this.lines = new TextLines(text);
  }

  /** Top-level forms; empty when the source does not read. Built on first use (publishing needs only lines). */
  get forms(): readonly YNode[] {
    return this.parse().forms;
  }

  get readOk(): boolean {
    return this.parse().ok;
  }

  private parse(): { readonly forms: readonly YNode[]; readonly ok: boolean } {
    if (this.tree !== undefined) return this.tree;
    const read = readAll(this.text, { file: this.path });
    if (!read.ok) return (this.tree = { forms: [], ok: false });
    const map = utf16IndexOfByte(this.text);
    const build = (node: SNode, parent: YNode | undefined, index: number): YNode => {
      const items: YNode[] = [];
      const y: YNode = { node, from: map[node.span.start.byte]!, to: map[node.span.end.byte]!, parent, index, items };
      if (node.kind === "list") node.items.forEach((n, i) => items.push(build(n, y, i)));
      return y;
    };
    return (this.tree = { forms: read.forms.map((f, i) => build(f, undefined, i)), ok: true });
  }

  /** The innermost node containing `offset` (an atom touching the cursor wins over its list). */
  nodeAt(offset: number): YNode | undefined {
    let found: YNode | undefined;
    let level: readonly YNode[] = this.forms;
    for (;;) {
      const hit = level.find((n) => n.from <= offset && offset <= n.to && (n.node.kind !== "list" || offset < n.to));
      if (hit === undefined) return found;
      found = hit;
      level = hit.items;
    }
  }

  /** Every node, depth first, in source order. */
  *walk(): Generator<YNode> {
    const stack = [...this.forms].reverse();
    while (stack.length > 0) {
      const n = stack.pop()!;
      yield n;
      for (let i = n.items.length - 1; i >= 0; i--) stack.push(n.items[i]!);
    }
  }
}

/** The symbol name of a node, or undefined. */
export function symbolName(n: YNode | undefined): string | undefined {
  return n !== undefined && n.node.kind === "symbol" ? n.node.name : undefined;
}

/** The head symbol of a list node, or undefined. */
export function headOf(n: YNode | undefined): string | undefined {
  return n !== undefined && n.node.kind === "list" ? symbolName(n.items[0]) : undefined;
}
