/**
 * Analysis of a loaded HNS package (HNS §9.4, §11 step 8): the entry with internal access and the
 * whole function module, against the Morphz profile with the manifest's tools. The reference defers
 * this to evaluation time; yaoc runs it at load so ill-typed, recursive or over-effectful packages
 * are rejected before anything executes.
 */
import type { HnsPackage } from "../hns/model.js";
import type { FnHeader } from "../syntax/header.js";
import type { SNode } from "../syntax/tree.js";
import { analyzeModule, analyzeProgram, type AnalysisResult } from "./analyze.js";
import { morphzProfile, toolsFromManifest, type AnalysisProfile } from "./profile.js";

export interface PackageAnalysisOptions {
  /** Tool input schemas by tool name (`{"type":"object","properties":{…}}`); others are dynamic. */
  readonly toolSchemas?: Readonly<Record<string, unknown>>;
  /** False: the first error inside each body stops it, as in the reference (default: every independent one). */
  readonly recover?: boolean;
}

export function analyzePackage(pkg: HnsPackage, options: PackageAnalysisOptions = {}): AnalysisResult {
  const { tools } = toolsFromManifest(pkg.manifest.tools, options.toolSchemas ?? {});
  return analyzeModule({
    entry: pkg.entry.form,
    entryHeader: pkg.entry.header,
    entrySource: pkg.entry.source,
    functions: pkg.functions,
    programBytes: pkg.programBytes,
    allowInternal: true,
    profile: morphzProfile(tools),
    ...(options.recover === undefined ? {} : { recover: options.recover }),
  });
}

/**
 * What a model-written program is admitted against (HNS §9.4): the bound package's shared
 * `(types …)`, its functions (only exported ones may be applied) and the entry's tool bound.
 */
export interface AdmissionBinding {
  readonly typeSources: readonly SNode[];
  /** The package's `(fn …)` forms, or the loader's recognised headers. */
  readonly functions: readonly (SNode | FnHeader)[];
  readonly toolBound: readonly string[];
}

/** A loaded package's binding, as `admitProgram` and `yaoc admit` use it. */
export function packageBinding(pkg: HnsPackage): AdmissionBinding {
  return {
    typeSources: sharedTypes(pkg),
    functions: pkg.functions.map((f) => f.header),
    toolBound: entryToolBound(pkg),
  };
}

/**
 * The admission rules, in one place: a model-written program may apply exported functions only,
 * sees the shared types, and its tool calls — its own and those of the functions it applies — must
 * stay within its `requires (tools …)` bound and within the package entry's bound (HNS §9.2: the
 * tools given to the model are the entry's bound ∩ the calls it names ∩ the permissions; an entry
 * with `(requires (tools))` admits pure programs only). `admitProgram`, `yaoc admit` and the
 * evaluator's `run` of a model-written Program Value (src/eval) all call this.
 */
export function admitAgainst(binding: AdmissionBinding, program: SNode, profile: AnalysisProfile): AnalysisResult {
  return analyzeProgram(program, {
    profile,
    typeSources: binding.typeSources,
    functions: binding.functions,
    allowInternal: false,
    packageToolBound: binding.toolBound,
  });
}

/**
 * Admit a model-written program against a bound package (`admitAgainst` with the package's
 * binding): the runtime-embedding path, and what `yaoc admit` runs.
 */
export function admitProgram(
  pkg: HnsPackage,
  program: SNode,
  options: PackageAnalysisOptions & { readonly profile?: AnalysisProfile } = {},
): AnalysisResult {
  const profile =
    options.profile ?? morphzProfile(toolsFromManifest(pkg.manifest.tools, options.toolSchemas ?? {}).tools);
  return admitAgainst(packageBinding(pkg), program, profile);
}

/** The package entry's tool bound: its `requires.tools`, or the manifest's tools when it declares none. */
export function entryToolBound(pkg: HnsPackage): readonly string[] {
  return pkg.entry.declaredTools ?? pkg.manifest.tools;
}

/** The entry's `(types …)` module, as the loader recognised it. */
export function sharedTypes(pkg: HnsPackage): SNode[] {
  return pkg.entry.header.types === undefined ? [] : [pkg.entry.header.types];
}
