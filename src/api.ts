/**
 * What "yaoc" (src/index.ts) and the browser entry (src/browser.ts) both export: everything but the
 * code table, which index.ts exports as values and the browser entry loads on request. Everything
 * here runs in any JavaScript runtime; file access goes through `PackageFs` (use `NodeFs` from
 * "yaoc/node" in Node, `MemoryFs` anywhere).
 */
export type { Diagnostic, Position, Severity, Span } from "./diagnostics/diagnostic.js";
export type { CheckResult, PackageKind } from "./diagnostics/result.js";
export type { CodeInfo } from "./diagnostics/codes.js";
export { renderHuman } from "./diagnostics/render.js";
export { renderJson } from "./output/format-json.js";

export type { FileKind, FileStat, PackageFs } from "./fs/package-fs.js";
export { FsError } from "./fs/package-fs.js";
export { MemoryFs } from "./fs/memory-fs.js";

export type { SNode, SList, SString, SSymbol, SourceSpan } from "./syntax/tree.js";
export { readAll, readOne, type ReadOptions, type ReadResult, type ReadOneResult } from "./syntax/reader.js";

export { canonicalSource } from "./canonical/typed.js";
export { contentHash, sha256Hex } from "./canonical/hash.js";
export { loadableSource, packageCanonicalText, packageIdentity } from "./canonical/package-identity.js";

export type { HnsPackage, HnsFunction, Manifest, EntryProgram } from "./hns/model.js";
export { loadPackage, loadFromSource, type LoadResult, type LoadOptions } from "./hns/load.js";

export * from "./yao/index.js";
export { admitProgram, analyzePackage, sharedTypes, type PackageAnalysisOptions } from "./yao/package-analysis.js";

// The facade: what `yaoc check` runs, for every package kind. Admission needs `check`, not `loadPackage`.
export { check, checkSource, strictResult, type CheckOptions, type PackageCheckResult } from "./check/check.js";
export { toReceipt, renderEvidenceJson, type Receipt, type ReceiptOptions } from "./evidence/receipt.js";
