/**
 * The module analysis `yaoc check` runs after a structural load (HNS §11 step 8): the analyzer, then
 * the tool contract verification (src/eval/tool-contracts.ts), which evaluates every statically
 * known tool argument and validates it against the tool's input schema when one is given.
 */
import { verifyToolContracts } from "../eval/tool-contracts.js";
import type { PackageAnalyzer } from "../hns/check.js";
import { analyzePackage } from "../yao/package-analysis.js";

/** The analyzer with tool input schemas by name (`--tools`); tools without one stay dynamic. */
export function analyzerWithSchemas(toolSchemas: Readonly<Record<string, unknown>> = {}): PackageAnalyzer {
  return (pkg) => {
    const r = analyzePackage(pkg, { toolSchemas });
    if (r.program === undefined || r.functions === undefined)
      return { diagnostics: r.diagnostics, programHash: r.programHash };
    const contracts = verifyToolContracts(r.program, r.functions, toolSchemas);
    return {
      diagnostics: [...r.diagnostics, ...contracts.diagnostics],
      programHash: r.programHash,
      report: { ...contracts.report },
    };
  };
}

export const hnsAnalyzer: PackageAnalyzer = analyzerWithSchemas();
