/**
 * `(fn …)` artifacts at load level (HNS §9.4; loader reference §6): the loader's checks on the header
 * that src/syntax/header.ts recognises (name, visibility, one body), worded with `hns.*` codes, and the
 * canonical texts printed once for the identity and the analyzer.
 */
import { canonicalSource, canonicalSourceWithout } from "../canonical/typed.js";
import type { SNode } from "../syntax/tree.js";
import { type FnHeader, isBodyClause, recogniseFnHeader } from "../syntax/header.js";
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
  return new LoadedFunction(name, visibility, canonicalSource(header.form), form, header, file);
}

/**
 * A loaded `(fn …)`. A class, not an object literal with a getter: a literal's getter is a new
 * closure each time, so every function got a map of its own, and V8 holds new maps from the old
 * map they came from. A scavenge keeps whatever such a map reaches, and the closure reached the
 * whole tree: each check's tree, source and canonical texts lived in the old generation until the
 * next full collection (about 1 MiB per check of the bench's 256 KiB package; issue 29, figure n).
 */
class LoadedFunction implements HnsFunction {
  #interfaceText: string | undefined = undefined;

  constructor(
    readonly name: string,
    readonly visibility: HnsFunction["visibility"],
    readonly source: string,
    readonly form: SNode,
    readonly header: FnHeader,
    readonly file: string,
  ) {}

  /**
   * The body-free interface (§7.5), printed only when it is read (a check never reads it; it was
   * half of what printing functions allocated, descriptions included: issue 29, figure n), then
   * from the same walk as the whole text, so its clauses are not printed a second time.
   */
  get interfaceSource(): string {
    this.#interfaceText ??= canonicalSourceWithout(this.header.form, isBodyClause).without;
    return this.#interfaceText;
  }
}
