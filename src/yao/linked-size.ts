/**
 * Size of the statically linked HIR (yao-v0.1.md §8): every node of the final tree, with each
 * application's embedded callee body counted once per application. Bodies are shared objects, so
 * the count is memoised per node (linear in distinct nodes) and walked with an explicit stack.
 */
import type { HirExpr } from "../../ir/yao-ir-0.1.js";
import { hirChildren } from "./hir-children.js";

export const MAX_LINKED_NODES = 4096;

/** Saturates at MAX_SAFE_INTEGER: linked trees can be exponential in the number of functions. */
export function countLinkedNodes(root: HirExpr): number {
  const memo = new Map<HirExpr, number>();
  const stack: { e: HirExpr; expanded: boolean }[] = [{ e: root, expanded: false }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (memo.has(top.e)) {
      stack.pop();
      continue;
    }
    const kids = hirChildren(top.e);
    if (!top.expanded) {
      top.expanded = true;
      for (const c of kids) if (!memo.has(c)) stack.push({ e: c, expanded: false });
      continue;
    }
    stack.pop();
    let total = 1;
    for (const c of kids) total = Math.min(total + memo.get(c)!, Number.MAX_SAFE_INTEGER);
    memo.set(top.e, total);
  }
  return memo.get(root)!;
}
