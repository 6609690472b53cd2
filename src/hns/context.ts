/** Load-time state shared by the single-file and directory pipelines. */
import { type Diagnostic, type Span } from "../diagnostics/diagnostic.js";
import { diagnostic, type HNS_CODES } from "./codes.js";
import type { CodeWithSeverity } from "../diagnostics/codes.js";
import type { PackageFs } from "../fs/package-fs.js";
import type { SNode } from "../syntax/tree.js";

export interface LoadLimits {
  /** Per source file, UTF-8 bytes (the reference's reader limit). */
  readonly maxSourceBytes: number;
  /** All files a directory package reads, together. */
  readonly maxPackageBytes: number;
  /** Files in `functions/` (the analyzer's module function limit). */
  readonly maxFunctionFiles: number;
}

export const DEFAULT_LOAD_LIMITS: LoadLimits = {
  maxSourceBytes: 262_144,
  maxPackageBytes: 4 * 1024 * 1024,
  maxFunctionFiles: 128,
};

/** Thrown at the first error; the loader reports errors in the reference's detection order. */
export class LoadFailure extends Error {
  constructor(readonly diagnostic: Diagnostic) {
    super(diagnostic.message);
  }
}

export class LoadContext {
  readonly warnings: Diagnostic[] = [];
  readonly sources = new Map<string, string>();
  bytesRead = 0;

  constructor(
    readonly fs: PackageFs,
    readonly limits: LoadLimits,
  ) {}

  fail(code: CodeWithSeverity<typeof HNS_CODES, "error">, message: string, at?: { file?: string | undefined; span?: Span | undefined; hint?: string }): never {
    throw new LoadFailure(diagnostic(code, message, at ?? {}));
  }

  failAt(code: CodeWithSeverity<typeof HNS_CODES, "error">, message: string, node: SNode, hint?: string): never {
    throw new LoadFailure(diagnostic(code, message, { file: node.span.file, span: node.span, hint }));
  }

  warnAt(code: CodeWithSeverity<typeof HNS_CODES, "warning">, message: string, node: SNode, hint?: string): void {
    this.warnings.push(diagnostic(code, message, { file: node.span.file, span: node.span, hint }));
  }
}
