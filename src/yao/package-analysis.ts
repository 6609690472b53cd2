/**
 * Analysis of a loaded HNS package (HNS §9.4, §11 step 8): the entry with internal access and the
 * whole function module, against the Morphz profile with the manifest's tools. The reference defers
 * this to evaluation time; yaoc runs it at load so ill-typed, recursive or over-effectful packages
 * are rejected before anything executes.
 */
import type { PackageAnalysis } from "../hns/check.js";
import type { HnsPackage } from "../hns/model.js";
import type { SNode } from "../syntax/tree.js";
import { analyzeModule, analyzeProgram, type AnalysisResult } from "./analyze.js";
import { morphzProfile, toolsFromManifest } from "./profile.js";

export interface PackageAnalysisOptions {
  /** Tool input schemas by tool name (`{"type":"object","properties":{…}}`); others are dynamic. */
  readonly toolSchemas?: Readonly<Record<string, unknown>>;
}

export function analyzePackage(pkg: HnsPackage, options: PackageAnalysisOptions = {}): AnalysisResult {
  const { tools } = toolsFromManifest(pkg.manifest.tools, options.toolSchemas ?? {});
  return analyzeModule({
    entry: pkg.entry.form,
    entryHeader: pkg.entry.header,
    entrySource: pkg.entry.source,
    functions: pkg.functions,
    allowInternal: true,
    profile: morphzProfile(tools),
  });
}

/** The `PackageAnalyzer` the loader's check runs. */
export function packageAnalysis(pkg: HnsPackage): PackageAnalysis {
  const r = analyzePackage(pkg);
  return { diagnostics: r.diagnostics, programHash: r.programHash };
}

/**
 * Admit a model-written program against a bound package (HNS §9.4): it may apply exported
 * functions only, sees the entry's shared `(types …)`, and its tool calls — its own and those of the
 * functions it applies — must stay within its `requires (tools …)` bound. The runtime-embedding path.
 */
export function admitProgram(pkg: HnsPackage, program: SNode, options: PackageAnalysisOptions = {}): AnalysisResult {
  const { tools } = toolsFromManifest(pkg.manifest.tools, options.toolSchemas ?? {});
  return analyzeProgram(program, {
    profile: morphzProfile(tools),
    typeSources: sharedTypes(pkg),
    functions: pkg.functions.map((f) => f.header),
    allowInternal: false,
  });
}

/** The entry's `(types …)` module, as the loader recognised it. */
export function sharedTypes(pkg: HnsPackage): SNode[] {
  return pkg.entry.header.types === undefined ? [] : [pkg.entry.header.types];
}
