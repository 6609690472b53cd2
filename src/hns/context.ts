/** Load-time state shared by the single-file and directory pipelines. */
import type { Diagnostic, Span } from "../diagnostics/diagnostic.js";
import { diagnostic, HNS_CODES } from "./codes.js";
import type { CodeWithSeverity } from "../diagnostics/codes.js";
import { Collector, DIAGNOSTIC_LIMIT, DiagnosticCollector } from "../diagnostics/collector.js";
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

/**
 * Thrown at an error after which nothing more of the package can be read (a file that does not
 * parse, a missing manifest). Independent errors are recorded with `reportAt` and loading goes on;
 * the first error in the reference's detection order is always the first one recorded or thrown.
 */
export class LoadFailure extends Error {
  constructor(readonly diagnostic: Diagnostic) {
    super(diagnostic.message);
  }
}

/**
 * The last load context built, kept until the next is built (a shape no live object has is
 * collected at a full collection, and the optimised loader with it: see `treeBuilder` in
 * syntax/reader.ts).
 */
const kept: { context?: LoadContext } = {};

export class LoadContext {
  /** Warnings under the one cap: past it they are counted, never built (a manifest of 40,000 unknown fields). */
  private readonly warningList = new DiagnosticCollector(HNS_CODES, MAX_LOAD_WARNINGS);
  /**
   * Independent errors, every one kept (the single-file and directory pipelines pop and rethrow the
   * last one); the check layer caps them together with the analysis errors, after ordering.
   */
  private readonly errorList = new Collector<Diagnostic>(Number.POSITIVE_INFINITY);
  readonly sources = new Map<string, string>();
  bytesRead = 0;
  /**
   * Warnings held back because a later stage may report the same cause as an error: a misspelt
   * `(capabilites …)` is one `hns.tool_not_in_manifest` error at the field when the entry requires
   * tools, and only then not also an unknown-field warning (one cause, one diagnostic). Whatever is
   * not withdrawn is reported with the other warnings.
   */
  private readonly heldWarnings = new Map<SNode, () => void>();
  /** The manifest field that looks like a misspelt `(capabilities …)`, when there is no real one. */
  misspeltCapabilities: SNode | undefined;

  constructor(
    readonly fs: PackageFs,
    readonly limits: LoadLimits,
  ) {
    kept.context = this;
  }

  get warnings(): readonly Diagnostic[] {
    return this.warningList.diagnostics;
  }

  /** Independent errors recorded so far, in detection order. */
  get errors(): Diagnostic[] {
    return this.errorList.items;
  }

  fail(
    code: CodeWithSeverity<typeof HNS_CODES, "error">,
    message: string,
    at?: { file?: string | undefined; span?: Span | undefined; hint?: string },
  ): never {
    throw new LoadFailure(diagnostic(code, message, at ?? {}));
  }

  failAt(
    code: CodeWithSeverity<typeof HNS_CODES, "error">,
    message: string,
    node: SNode,
    hint?: string,
    extra: { label?: string; related?: Diagnostic["related"] } = {},
  ): never {
    throw new LoadFailure(diagnostic(code, message, { file: node.span.file, span: node.span, hint, ...extra }));
  }

  /** Record an error and go on: the caller continues with a recovery value. */
  reportAt(
    code: CodeWithSeverity<typeof HNS_CODES, "error">,
    message: string,
    node: SNode,
    hint?: string,
    extra: { label?: string; related?: Diagnostic["related"]; referenceMessage?: string } = {},
  ): void {
    this.errors.push(diagnostic(code, message, { file: node.span.file, span: node.span, hint, ...extra }));
  }

  /** Run one independent part of the load; a failure in it is recorded and `undefined` returned. */
  attempt<T>(body: () => T): T | undefined {
    try {
      return body();
    } catch (e) {
      if (!(e instanceof LoadFailure)) throw e;
      this.errors.push(e.diagnostic);
      return undefined;
    }
  }

  async attemptAsync<T>(body: () => Promise<T>): Promise<T | undefined> {
    try {
      return await body();
    } catch (e) {
      if (!(e instanceof LoadFailure)) throw e;
      this.errors.push(e.diagnostic);
      return undefined;
    }
  }

  /** Warnings past MAX_LOAD_WARNINGS: counted, never built. */
  get omittedWarnings(): number {
    return this.warningList.omitted.count;
  }

  /** False once MAX_LOAD_WARNINGS warnings are recorded: the caller skips building the next one. */
  get warningRoom(): boolean {
    return this.warningList.room;
  }

  warnAt(
    code: CodeWithSeverity<typeof HNS_CODES, "warning">,
    message: string,
    node: SNode,
    hint?: string | (() => string | undefined),
  ): void {
    this.warningList.emit(code, message, () => ({
      file: node.span.file,
      span: node.span,
      hint: typeof hint === "function" ? hint() : hint,
    }));
  }

  /** Hold back the warning `emit` reports about `node` until the load ends or it is withdrawn. */
  holdWarning(node: SNode, emit: () => void): void {
    this.heldWarnings.set(node, emit);
  }

  /** The held warning about `node`, if any, is not reported: an error says the same. */
  withdrawWarning(node: SNode): void {
    this.heldWarnings.delete(node);
  }

  /** The warnings, closed by an `hns.warning_limit` note when some were only counted. */
  reportedWarnings(file: string): Diagnostic[] {
    for (const emit of this.heldWarnings.values()) emit();
    this.heldWarnings.clear();
    if (this.omittedWarnings === 0) return this.warnings.slice();
    return [
      ...this.warnings,
      diagnostic(
        "hns.warning_limit",
        `${MAX_LOAD_WARNINGS} warnings shown, ${this.omittedWarnings} more not shown; fix these and check again to see the rest`,
        { file },
      ),
    ];
  }
}

/** At most this many loader warnings are built and reported per package: the one cap. */
export const MAX_LOAD_WARNINGS = DIAGNOSTIC_LIMIT;
