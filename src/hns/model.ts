/** The normalized HNS package (HNS §3, §10.1): what a load produces and identity is computed from. */
import type { LegacyNode } from "../canonical/legacy.js";
import type { SNode } from "../syntax/tree.js";
import type { EntryHeader, FnHeader } from "../syntax/header.js";

export type EntryOwner = "runtime" | "model";
export type PhysicalForm = "file" | "directory";

export interface Manifest {
  readonly id: string;
  readonly version: string;
  readonly title: string;
  /** The raw `entry` value as declared (a path for directories, a logical name for single files). */
  readonly entry: string | undefined;
  /** Deduplicated, first occurrence order kept. */
  readonly tools: readonly string[];
  readonly skills: readonly string[];
}

export interface HnsFunction {
  readonly name: string;
  readonly visibility: "internal" | "exported";
  /** Typed canonical text of the whole `(fn …)` form. */
  readonly source: string;
  /** The same without its `(body …)` clauses: what exported interfaces show models. */
  readonly interfaceSource: string;
  /** The typed tree, with spans into `file`. */
  readonly form: SNode;
  /** The recognised `(fn …)` header, so the analyzer does not read it again. */
  readonly header: FnHeader;
  readonly file: string;
}

export interface EntryProgram {
  /** Logical entry id: the manifest entry (single file, default `main`) or the entry file stem. */
  readonly id: string;
  readonly owner: EntryOwner;
  /** `undefined` when the entry has no `(requires (tools …))` upper bound. */
  readonly declaredTools: readonly string[] | undefined;
  /** Canonical `(types …)` module of the entry, when it declares one. */
  readonly typeSource: string | undefined;
  /** Canonical text of the entry, printed once by the loader (identity and `program_hash` reuse it). */
  readonly source: string;
  readonly form: SNode;
  /** The recognised header, so the analyzer does not read the entry's header again. */
  readonly header: EntryHeader;
  readonly file: string;
}

export interface HnsPackage {
  readonly form: PhysicalForm;
  /** The path the package was loaded from (not part of identity). */
  readonly origin: string;
  readonly manifest: Manifest;
  readonly contract: LegacyNode;
  readonly mind: LegacyNode | undefined;
  /** Sorted by name (code point order). */
  readonly functions: readonly HnsFunction[];
  readonly entry: EntryProgram;
  /**
   * The package canonical text (HNS §10.1) and its `sha256:` identity. The identity is hashed from
   * the text's pieces; the text itself is joined on first read.
   */
  readonly canonicalText: string;
  readonly identity: string;
  /**
   * The UTF-8 length of the entry's and the functions' canonical texts, the count the analyzer's
   * module source limit compares, measured while the identity was hashed.
   */
  readonly programBytes: number;
}

/**
 * The metadata files of a directory package (HNS §4), in the loader's reading order; mind.yao may be
 * absent. One list, so a reader of packages (the language server's watched files) names the same ones.
 */
export const HNS_METADATA_FILES: readonly string[] = ["manifest.yao", "contract.yao", "mind.yao"];
