/**
 * The Yao formatter, byte-compatible with the reference `format_source` (yao-v0.1.md §12).
 *
 * The input is read with the real reader first, so invalid input is refused with exactly the
 * reader's diagnostic and nothing is produced. The layout then works on source slices: atoms are
 * never re-spelled (escapes and block strings keep their spelling), only the text *between* nodes
 * (the gaps: whitespace and comments) is rewritten.
 *
 * Linear time: `compact` is computed once per node, bottom-up, and a list's compact text is at most
 * 100 scalars, so building it costs O(items); rendering visits every node once. Recursion depth is
 * bounded by the reader's nesting limit (128).
 *
 * Browser-safe: no Node APIs.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { diagnostic } from "../syntax/codes.js";
import { DEFAULT_MAX_SOURCE_BYTES, readAll, type ReadOptions } from "../syntax/reader.js";
import type { SNode } from "../syntax/tree.js";
import { isLowSurrogate, utf16IndexOfByte } from "../diagnostics/text-positions.js";
import { trimWhiteSpace } from "../syntax/white-space.js";

/** The widest line `compact` may produce, in Unicode scalars (indent included). */
export const FORMAT_WIDTH = 100;

export type FormatResult =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly diagnostic: Diagnostic; readonly text?: string };

/** One node of the layout tree: UTF-16 offsets into the source text. */
interface LayoutNode {
  readonly from: number;
  readonly to: number;
  readonly kind: "symbol" | "string" | "list";
  readonly items: readonly LayoutNode[];
  /** The one-line rendering, or null when the node cannot be written on one line. */
  compact: string | null;
  /** Length of `compact` in Unicode scalars. */
  compactWidth: number;
}

/**
 * Format Yao source (a whole file: any number of top-level forms and comments). Refuses invalid
 * input with the reader's diagnostic. Default reader limits apply, as in the reference.
 */
export function formatSource(source: string | Uint8Array, options: ReadOptions = {}): FormatResult {
  const read = readAll(source, options);
  if (!read.ok) return read;
  const { text, forms } = read;
  const indexOfByte = utf16IndexOfByte(text);
  const roots = forms.map((f) => layoutNode(f, indexOfByte, text));
  return { ok: true, text: render(text, roots) };
}

/**
 * Formatting must never change a verdict: the formatted text of a source the reader accepts may be
 * longer than the source (indentation, line breaks), and once it passes the reader's byte limit the
 * reformatted file would fail `yao.source_limit` where the original passed. Returns that
 * diagnostic (on the original file, for a person to read) when `formatted` crosses the limit, or
 * null when it is within it. `yaoc fmt --write` and the language server refuse such a rewrite;
 * `--check` reports it.
 */
export function formattedLimitError(
  formatted: string,
  file: string,
  maxBytes: number = DEFAULT_MAX_SOURCE_BYTES,
): Diagnostic | null {
  const n = utf8Length(formatted);
  if (n <= maxBytes) return null;
  return diagnostic(
    "yao.source_limit",
    `formatting ${file} would make it ${n} bytes, more than the limit of ${maxBytes}: the formatted file would fail \`yaoc check\` where the original passes`,
    {
      file,
      hint: "split the source (move functions into functions/*.yao files) before formatting it",
    },
  );
}

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && isLowSurrogate(s.charCodeAt(i + 1))) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

function layoutNode(node: SNode, indexOfByte: Uint32Array, text: string): LayoutNode {
  const from = indexOfByte[node.span.start.byte]!;
  const to = indexOfByte[node.span.end.byte]!;
  if (node.kind !== "list") {
    const raw = text.slice(from, to);
    // §12.4: an atom's compact form is its raw slice, unless it spans lines (a block string).
    const oneLine = raw.indexOf("\n") < 0 && raw.indexOf("\r") < 0;
    return {
      from,
      to,
      kind: node.kind,
      items: [],
      compact: oneLine ? raw : null,
      compactWidth: oneLine ? scalarLength(raw) : 0,
    };
  }
  const items = node.items.map((n) => layoutNode(n, indexOfByte, text));
  const result: LayoutNode = { from, to, kind: "list", items, compact: null, compactWidth: 0 };
  computeListCompact(result, text);
  return result;
}

/** §12.4 for a list: `(` + compact items joined by single spaces + `)`, if no gap holds a comment and it fits. */
function computeListCompact(list: LayoutNode, text: string): void {
  let width = 2 + Math.max(0, list.items.length - 1);
  for (const item of list.items) {
    if (item.compact === null) return;
    width += item.compactWidth;
    if (width > FORMAT_WIDTH) return;
  }
  let at = list.from + 1;
  for (const item of list.items) {
    if (hasComment(text, at, item.from)) return;
    at = item.to;
  }
  if (hasComment(text, at, list.to - 1)) return;
  list.compact = `(${list.items.map((i) => i.compact).join(" ")})`;
  list.compactWidth = width;
}

/** A gap holds only whitespace and comments, so any `;` in it starts a comment. */
function hasComment(text: string, from: number, to: number): boolean {
  const i = text.indexOf(";", from);
  return i >= 0 && i < to;
}

function scalarLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && isLowSurrogate(s.charCodeAt(i + 1))) {
      n--;
      i++;
    }
  }
  return n;
}

class Output {
  private readonly parts: string[] = [];
  private last = "";

  write(s: string): void {
    if (s.length === 0) return;
    this.parts.push(s);
    this.last = s;
  }
  get empty(): boolean {
    return this.parts.length === 0;
  }
  endsWithLf(): boolean {
    return this.last.endsWith("\n");
  }
  /** Start a new line unless already at one (nothing to do on empty output). */
  ensureLf(): void {
    if (!this.empty && !this.endsWithLf()) this.write("\n");
  }
  toString(): string {
    return this.parts.join("");
  }
}

function spaces(n: number): string {
  return " ".repeat(n);
}

/**
 * §12.3: the comments of a gap, each on its own line at `indent`, trimmed; blank lines dropped.
 * Lines split on LF (a trailing CR is whitespace and trimmed away with the rest).
 */
function emitComments(out: Output, text: string, from: number, to: number, indent: number): void {
  if (!hasComment(text, from, to)) return;
  for (const line of text.slice(from, to).split("\n")) {
    const trimmed = trimWhiteSpace(line);
    if (!trimmed.startsWith(";")) continue;
    out.ensureLf();
    out.write(`${spaces(indent) + trimmed}\n`);
  }
}

/** §12.1–2: every top-level form after its comments, each followed by LF, then trailing comments. */
function render(text: string, roots: readonly LayoutNode[]): string {
  const out = new Output();
  let at = 0;
  for (const form of roots) {
    emitComments(out, text, at, form.from, 0);
    out.ensureLf();
    renderNode(out, text, form, 0);
    out.write("\n");
    at = form.to;
  }
  emitComments(out, text, at, text.length, 0);
  return out.toString();
}

/** §12.5. */
function renderNode(out: Output, text: string, node: LayoutNode, indent: number): void {
  if (node.compact !== null && node.compactWidth + indent <= FORMAT_WIDTH) {
    out.write(node.compact);
    return;
  }
  if (node.kind !== "list") {
    out.write(text.slice(node.from, node.to));
    return;
  }
  const inner = indent + 2;
  out.write("(");
  let at = node.from + 1;
  node.items.forEach((item, i) => {
    emitComments(out, text, at, item.from, inner);
    const inline = !hasComment(text, at, item.from) && (i === 0 || (i === 1 && item.kind === "symbol"));
    if (inline) {
      if (i !== 0) out.write(" ");
    } else {
      if (!out.endsWithLf()) out.write("\n");
      out.write(spaces(inner));
    }
    renderNode(out, text, item, inner);
    at = item.to;
  });
  emitComments(out, text, at, node.to - 1, inner);
  if (out.endsWithLf()) out.write(spaces(indent));
  out.write(")");
}
