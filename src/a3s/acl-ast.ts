/**
 * The ACL document tree shared by the strict parser (grammar/acl.ts) and the reference emulation
 * (acl-reference.ts). Offsets are UTF-16 indices into the source text, half-open; `TextPositions` (src/diagnostics/text-positions.ts)
 * turns them into diagnostic spans.
 */

export interface AclRange {
  readonly start: number;
  readonly end: number;
}

export type AclValue =
  | ({ readonly kind: "string"; readonly value: string; readonly bare: boolean } & AclRange)
  | ({ readonly kind: "number"; readonly value: number; readonly text: string } & AclRange)
  | ({ readonly kind: "bool"; readonly value: boolean } & AclRange)
  | ({ readonly kind: "null" } & AclRange)
  | ({ readonly kind: "list"; readonly items: readonly AclValue[] } & AclRange)
  | ({ readonly kind: "object"; readonly entries: readonly AclAttribute[] } & AclRange)
  | ({ readonly kind: "call"; readonly name: string; readonly args: readonly AclValue[] } & AclRange);

export interface AclAttribute {
  readonly name: string;
  /** Range of the attribute name. */
  readonly nameRange: AclRange;
  readonly value: AclValue;
}

export interface AclLabel extends AclRange {
  readonly value: string;
}

export interface AclBlock {
  readonly name: string;
  /** Range of the block name (where diagnostics about the block point). */
  readonly nameRange: AclRange;
  readonly labels: readonly AclLabel[];
  /** Later duplicates replace earlier ones, as in the reference's HashMap; insertion order kept. */
  readonly attributes: ReadonlyMap<string, AclAttribute>;
  readonly blocks: readonly AclBlock[];
}

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
