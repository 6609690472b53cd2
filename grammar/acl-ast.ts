/**
 * The ACL document tree shared by the strict parser (grammar/acl.ts) and the reference emulation
 * (src/a3s/acl/reference-emulation.ts). It lives beside the grammar so the parser does not import from
 * `src/a3s`; src/a3s/acl/ast.ts re-exports it with the reference-JSON helpers. Offsets are UTF-16
 * indices into the source text, half-open; `TextPositions` (src/diagnostics/text-positions.ts)
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
