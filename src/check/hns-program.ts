/**
 * The HNS row's purpose "program" (src/check/hns.ts): the entry as `yaoc ir`, `profile`, `admit`
 * and `run` print it. Its own module so that only those commands load it.
 */
import type { LoadResult } from "../hns/load.js";
import { analyzeModule } from "../yao/analyze.js";
import { programProfile } from "../yao/profile.js";
import { loadedCheck, unloadedCheck, withToolContracts, type HnsCheck, type HnsCheckOptions } from "./hns-result.js";

/**
 * Purpose "program": the entry analysed only when the load succeeded, under the profile of the
 * manifest's tools, with the analyzer's own diagnostics (its `yao.error_limit` note included) and,
 * unless `toolContracts` asks for it (`yaoc run`), no tool contract verification — `yaoc ir`,
 * `profile` and `admit` print the program, they do not grade the package. The graded diagnostics
 * are the two stages' findings in position order.
 */
export async function checkProgram(path: string, loaded: LoadResult, options: HnsCheckOptions): Promise<HnsCheck> {
  if (!loaded.ok) return unloadedCheck(path, loaded, loaded.diagnostics);
  const pkg = loaded.package;
  const { profile, errors } = programProfile(pkg.manifest.tools, options.toolSchemas ?? {});
  const analysed =
    options.analyze === false || errors.length > 0
      ? undefined
      : analyzeModule({ entry: pkg.entry.form, functions: pkg.functions, allowInternal: true, profile });
  // `yaoc run` asks for the tool contracts too: their findings join the analysis's diagnostics,
  // which is what the commands read (src/cli/yao.ts analyzeHns).
  const contracted =
    options.toolContracts === true && analysed !== undefined
      ? await withToolContracts(analysed, options.toolSchemas ?? {}, pkg.manifest.tools)
      : undefined;
  const analysis = contracted === undefined ? analysed : { ...analysed!, diagnostics: [...contracted.diagnostics] };
  return {
    ...loadedCheck(path, loaded, analysis?.diagnostics ?? [], analysis?.programHash),
    profile,
    ...(errors.length > 0 ? { profileErrors: errors } : {}),
    ...(analysis === undefined ? {} : { analysis }),
  };
}
