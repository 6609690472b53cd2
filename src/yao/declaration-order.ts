/**
 * Declarations out of their place (issue 34, item 5): the entry header reads `(requires …)` then
 * `(types …)`, and `infer` reads `(captures …)` then `(returns …)`, before exactly one body. Anything
 * after that is read as a second body, and the reference says "use seq". When the second "body" is
 * really a declaration out of its order (or a second copy of one), that declaration is the cause:
 * this says so, with the order, while the reference's wording is kept for differential tests. The
 * error stays at the whole form, where the reference puts it: the loader reports a misplaced
 * (requires …) there too (hns.missing_requires), and one cause is reported once (src/check/hns.ts
 * drops an analysis error at the place of a loader error); a note points at the declaration.
 */
import { fail } from "./error.js";
import type { SNode, SourceSpan } from "../syntax/tree.js";

const ORDER = {
  eval: { heads: ["requires", "types"], shape: "(eval (requires …) (types …) BODY)" },
  infer: {
    heads: ["requires", "types", "captures", "returns"],
    shape: "(infer (requires …) (types …) (captures …) (returns …) BODY)",
  },
  /** An infer inside a program declares only what it captures and returns. */
  "inner infer": { heads: ["captures", "returns"], shape: "(infer (captures …) (returns …) BODY)" },
} as const;

function headOf(n: SNode | undefined): string | undefined {
  return n?.kind === "list" && n.items[0]?.kind === "symbol" ? n.items[0].name : undefined;
}

/**
 * Throw the declaration-order error when `items` (the form's items after its head) hold a
 * declaration after the body or out of its order; return when they do not (the caller then reports
 * the reference's "exactly one body" error as it is).
 */
export function failOnMisplacedDeclaration(
  form: keyof typeof ORDER,
  span: SourceSpan,
  items: readonly SNode[],
  reference: string,
): void {
  const order = ORDER[form];
  const heads: readonly string[] = order.heads;
  if (form === "inner infer") {
    // (requires …) and (types …) are the program's header; inside, they are not declarations at all.
    const header = items.find((n) => headOf(n) === "requires" || headOf(n) === "types");
    if (header !== undefined) {
      const head = headOf(header)!;
      fail("invalid_type", { text: `(${head} …) cannot be declared in an infer inside a program`, reference }, span, {
        label: `this infer is inside a program, so (${head} …) is read as a second body`,
        hint: `declare (${head} …) once, in the program's header: (eval (requires …) (types …) BODY); an inner infer declares only ${ORDER["inner infer"].shape}. See docs/language.md, "Where declarations go"`,
        related: [{ span: header.span, message: `this (${head} …) belongs in the (eval …) header` }],
      });
    }
  }
  for (let i = 0; i < items.length; i++) {
    const head = headOf(items[i]);
    if (head === undefined || !heads.includes(head)) continue;
    const earlier = items.slice(0, i);
    const twice = earlier.find((n) => headOf(n) === head);
    const see = 'See docs/language.md, "Where declarations go"';
    if (twice !== undefined)
      fail(
        "invalid_type",
        { text: `(${head} …) is declared twice in this ${form === "eval" ? "eval" : "infer"}`, reference },
        span,
        {
          label: `a second (${head} …) is read as a second body`,
          hint: `put everything in the first (${head} …): ${order.shape}. ${see}`,
          related: [
            { span: twice.span, message: `the first (${head} …)` },
            { span: items[i]!.span, message: `the second (${head} …)` },
          ],
        },
      );
    if (i === 0) continue;
    const before = headOf(items[i - 1]);
    const declared = before !== undefined && heads.includes(before);
    // After a declaration that comes before it in the order: in its place, not the cause.
    if (declared && heads.indexOf(before) < heads.indexOf(head)) continue;
    const after = declared ? `(${before} …)` : "the body";
    fail("invalid_type", { text: `(${head} …) is out of its place: it must come before ${after}`, reference }, span, {
      label: `(${head} …) comes after ${after}, so it is read as a second body`,
      hint: `declarations come first, in this order: ${order.shape}; move (${head} …) before ${after}. ${see}`,
      related: [{ span: items[i]!.span, message: `this (${head} …) belongs before ${after}` }],
    });
  }
}
