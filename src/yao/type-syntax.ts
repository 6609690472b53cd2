/**
 * Type and effect syntax (yao-v0.1.md §3.1). Parsing does not check that named types exist; that is
 * `validateTypeNames` in type-module.ts, which some positions run and `is` (quirk Q7) used to skip.
 */
import type { Effect, EffectSet, YaoType } from "../../ir/yao-ir-0.1.js";
import type { SNode } from "../syntax/tree.js";
import { fail } from "./error.js";
import { isIdentifier } from "./text.js";
import { compareEffects, effectEquals, effectSet, SIMPLE_TYPE_NAMES, T } from "./types.js";
import { didYouMean } from "../diagnostics/suggest.js";
import { TYPE_DOCS } from "./forms.js";

/** The help for a type constructor written wrongly: how the language table writes it, with an example. */
function writeItAs(c: string, example: string): { hint: string } {
  return { hint: `write it as ${TYPE_DOCS.get(c)!.signature}, e.g. ${example}` };
}

const TYPE_EXAMPLES: Readonly<Record<string, string>> = {
  List: "(List Int)",
  Map: "(Map String)",
  Option: "(Option Int)",
  Ref: "(Ref Context)",
  Result: "(Result Int String)",
  Program: "(Program String (effects (tool read)))",
};

const EFFECT_KINDS_HINT = "an effect is (tool NAME), (host OPERATION), (program EFFECT…) or infer";

const TYPE_CONSTRUCTORS = ["List", "Map", "Option", "Result", "Ref", "Program"];

export function parseType(node: SNode): YaoType {
  if (node.kind === "string") fail("type_mismatch", "type must be a symbol or parameterized list", node.span);
  if (node.kind === "symbol") {
    const simple = SIMPLE_TYPE_NAMES.get(node.name);
    if (simple !== undefined) return simple;
    if (isIdentifier(node.name)) return T.named(node.name);
    fail("invalid_type", `invalid type '${node.name}'`, node.span);
  }
  const [head, ...args] = node.items;
  if (head === undefined || head.kind !== "symbol") {
    fail("invalid_type", "parameterized type has no constructor", node.span);
  }
  const c = head.name;
  switch (c) {
    case "List":
    case "Map":
    case "Option":
    case "Ref": {
      if (args.length !== 1)
        fail("invalid_type", `${c} requires one type argument`, node.span, writeItAs(c, TYPE_EXAMPLES[c]!));
      const arg = args[0]!;
      if (c === "Ref") {
        if (arg.kind !== "symbol") fail("unknown_name", "Ref kind must be a symbol", arg.span);
        return T.ref(arg.name);
      }
      const inner = parseType(arg);
      return c === "List" ? T.list(inner) : c === "Map" ? T.map(inner) : T.option(inner);
    }
    case "Result":
      if (args.length !== 2)
        fail("invalid_type", "Result requires success and error types", node.span, writeItAs(c, TYPE_EXAMPLES[c]!));
      return T.result(parseType(args[0]!), parseType(args[1]!));
    case "Program": {
      if (args.length !== 2)
        fail(
          "invalid_type",
          "Program requires output type and (effects ...)",
          node.span,
          writeItAs(c, TYPE_EXAMPLES[c]!),
        );
      const output = parseType(args[0]!);
      const effects = args[1]!;
      if (effects.kind !== "list")
        fail("type_mismatch", "Program effects must be a list", effects.span, writeItAs(c, TYPE_EXAMPLES[c]!));
      const eh = effects.items[0];
      if (eh === undefined || eh.kind !== "symbol" || eh.name !== "effects") {
        fail(
          "invalid_type",
          "Program second argument must be (effects ...)",
          effects.span,
          writeItAs(c, TYPE_EXAMPLES[c]!),
        );
      }
      return T.program(output, parseEffectList(effects.items.slice(1)));
    }
    default:
      fail("invalid_type", `unknown type constructor '${c}'`, head.span, {
        label: "not a type constructor",
        hint:
          c === "record" || c === "union"
            ? `the type constructors are List, Map, Option, Result, Ref and Program; declare a ${c} by name in (types (${c} NAME …)) and write NAME here`
            : `the type constructors are List, Map, Option, Result, Ref and Program${didYouMean(c, TYPE_CONSTRUCTORS) === undefined ? "" : `; ${didYouMean(c, TYPE_CONSTRUCTORS)}`}`,
      });
  }
}

/** The items of an `(effects ...)` clause (or of a nested `(program ...)` effect). */
export function parseEffectList(items: readonly SNode[]): EffectSet {
  const seen: Effect[] = [];
  for (const item of items) {
    const e = parseEffect(item);
    if (seen.some((s) => effectEquals(s, e))) fail("duplicate_name", "duplicate effect declaration", item.span);
    seen.push(e);
  }
  return effectSet(seen.sort(compareEffects));
}

function parseEffect(node: SNode): Effect {
  if (node.kind !== "list") {
    if (node.kind === "symbol" && node.name === "infer") return { kind: "infer" };
    fail("type_mismatch", "effect must be infer or a list", node.span, EFFECT_KINDS_HINT);
  }
  const [head, ...args] = node.items;
  if (head === undefined || head.kind !== "symbol")
    fail("invalid_type", "effect list has no kind", node.span, EFFECT_KINDS_HINT);
  switch (head.name) {
    case "tool":
    case "host": {
      if (args.length !== 1)
        fail(
          "invalid_type",
          `${head.name} effect requires one name`,
          node.span,
          `write it as (${head.name} NAME), e.g. ${head.name === "tool" ? "(tool read)" : "(host evidence.commit)"}`,
        );
      const name = args[0]!;
      if (name.kind !== "symbol") fail("unknown_name", "effect name must be a symbol", name.span);
      return { kind: head.name, name: name.name };
    }
    case "program":
      return { kind: "program", name: parseEffectList(args) };
    default:
      fail("invalid_type", `unknown effect kind '${head.name}'`, head.span, {
        label: "not an effect kind",
        hint: `${EFFECT_KINDS_HINT}${didYouMean(head.name, ["tool", "host", "program"]) === undefined ? "" : `; ${didYouMean(head.name, ["tool", "host", "program"])}`}`,
      });
  }
}
