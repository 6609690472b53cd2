/**
 * A message in two wordings: `text` in Yao notation (`Ticket`, `(List Int)`, `(effects (tool read))`),
 * what every person reads, and `reference`, the reference implementation's exact wording with its Rust
 * `Debug` forms (`Named("Ticket")`, `EffectSet({Tool("read")})`), kept for the differential tests
 * (`reference_message` in JSON). Build one with the `worded` template and the `type`/`effects` parts.
 */
import type { EffectSet, YaoType } from "../../ir/yao-ir-0.1.js";
import { debugEffects, debugType } from "./debug.js";
import { displayEffects, displayType } from "./type-display.js";

export interface Worded {
  readonly text: string;
  readonly reference: string;
}

export function typePart(t: YaoType): Worded {
  return { text: displayType(t), reference: debugType(t) };
}

export function effectsPart(set: EffectSet): Worded {
  return { text: displayEffects(set), reference: debugEffects(set) };
}

/** `worded\`expected ${typePart(a)}, found ${typePart(b)}\``: both wordings at once. */
export function worded(strings: TemplateStringsArray, ...parts: readonly (Worded | string | number)[]): Worded {
  let text = strings[0]!;
  let reference = strings[0]!;
  parts.forEach((p, i) => {
    const tail = strings[i + 1]!;
    text += (typeof p === "object" ? p.text : String(p)) + tail;
    reference += (typeof p === "object" ? p.reference : String(p)) + tail;
  });
  return { text, reference };
}
