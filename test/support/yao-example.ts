/** Analyze one example program as the language guide and table state it: Morphz profile, tool `read`. */
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { readOne } from "../../src/syntax/reader.js";
import { analyzeProgram, morphzProfile, toolsFromManifest } from "../../src/yao/index.js";

export function analyzeExample(source: string): readonly Diagnostic[] {
  const read = readOne(source, { file: "example.yao" });
  if (!read.ok) return [read.diagnostic];
  const profile = morphzProfile(toolsFromManifest(["read"], {}).tools);
  return analyzeProgram(read.form, { profile }).diagnostics;
}
