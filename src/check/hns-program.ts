/**
 * The HNS row's purpose "program" (src/check/hns.ts): the entry as `yaoc ir`, `profile`, `admit`
 * and `run` print it. Its own module so that only those commands load it.
 */
import { hasErrors } from "../diagnostics/diagnostic.js";
import { orderDiagnostics } from "../diagnostics/order.js";
import type { LoadResult } from "../hns/load.js";
import { type AnalysisResult, analyzeModule } from "../yao/analyze.js";
import { programProfile } from "../yao/profile.js";
import { capErrors, type HnsCheck, type HnsCheckOptions } from "./hns-result.js";

/**
 * Purpose "program": the entry analysed only when the load succeeded, under the profile of the
 * manifest's tools, with the analyzer's own diagnostics (its `yao.error_limit` note included) and,
 * unless `toolContracts` asks for it (`yaoc run`), no tool contract verification — `yaoc ir`,
 * `profile` and `admit` print the program, they do not grade the package. The graded diagnostics
 * are the two stages' findings in position order.
 */
export async function checkProgram(path: string, loaded: LoadResult, options: HnsCheckOptions): Promise<HnsCheck> {
  if (!loaded.ok) {
    return {
      path,
      kind: "hns",
      valid: false,
      identity: null,
      extra: { id: null, version: null, owner: null, program_hash: null },
      diagnostics: capErrors(orderDiagnostics(loaded.diagnostics), path),
      sources: loaded.sources,
      ioError: loaded.ioError,
      loaded,
    };
  }
  const pkg = loaded.package;
  const { profile, errors } = programProfile(pkg.manifest.tools, options.toolSchemas ?? {});
  const analysed =
    options.analyze === false || errors.length > 0
      ? undefined
      : analyzeModule({ entry: pkg.entry.form, functions: pkg.functions, allowInternal: true, profile });
  const analysis =
    options.toolContracts === true && analysed !== undefined
      ? await withToolContracts(analysed, options.toolSchemas ?? {}, pkg.manifest.tools)
      : analysed;
  const diagnostics = capErrors(orderDiagnostics([...loaded.warnings, ...(analysis?.diagnostics ?? [])]), path);
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
      program_hash: (valid && analysis?.programHash) || null,
    },
    diagnostics,
    sources: loaded.sources,
    ioError: false,
    package: pkg,
    loaded,
    profile,
    ...(errors.length > 0 ? { profileErrors: errors } : {}),
    ...(analysis === undefined ? {} : { analysis }),
  };
}

/**
 * The analysis with the tool contract verification's findings after its own, as `yaoc check` reports
 * them (src/check/hns.ts): the same walk, so `run` refuses what `check` refuses, at the same span.
 */
async function withToolContracts(
  analysis: AnalysisResult,
  schemas: Readonly<Record<string, unknown>>,
  declared: readonly string[],
): Promise<AnalysisResult> {
  if (analysis.program === undefined || analysis.functions === undefined) return analysis;
  // Loaded on first use, as the grading does, to keep evaluation code out of the initial bundle.
  const { verifyToolContracts } = await import("../eval/tool-contracts.js");
  const contracts = await verifyToolContracts(analysis.program, analysis.functions, schemas, declared);
  if (contracts.diagnostics.length === 0) return analysis;
  return { ...analysis, diagnostics: [...analysis.diagnostics, ...contracts.diagnostics] };
}
