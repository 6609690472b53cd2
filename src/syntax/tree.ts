/**
 * The S-expression tree the Yao reader produces. Strings and symbols stay distinct (the typed view);
 * the legacy metadata view that conflates them lives in src/canonical/legacy.ts.
 */
import type { SourceSpan } from "../../ir/span.js";

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
