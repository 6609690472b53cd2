/**
 * The typed Yao IR (the reference's HIR), version 0.1. These are the in-memory shapes; their JSON
 * encoding is described by `yao-ir-0.1.schema.json` and written by `src/yao/ir-json.ts` with the exact
 * key order of yao-v0.1.md §9, so `program_hash` matches the reference byte for byte.
 *
 * Key/value objects of the JSON (the `types` table, structural-record fields) are Maps here: field names
 * such as `__proto__` are legal identifiers and must not touch a prototype.
 */
import type { SourceSpan } from "./span.js";

export const YAO_LANGUAGE_VERSION = "0.1";

export type SimpleTypeKind =
  | "nil"
  | "bool"
  | "int"
  | "float"
  | "string"
  | "bytes"
  | "json"
  | "evidence_candidate"
  | "outcome_candidate"
  | "context_transaction";

export type YaoType =
  | { readonly kind: SimpleTypeKind }
  | { readonly kind: "list" | "map" | "option"; readonly value: YaoType }
  | { readonly kind: "structural_record"; readonly value: ReadonlyMap<string, YaoType> }
  | { readonly kind: "result"; readonly value: { readonly ok: YaoType; readonly error: YaoType } }
  | { readonly kind: "ref"; readonly value: string }
  | { readonly kind: "program"; readonly value: { readonly output: YaoType; readonly effects: EffectSet } }
  | { readonly kind: "named"; readonly value: string };

export type Effect =
  | { readonly kind: "infer" }
  | { readonly kind: "tool" | "host"; readonly name: string }
  | { readonly kind: "program"; readonly name: EffectSet };

/** Ordered (yao-v0.1.md §6.1) and duplicate-free. */
export type EffectSet = readonly Effect[];

export interface FieldDefinition {
  readonly name: string;
  readonly ty: YaoType;
  readonly span: SourceSpan;
}

export interface VariantDefinition {
  readonly name: string;
  readonly fields: readonly FieldDefinition[];
  readonly span: SourceSpan;
}

export type TypeDefinition =
  | {
      readonly kind: "record";
      readonly name: string;
      readonly fields: readonly FieldDefinition[];
      readonly span: SourceSpan;
    }
  | {
      readonly kind: "union";
      readonly name: string;
      readonly variants: readonly VariantDefinition[];
      readonly span: SourceSpan;
    };

export type Literal =
  | { readonly kind: "nil" }
  | { readonly kind: "bool"; readonly value: boolean }
  /** Any i64, kept exact. */
  | { readonly kind: "int"; readonly value: bigint }
  /** The exact source spelling (`2.50` stays `2.50`). */
  | { readonly kind: "float"; readonly value: string }
  | { readonly kind: "string"; readonly value: string };

export interface NamedArgument {
  readonly name: string;
  readonly values: readonly HirExpr[];
  readonly span: SourceSpan;
}

export interface MatchBinding {
  readonly field: string;
  readonly binding: string;
}

export interface MatchCase {
  readonly variant: string;
  readonly bindings: readonly MatchBinding[];
  readonly body: HirExpr;
  readonly span: SourceSpan;
}

export interface ParBranch {
  readonly name: string;
  readonly body: HirExpr;
  readonly span: SourceSpan;
}

export type PureOperator =
  | "equal"
  | "not_equal"
  | "less"
  | "less_equal"
  | "greater"
  | "greater_equal"
  | "and"
  | "or"
  | "not"
  | "add"
  | "subtract"
  | "multiply"
  | "divide";

export type OutcomeStatus = "succeeded" | "failed" | "blocked";

export type HirKind =
  | { readonly op: "literal"; readonly value: Literal }
  /** `path` only ever comes from persisted v0.1.2 programs; new compilation never emits it. */
  | { readonly op: "reference"; readonly root: string; readonly path?: readonly string[] }
  | { readonly op: "list"; readonly elements: readonly HirExpr[] }
  | { readonly op: "dict"; readonly entries: readonly (readonly [string, HirExpr])[] }
  | { readonly op: "from_json"; readonly target: YaoType; readonly value: HirExpr }
  | { readonly op: "to_json"; readonly value: HirExpr }
  | { readonly op: "record"; readonly type_name: string; readonly fields: readonly (readonly [string, HirExpr])[] }
  | {
      readonly op: "variant";
      readonly type_name: string;
      readonly variant: string;
      readonly fields: readonly (readonly [string, HirExpr])[];
    }
  | { readonly op: "option_some"; readonly value: HirExpr }
  | { readonly op: "option_none"; readonly inner: YaoType }
  | { readonly op: "result_ok"; readonly value: HirExpr; readonly error: YaoType }
  | { readonly op: "result_err"; readonly value: HirExpr; readonly ok: YaoType }
  | {
      readonly op: "evidence_candidate";
      readonly kind: HirExpr;
      readonly value: HirExpr;
      readonly refs: readonly HirExpr[];
    }
  | {
      readonly op: "outcome_candidate";
      readonly status: OutcomeStatus;
      readonly value: HirExpr;
      readonly evidence: readonly HirExpr[];
    }
  | { readonly op: "context_transaction"; readonly context: HirExpr; readonly canonical_source: string }
  | { readonly op: "get"; readonly value: HirExpr; readonly field: string }
  | { readonly op: "decode"; readonly target: YaoType; readonly value: HirExpr }
  | { readonly op: "is"; readonly target: YaoType; readonly value: HirExpr }
  | { readonly op: "pure"; readonly operator: PureOperator; readonly operands: readonly HirExpr[] }
  | { readonly op: "seq"; readonly steps: readonly HirExpr[] }
  | { readonly op: "bind"; readonly name: string; readonly value: HirExpr }
  | { readonly op: "if"; readonly condition: HirExpr; readonly when_true: HirExpr; readonly when_false: HirExpr }
  | { readonly op: "match"; readonly value: HirExpr; readonly cases: readonly MatchCase[] }
  | { readonly op: "fallback"; readonly primary: HirExpr; readonly backup: HirExpr }
  | { readonly op: "map"; readonly collection: HirExpr; readonly element: string; readonly body: HirExpr }
  | { readonly op: "call"; readonly tool: string; readonly arguments: readonly NamedArgument[] }
  | {
      readonly op: "function_application";
      readonly function: string;
      readonly arguments: readonly NamedArgument[];
      readonly parameters: readonly string[];
      /** The callee's compiled body: static linking, shared by every application of the callee. */
      readonly body: HirExpr;
    }
  | {
      readonly op: "infer_body";
      readonly body: HirExpr;
      readonly captures: readonly string[];
      readonly result: YaoType;
      readonly source: string;
    }
  | { readonly op: "par"; readonly branches: readonly ParBranch[] }
  | { readonly op: "run"; readonly program: HirExpr }
  | { readonly op: "host"; readonly operation: string; readonly arguments: readonly NamedArgument[] };

export type HirOp = HirKind["op"];

export interface HirExpr {
  readonly kind: HirKind;
  readonly ty: YaoType;
  readonly effects: EffectSet;
  /**
   * Where the expression is written. The analyzer's nodes compute it on first read (a getter), as
   * do named arguments' and parameters' spans: read it by name (`span: e.span`), since a spread
   * (`{ ...e }`) copies own fields only. `programJson` writes every span.
   */
  readonly span: SourceSpan;
}

export interface Requirements {
  /** null when the clause is absent; `[]` is a closed bound. Sorted by bytes. */
  readonly tools: readonly string[] | null;
  readonly effects: EffectSet | null;
  readonly objects: readonly string[] | null;
}

export type ProgramOwner = "runtime" | "model";

export interface YaoProgram {
  readonly language_version: string;
  readonly owner: ProgramOwner;
  readonly requirements: Requirements;
  readonly types: ReadonlyMap<string, TypeDefinition>;
  readonly body: HirExpr;
  readonly output: YaoType;
  readonly effects: EffectSet;
  readonly canonical_source: string;
  /** `program_hash` of this record. */
  readonly source_hash: string;
}
