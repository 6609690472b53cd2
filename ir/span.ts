/**
 * Source positions, shared by the IR shapes (`ir/`) and every stage in `src/`. This module imports
 * nothing so both layers can depend on it without depending on each other.
 *
 * Positions follow the Yao reference: `byte` is a zero-based UTF-8 offset, `line` and `column` are
 * one-based and columns count Unicode scalars (never UTF-16 units).
 */
export interface Position {
  readonly byte: number;
  readonly line: number;
  readonly column: number;
}

/** Half-open byte range `[start.byte, end.byte)`. */
export interface Span {
  readonly start: Position;
  readonly end: Position;
}

/** A span plus the file it belongs to (package-relative or as the user named it). */
export interface SourceSpan extends Span {
  readonly file: string;
}
