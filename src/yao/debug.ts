/**
 * The reference renders types and effects in diagnostics with Rust's `Debug` (yao-v0.1.md §3.8).
 * Messages must match byte for byte, so this is that rendering, not a friendlier one.
 */
import type { Effect, EffectSet, YaoType } from "../../ir/yao-ir-0.1.js";
import { sortByCodePoints } from "./text.js";

const SIMPLE_DEBUG: Record<string, string> = {
  nil: "Nil",
  bool: "Bool",
  int: "Int",
  float: "Float",
  string: "String",
  bytes: "Bytes",
  json: "Json",
  evidence_candidate: "EvidenceCandidate",
  outcome_candidate: "OutcomeCandidate",
  context_transaction: "ContextTransaction",
};

/** Rust `{:?}` of a string. */
export function debugString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c === 0) out += "\\0";
    else if (c < 0x20 || (c >= 0x7f && c < 0xa0)) out += `\\u{${c.toString(16)}}`;
    else out += ch;
  }
  return `${out}"`;
}

export function debugType(t: YaoType): string {
  switch (t.kind) {
    case "list":
      return `List(${debugType(t.value)})`;
    case "map":
      return `Map(${debugType(t.value)})`;
    case "option":
      return `Option(${debugType(t.value)})`;
    case "result":
      return `Result { ok: ${debugType(t.value.ok)}, error: ${debugType(t.value.error)} }`;
    case "ref":
      return `Ref(${debugString(t.value)})`;
    case "named":
      return `Named(${debugString(t.value)})`;
    case "structural_record": {
      const parts = sortByCodePoints(t.value.keys()).map((k) => `${debugString(k)}: ${debugType(t.value.get(k)!)}`);
      return `StructuralRecord({${parts.join(", ")}})`;
    }
    case "program":
      return `Program { output: ${debugType(t.value.output)}, effects: ${debugEffects(t.value.effects)} }`;
    default:
      return SIMPLE_DEBUG[t.kind]!;
  }
}

export function debugEffect(e: Effect): string {
  switch (e.kind) {
    case "infer":
      return "Infer";
    case "tool":
      return `Tool(${debugString(e.name)})`;
    case "host":
      return `Host(${debugString(e.name)})`;
    case "program":
      return `Program(${debugEffects(e.name)})`;
  }
}

export function debugEffects(set: EffectSet): string {
  return `EffectSet({${set.map(debugEffect).join(", ")}})`;
}

/** A Rust `BTreeSet<String>` rendering: `{"Context", "Objective"}`. */
export function debugNameSet(names: Iterable<string>): string {
  return `{${sortByCodePoints(names).map(debugString).join(", ")}}`;
}
