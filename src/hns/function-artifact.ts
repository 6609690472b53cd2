/** `(fn …)` artifacts at load level (HNS §9.4; loader reference §6): header checks and sources. */
import { canonicalSource } from "../canonical/typed.js";
import { headName, type SList, type SNode } from "../syntax/tree.js";
import type { LoadContext } from "./context.js";
import type { HnsFunction } from "./model.js";

export function parseFunctionArtifact(form: SNode, file: string, ctx: LoadContext): HnsFunction {
  if (form.kind !== "list") ctx.failAt("hns.malformed_fn", "HNS function artifact must be an (fn ...) list", form);
  if (headName(form) !== "fn") ctx.failAt("hns.malformed_fn", "HNS function artifact must have an (fn ...) root", form);
  const nameNode = form.items[1];
  if (nameNode === undefined || nameNode.kind !== "symbol") {
    ctx.failAt(
      "hns.malformed_fn",
      "HNS fn declaration is missing its name",
      nameNode ?? form,
      "write (fn NAME (params …) (returns TYPE) (body EXPR))",
    );
  }
  const name = nameNode.name;
  let visibility: HnsFunction["visibility"] = "internal";
  let seenVisibility = false;
  let bodies = 0;
  for (const child of form.items) {
    const head = headName(child);
    if (head === "visibility") {
      if (seenVisibility) ctx.failAt("hns.malformed_fn", `HNS fn '${name}' declares visibility more than once`, child);
      seenVisibility = true;
      const list = child as SList;
      const value = list.items[1];
      if (
        list.items.length !== 2 ||
        value?.kind !== "symbol" ||
        (value.name !== "internal" && value.name !== "exported")
      ) {
        ctx.failAt(
          "hns.malformed_fn",
          `HNS fn '${name}' visibility must be internal or exported`,
          child,
          "write (visibility internal) or (visibility exported)",
          {
            label: "not internal or exported",
          },
        );
      }
      visibility = value.name as HnsFunction["visibility"];
    } else if (head === "body") {
      bodies++;
    }
  }
  if (bodies !== 1) {
    ctx.failAt(
      "hns.malformed_fn",
      `HNS fn '${name}' must contain exactly one (body EXPR) clause`,
      form,
      bodies === 0
        ? "add (body EXPR) with the function's one Yao expression"
        : "keep one (body …); use (seq …) for several steps",
      {
        label: bodies === 0 ? "no (body …) clause" : `${bodies} (body …) clauses`,
      },
    );
  }
  // Not a spread of `form`: a read node's span is a getter on its prototype, which a spread drops.
  const withoutBody: SList = { kind: "list", items: form.items.filter((c) => headName(c) !== "body"), span: form.span };
  return {
    name,
    visibility,
    source: canonicalSource(form),
    interfaceSource: canonicalSource(withoutBody),
    form,
    file,
  };
}
