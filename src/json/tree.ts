/**
 * The tree the one strict JSON parser (parse.ts) produces. Spans are jsonc-parser style: `offset`
 * is the UTF-16 index of the first character and `length` the number of UTF-16 units, so a span is
 * `text.slice(offset, offset + length)`. Frontends turn offsets into line/column/byte positions
 * with `TextPositions` only where they report something.
 */

interface Spanned {
  readonly offset: number;
  readonly length: number;
}

export interface JsonTreeObject extends Spanned {
  readonly type: "object";
  /** Every member in document order, duplicates included (see `duplicateKeys`). */
  readonly members: readonly JsonTreeMember[];
}

export interface JsonTreeMember {
  readonly key: string;
  /** Span of the member name, quotes included. */
  readonly keyOffset: number;
  readonly keyLength: number;
  readonly value: JsonTree;
}

export interface JsonTreeArray extends Spanned {
  readonly type: "array";
  readonly items: readonly JsonTree[];
}

export interface JsonTreeString extends Spanned {
  readonly type: "string";
  readonly value: string;
}

export interface JsonTreeNumber extends Spanned {
  readonly type: "number";
  /**
   * `number` under `numbers: "float"`; under `numbers: "integer"` the exact integer as `bigint`.
   * The text as written is `text.slice(offset, offset + length)`.
   */
  readonly value: number | bigint;
}

export interface JsonTreeBoolean extends Spanned {
  readonly type: "boolean";
  readonly value: boolean;
}

export interface JsonTreeNull extends Spanned {
  readonly type: "null";
  readonly value: null;
}

export type JsonTree =
  | JsonTreeObject
  | JsonTreeArray
  | JsonTreeString
  | JsonTreeNumber
  | JsonTreeBoolean
  | JsonTreeNull;

/** A repeated member name found under `duplicateKeys: "report"`. */
export interface JsonDuplicate {
  readonly key: string;
  readonly keyOffset: number;
  readonly keyLength: number;
  /** Name span of the first member with this name. */
  readonly firstKeyOffset: number;
  readonly firstKeyLength: number;
  /** JSON Pointer of the object holding both members. */
  readonly objectPointer: string;
}
