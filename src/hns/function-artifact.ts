/**
 * `(fn …)` artifacts at load level (HNS §9.4; loader reference §6): the loader's checks on the header
 * that src/syntax/header.ts recognises (name, visibility, one body), worded with `hns.*` codes, and the
 * canonical texts printed once for the identity and the analyzer.
 */
import { canonicalSource, canonicalSourceWithout } from "../canonical/typed.js";
import type { SNode } from "../syntax/tree.js";
import { isBodyClause, recogniseFnHeader } from "../syntax/header.js";
import type { LoadContext } from "./context.js";
import type { HnsFunction } from "./model.js";

export function parseFunctionArtifact(form: SNode, file: string, ctx: LoadContext): HnsFunction {
  const r = recogniseFnHeader(form);
  if (!r.ok) {
    const f = r.failure;
    if (f.kind === "not_list") ctx.failAt("hns.malformed_fn", "HNS function artifact must be an (fn ...) list", form);
    if (f.kind === "not_fn") ctx.failAt("hns.malformed_fn", "HNS function artifact must have an (fn ...) root", form);
    return ctx.failAt(
      "hns.malformed_fn",
      "HNS fn declaration is missing its name",
      f.node,
      "write (fn NAME (params …) (returns TYPE) (body EXPR))",
    );
  }
  const header = r.header;
  const name = header.name;
  let visibility: HnsFunction["visibility"] = "internal";
  let seenVisibility = false;
  let bodies = 0;
  for (const clause of header.clauses) {
    if (clause.name === "visibility") {
      if (seenVisibility)
        ctx.failAt("hns.malformed_fn", `HNS fn '${name}' declares visibility more than once`, clause.node);
      seenVisibility = true;
      const value = clause.args[0];
      if (
        clause.args.length !== 1 ||
        value?.kind !== "symbol" ||
        (value.name !== "internal" && value.name !== "exported")
      ) {
        ctx.failAt(
          "hns.malformed_fn",
          `HNS fn '${name}' visibility must be internal or exported`,
          clause.node,
          "write (visibility internal) or (visibility exported)",
          {
            label: "not internal or exported",
          },
        );
      }
      visibility = value.name as HnsFunction["visibility"];
    } else if (clause.name === "body") {
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
  // The body-free interface (§7.5) is printed only when it is read (a check never reads it; it
  // was half of what printing functions allocated, descriptions included: issue 29, figure n),
  // then from the same walk as the whole text, so its clauses are not printed a second time.
  let interfaceText: string | undefined;
  return {
    name,
    visibility,
    source: canonicalSource(header.form),
    get interfaceSource(): string {
      interfaceText ??= canonicalSourceWithout(header.form, isBodyClause).without;
      return interfaceText;
    },
    form,
    header,
    file,
  };
}
