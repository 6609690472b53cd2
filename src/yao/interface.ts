/**
 * The model-visible view of a package (yao-v0.1.md §7.5): body-free interfaces of exported
 * functions plus the shared `(types ...)`. Internal functions and bodies never appear.
 */
import { canonicalSource } from "../canonical/typed.js";
import type { SNode } from "../syntax/tree.js";
import { withoutBodyClauses } from "../syntax/header.js";

/** The function's canonical text with every `(body ...)` clause removed, other clauses in source order. */
export function interfaceSource(fn: SNode): string {
  return canonicalSource(fn.kind === "list" ? withoutBodyClauses(fn) : fn);
}

function isExported(fn: SNode): boolean {
  return (
    fn.kind === "list" &&
    fn.items.some(
      (c) =>
        c.kind === "list" &&
        c.items.length === 2 &&
        c.items[0]?.kind === "symbol" &&
        c.items[0].name === "visibility" &&
        c.items[1]?.kind === "symbol" &&
        c.items[1].name === "exported",
    )
  );
}

/**
 * `(evaluation-profile (types ...) (fn ...)...)`. The reference's exact encoder was not located
 * (gap G1), so this layout is ours: shared types first, then exported interfaces in name order.
 */
export function evaluationProfile(typeSource: SNode | undefined, functions: readonly SNode[]): string {
  const parts: string[] = [];
  if (typeSource !== undefined) parts.push(canonicalSource(typeSource));
  const exported = functions.filter(isExported).map((f) => ({ name: fnName(f), text: interfaceSource(f) }));
  exported.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of exported) parts.push(e.text);
  return parts.length === 0 ? "(evaluation-profile none)" : `(evaluation-profile ${parts.join(" ")})`;
}

function fnName(fn: SNode): string {
  return fn.kind === "list" && fn.items[1]?.kind === "symbol" ? fn.items[1].name : "";
}
