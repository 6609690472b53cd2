/**
 * What the HNS row of the frontend table is asked and answers, the one error cap of its graded
 * diagnostics, the result built from a load, and the tool contract step after the analyzer: shared
 * by the grading (./hns.ts) and purpose "program" (./hns-program.ts), which ./hns.ts imports only
 * on first use.
 */
import { hasErrors, type Diagnostic } from "../diagnostics/diagnostic.js";
import { DIAGNOSTIC_LIMIT } from "../diagnostics/collector.js";
import { orderDiagnostics } from "../diagnostics/order.js";
import type { CheckResult } from "../diagnostics/result.js";
import { diagnostic } from "../hns/codes.js";
import type { LoadLimits } from "../hns/context.js";
import type { LoadResult } from "../hns/load.js";
import type { HnsPackage } from "../hns/model.js";
import type { AnalysisResult } from "../yao/analyze.js";
import type { AnalysisProfile } from "../yao/profile.js";

export interface HnsCheckOptions {
  /** Run the module analysis (types, effects, program hash). Default true, as `yaoc check`. */
  readonly analyze?: boolean | undefined;
  /** Tool input schemas by tool name for the analysis (`yaoc check --tools`); others stay dynamic. */
  readonly toolSchemas?: Readonly<Record<string, unknown>> | undefined;
  /** Loader limits (file and package sizes, function count); default the loader's. */
  readonly limits?: Partial<LoadLimits> | undefined;
  /**
   * What the analysis is for. "package" (the default) grades the package as `yaoc check` does.
   * "program" analyses the entry as `yaoc ir`, `profile`, `admit` and `run` print it: only when the
   * load succeeded, under the profile of the manifest's tools typed by `toolSchemas` (every tool of
   * `toolSchemas` when the manifest names none; a schema that cannot be typed is reported in
   * `profileErrors` and nothing is analysed), without the tool contract verification. Its graded
   * result is not `yaoc check`'s verdict: those commands read the stages' own results (`loaded`,
   * `analysis`, `profile`), which the result carries with `keepAnalysis`.
   */
  readonly purpose?: "package" | "program" | undefined;
  /**
   * Purpose "program": also verify every statically evaluable tool argument against `toolSchemas`,
   * as `yaoc check` does, and report a violation among the analysis's diagnostics. `yaoc run` asks
   * for it: a package that `check` refuses for a tool contract is not run either.
   */
  readonly toolContracts?: boolean | undefined;
}

/** An HNS check: the common result, the I/O flag, and the loaded package and analysis when there are any. */
export type HnsCheck = CheckResult & {
  readonly ioError: boolean;
  /** The package as loaded, when the load succeeded. */
  readonly package?: HnsPackage;
  /** The module analysis (typed IR, diagnostics, program hash), when it ran. */
  readonly analysis?: AnalysisResult;
  /**
   * The loader's own result: its diagnostics in the order it found them, its warnings, and on a
   * failure the reference's first error (`firstError`), as the HNS goldens record them.
   */
  readonly loaded?: LoadResult;
  /** Purpose "program": the profile the entry was analysed under, when the load succeeded. */
  readonly profile?: AnalysisProfile;
  /** Purpose "program": why `toolSchemas` could not be typed (nothing was analysed then). */
  readonly profileErrors?: readonly string[];
};

/** Errors shown per package; beyond it a closing note says how many more there were. */
export const MAX_PACKAGE_ERRORS = DIAGNOSTIC_LIMIT;

/** At most MAX_PACKAGE_ERRORS errors, then one closing note (the analyzer's own note is replaced). */
export function capErrors(ds: readonly Diagnostic[], path: string): Diagnostic[] {
  const kept: Diagnostic[] = [];
  let errors = 0;
  let dropped = 0;
  let analysisStopped = false;
  for (const d of ds) {
    if (d.code === "yao.error_limit") {
      analysisStopped = true;
      continue;
    }
    if (d.severity === "error" && ++errors > MAX_PACKAGE_ERRORS) {
      dropped++;
      continue;
    }
    kept.push(d);
  }
  if (dropped > 0 || analysisStopped) {
    const more =
      dropped > 0 ? `${dropped} more error${dropped === 1 ? "" : "s"} not shown` : "the analysis stopped early";
    kept.push(
      diagnostic(
        "hns.error_limit",
        `${path}: ${MAX_PACKAGE_ERRORS} errors shown, ${more}; fix these and check again to see the rest`,
        {
          file: path,
        },
      ),
    );
  }
  return kept;
}

type Loaded = Extract<LoadResult, { ok: true }>;
type NotLoaded = Extract<LoadResult, { ok: false }>;

/** The graded result of a package that did not load: `findings` (the loader's and any analysis's), in position order, capped. */
export function unloadedCheck(path: string, loaded: NotLoaded, findings: readonly Diagnostic[]): HnsCheck {
  return {
    path,
    kind: "hns",
    valid: false,
    identity: null,
    extra: { id: null, version: null, owner: null, program_hash: null },
    diagnostics: capErrors(orderDiagnostics(findings), path),
    sources: loaded.sources,
    ioError: loaded.ioError,
    loaded,
  };
}

/**
 * The graded result of a package that loaded: its warnings and `findings` in position order,
 * capped; the identity, and the entry's program hash (yao-v0.1.md §9.10) when the analysis gave
 * one, only when no error is among them.
 */
export function loadedCheck(
  path: string,
  loaded: Loaded,
  findings: readonly Diagnostic[],
  programHash: string | undefined,
): HnsCheck {
  const pkg = loaded.package;
  const diagnostics = capErrors(orderDiagnostics([...loaded.warnings, ...findings]), path);
  const valid = !hasErrors(diagnostics);
  return {
    path,
    kind: "hns",
    valid,
    identity: valid ? pkg.identity : null,
    extra: {
      id: pkg.manifest.id,
      version: pkg.manifest.version,
      owner: pkg.entry.owner,
      program_hash: (valid && programHash) || null,
    },
    diagnostics,
    sources: loaded.sources,
    ioError: false,
    package: pkg,
    loaded,
  };
}

/** What the module analysis gives the check: the analyzer's result, every diagnostic, the contract report. */
export interface PackageAnalysis {
  readonly analysis: AnalysisResult;
  /** The analyzer's diagnostics, then the tool contract verification's. */
  readonly diagnostics: readonly Diagnostic[];
  /** Fields for `check --format json` only (the tool contract report); never in receipts. */
  readonly report?: Readonly<Record<string, unknown>>;
}

/**
 * The tool contract verification over an analysis that produced a program (src/eval/tool-contracts.ts):
 * every statically known tool argument validated against `schemas`, its findings after the
 * analyzer's. `yaoc check` and `yaoc run` both come here, so they refuse the same calls.
 */
export async function withToolContracts(
  analysis: AnalysisResult,
  schemas: Readonly<Record<string, unknown>>,
  declaredTools: readonly string[],
): Promise<PackageAnalysis> {
  if (analysis.program === undefined || analysis.functions === undefined)
    return { analysis, diagnostics: analysis.diagnostics };
  // Imported on first use like the validator behind it: the walk is evaluation code, and keeping
  // it out of the browser entry holds the initial load within its budget (test/browser/bundle-size).
  const { verifyToolContracts } = await import("../eval/tool-contracts.js");
  const contracts = await verifyToolContracts(analysis.program, analysis.functions, schemas, declaredTools);
  return {
    analysis,
    diagnostics: [...analysis.diagnostics, ...contracts.diagnostics],
    report: { ...contracts.report },
  };
}
