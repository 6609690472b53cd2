/**
 * Types and effects as an author writes them in Yao source (`(List Int)`, `Receipt`, `(tool read)`),
 * for labels and help. Messages keep the reference's Rust `Debug` rendering (debug.ts); these
 * renderings are what the code frame shows under the caret.
 */
import type { Effect, EffectSet, YaoType } from "../../ir/yao-ir-0.1.js";
import { sortByCodePoints } from "./text.js";
import { SIMPLE_TYPE_NAMES } from "./types.js";

const SIMPLE_SOURCE = new Map([...SIMPLE_TYPE_NAMES].map(([name, t]) => [t.kind, name] as const));

export function displayType(t: YaoType): string {
  switch (t.kind) {
    case "list":
      return `(List ${displayType(t.value)})`;
    case "map":
      return `(Map ${displayType(t.value)})`;
    case "option":
      return `(Option ${displayType(t.value)})`;
    case "result":
      return `(Result ${displayType(t.value.ok)} ${displayType(t.value.error)})`;
    case "ref":
      return `(Ref ${t.value})`;
    case "named":
      return t.value;
    case "structural_record":
      return `{${sortByCodePoints(t.value.keys())
        .map((k) => `${k} ${displayType(t.value.get(k)!)}`)
        .join(", ")}}`;
    case "program":
      return `(Program ${displayType(t.value.output)} ${displayEffects(t.value.effects)})`;
    default:
      return SIMPLE_SOURCE.get(t.kind) ?? t.kind;
  }
}

export function displayEffect(e: Effect): string {
  switch (e.kind) {
    case "infer":
      return "infer";
    case "tool":
      return `(tool ${e.name})`;
    case "host":
      return `(host ${e.name})`;
    case "program":
      return `(program ${e.name.map(displayEffect).join(" ")})`;
  }
}

/** The effects one after another, for "this uses (tool read) (host x)". */
export function displayEffectList(set: EffectSet): string {
  return set.length === 0 ? "no effects" : set.map(displayEffect).join(" ");
}

export function displayEffects(set: EffectSet): string {
  return set.length === 0 ? "(effects)" : `(effects ${set.map(displayEffect).join(" ")})`;
}
