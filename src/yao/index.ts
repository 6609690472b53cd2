/** Public API of the Yao analyzer: analysis, profiles, the typed IR and its identity. */
export type * from "../../ir/yao-ir-0.1.js";
export { YAO_LANGUAGE_VERSION } from "../../ir/yao-ir-0.1.js";
export {
  analyzeModule,
  analyzeProgram,
  analyzeSources,
  MAX_MODULE_FUNCTIONS,
  MAX_MODULE_SOURCE_BYTES,
  type AnalysisResult,
  type AnalyzeOptions,
  type ModuleInput,
  type SourceInput,
} from "./analyze.js";
export { YAO_ANALYZER_CODES } from "./codes.js";
export type { CompiledFunction } from "./expressions.js";
export type { FunctionDeclaration } from "./functions.js";
export { encodeProgram, identityText, programHash, programJson } from "./ir-json.js";
export { readPersistedProgram, type PersistedProgramResult } from "./ir-read.js";
export {
  DYNAMIC_SIGNATURE,
  morphzProfile,
  semaTestProfile,
  signatureFromSchema,
  toolsFromManifest,
  withTools,
  type AnalysisProfile,
  type Signature,
  type ToolEntry,
} from "./profile.js";
export { evaluationProfile, interfaceSource } from "./interface.js";
export { debugEffects, debugType } from "./debug.js";
