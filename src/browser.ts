/**
 * The browser entry (`npm run build:browser`, dist/browser/yaoc.min.js): everything "yaoc" exports
 * (api.ts) except the code table, whose rows (the summaries and clauses of every frontend's codes,
 * about 40 KiB minified) a page that checks packages does not need up front. `codeTable()` loads
 * it: the same `ALL_CODES` and `codeInfo` that "yaoc" exports. The JSON and receipt renderers still
 * give every code its reason (src/codes/lazy-tables.ts says how).
 */
import type { CodeInfo } from "./diagnostics/codes.js";

export * from "./api.js";

export interface CodeTable {
  readonly ALL_CODES: readonly CodeInfo[];
  readonly codeInfo: (code: string) => CodeInfo | undefined;
}

/** The code table ("yaoc"'s `ALL_CODES` and `codeInfo`), loaded on first call. */
export async function codeTable(): Promise<CodeTable> {
  const { ALL_CODES, codeInfo } = await import("./codes/registry.js");
  return { ALL_CODES, codeInfo };
}
