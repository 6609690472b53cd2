/**
 * Reference-JSON helpers for the ACL document tree; the tree types themselves live in
 * grammar/acl-ast.ts (below both the grammar and this frontend) and are re-exported here.
 */
import type { AclBlock, AclValue } from "../../../grammar/acl-ast.js";

export type { AclAttribute, AclBlock, AclLabel, AclRange, AclValue } from "../../../grammar/acl-ast.js";

/** The reference harness's JSON shape for a value (`acl-0.2.2-parse-cases.json`). */
export function valueToReferenceJson(v: AclValue): unknown {
  switch (v.kind) {
    case "string":
      return { string: v.value };
    case "number":
      return { number: Number.isFinite(v.value) ? v.value : v.value > 0 ? "inf" : "-inf" };
    case "bool":
      return { bool: v.value };
    case "null":
      return { null: true };
    case "list":
      return { list: v.items.map(valueToReferenceJson) };
    case "object": {
      const o: Record<string, unknown> = {};
      for (const e of v.entries) o[e.name] = valueToReferenceJson(e.value);
      return { object: o };
    }
    case "call":
      return { call: { name: v.name, args: v.args.map(valueToReferenceJson) } };
  }
}

export function blockToReferenceJson(b: AclBlock): unknown {
  const attributes: Record<string, unknown> = {};
  for (const [k, a] of b.attributes) attributes[k] = valueToReferenceJson(a.value);
  return {
    name: b.name,
    labels: b.labels.map((l) => l.value),
    attributes,
    blocks: b.blocks.map(blockToReferenceJson),
  };
}
