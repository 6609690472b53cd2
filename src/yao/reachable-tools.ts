/**
 * Every tool a function, a program or a type can reach (HNS §9.2, §14): `(tool T)` effects at the
 * top level, inside `(program …)` effects at any depth, and inside the `Program` types of values
 * (parameters, results, fields of named types). The reference looks only at top-level tool effects
 * (quirk Q13); the seed's MUST ("every Function's transitively reachable Tool effects") covers all of
 * them, so a package cannot hand a function a program that runs a tool its entry never granted.
 *
 * Each walk is iterative and visits every effect set and type node once (named types once per
 * walk), so it is linear in the size of what it reads.
 */
import type { EffectSet, YaoType } from "../../ir/yao-ir-0.1.js";
import type { TypeTable } from "./type-module.js";

/** Where a reachable tool was found, for the diagnostic's label. */
export type ToolRoute = "call" | "program";

export interface ReachedTool {
  readonly tool: string;
  readonly route: ToolRoute;
}

/** Tools of an effect set in effect order: top-level ones first (the reference's), then nested ones. */
export function toolsOfEffects(effects: EffectSet): ReachedTool[] {
  const out: ReachedTool[] = [];
  const nested: EffectSet[] = [];
  for (const e of effects) {
    if (e.kind === "tool") out.push({ tool: e.name, route: "call" });
    else if (e.kind === "program") nested.push(e.name);
  }
  for (let i = 0; i < nested.length; i++) {
    for (const e of nested[i]!) {
      if (e.kind === "tool") out.push({ tool: e.name, route: "program" });
      else if (e.kind === "program") nested.push(e.name);
    }
  }
  return out;
}

/** Tools a value of type `ty` can run: the effects of every `Program` type inside it. */
export function toolsOfType(ty: YaoType, types: TypeTable): string[] {
  const out: string[] = [];
  const seenNamed = new Set<string>();
  const stack: YaoType[] = [ty];
  while (stack.length > 0) {
    const t = stack.pop()!;
    switch (t.kind) {
      case "list":
      case "map":
      case "option":
        stack.push(t.value);
        break;
      case "structural_record":
        for (const v of t.value.values()) stack.push(v);
        break;
      case "result":
        stack.push(t.value.ok, t.value.error);
        break;
      case "program":
        stack.push(t.value.output);
        for (const r of toolsOfEffects(t.value.effects)) out.push(r.tool);
        break;
      case "named": {
        if (seenNamed.has(t.value)) break;
        seenNamed.add(t.value);
        const def = types.get(t.value);
        if (def === undefined) break;
        if (def.kind === "record") for (const f of def.fields) stack.push(f.ty);
        else for (const v of def.variants) for (const f of v.fields) stack.push(f.ty);
        break;
      }
      default:
        break;
    }
  }
  return out;
}
