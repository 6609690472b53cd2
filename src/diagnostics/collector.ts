/**
 * The one collector of findings and its one cap. Every frontend collects through it: HCP's
 * `PackReporter` and HARP's `ManifestReporter` extend `DiagnosticCollector`, the HNS loader's
 * `LoadContext` keeps its warnings in one, the A3S schema `Checker` its diagnostics, and the Yao
 * analyzer's `ErrorSink` its errors in a `Collector` (test/architecture/diagnostics.test.ts).
 *
 * Past the cap a finding is only counted, with whether it is an error, so the verdict stays exact
 * while nothing more is built: no message, span or object. A manifest of 60,000 bad fields then
 * costs what reading it costs, and the frontend closes the list with its own coded note
 * (`a3s.diagnostic_limit`, `harp.diagnostic_limit`, `hcp.diagnostic_limit`, `hns.warning_limit`).
 */
import type { CodeInfo, CodeOf, DiagnosticPlace } from "./codes.js";
import { diagnosticsFor, severitiesOf } from "./codes.js";
import type { Diagnostic, Severity } from "./diagnostic.js";

/** The one cap: at most this many findings of one kind are built and reported per check. */
export const DIAGNOSTIC_LIMIT = 200;

/** What was counted but not built. */
export interface Omissions {
  readonly count: number;
  readonly errors: number;
}

/**
 * The last collectors built, kept until the next is built (a shape no live object has is collected
 * at a full collection, and the optimised code with it: see `treeBuilder` in syntax/reader.ts).
 */
const kept: { collector?: Collector<unknown>; diagnostics?: DiagnosticCollector<readonly CodeInfo[]> } = {};

/** Keeps up to `limit` items in arrival order and counts the rest. */
export class Collector<T> {
  readonly items: T[] = [];
  private omittedCount = 0;
  private omittedErrorCount = 0;

  constructor(readonly limit: number = DIAGNOSTIC_LIMIT) {
    kept.collector = this;
  }

  /** False once the cap is reached: the caller skips building the next finding and calls `omit`. */
  get room(): boolean {
    return this.items.length < this.limit;
  }

  /** Keep `item` if there is room, else count it; true when it was kept. */
  add(item: T, isError: boolean): boolean {
    if (this.room) {
      this.items.push(item);
      return true;
    }
    this.omit(isError);
    return false;
  }

  /** Count a finding that was not built. */
  omit(isError: boolean): void {
    this.omittedCount++;
    if (isError) this.omittedErrorCount++;
  }

  get omitted(): Omissions {
    return { count: this.omittedCount, errors: this.omittedErrorCount };
  }

  /** Every finding seen, kept or counted. */
  get total(): number {
    return this.items.length + this.omittedCount;
  }
}

/**
 * Collects one check's diagnostics with the severity taken from the frontend's code table, so a
 * code cannot be emitted with a severity its row in docs/diagnostics.md does not show. Frontends
 * extend it with their own ways of locating a problem (HCP by JSON node, HARP by JSON Pointer).
 */
export class DiagnosticCollector<const T extends readonly CodeInfo[]> {
  private readonly kept: Collector<Diagnostic>;
  private readonly make: (code: CodeOf<T>, message: string, where?: DiagnosticPlace) => Diagnostic;
  readonly severityOf: (code: CodeOf<T>) => Severity;

  constructor(rows: T, limit: number = DIAGNOSTIC_LIMIT) {
    this.kept = new Collector<Diagnostic>(limit);
    this.make = diagnosticsFor(rows);
    this.severityOf = severitiesOf(rows);
    kept.diagnostics = this as unknown as DiagnosticCollector<readonly CodeInfo[]>;
  }

  /** The diagnostics built so far (at most the cap), in emission order. */
  get diagnostics(): readonly Diagnostic[] {
    return this.kept.items;
  }

  get room(): boolean {
    return this.kept.room;
  }

  get omitted(): Omissions {
    return this.kept.omitted;
  }

  /** Report `code`; past the cap it is counted and `where` (which may be deferred) is never evaluated. */
  emit(code: CodeOf<T>, message: string, where: DiagnosticPlace | (() => DiagnosticPlace) = {}): void {
    if (!this.kept.room) {
      this.kept.omit(this.severityOf(code) === "error");
      return;
    }
    this.kept.add(this.make(code, message, typeof where === "function" ? where() : where), false);
  }

  /** Count a finding of `code` without building it (the caller knows the cap is reached). */
  omit(code: CodeOf<T>): void {
    this.kept.omit(this.severityOf(code) === "error");
  }

  /** Add a diagnostic built elsewhere (another stage's result), under the same cap. */
  adopt(d: Diagnostic): void {
    this.kept.add(d, d.severity === "error");
  }

  /** Every finding seen, built or only counted. */
  get total(): number {
    return this.kept.total;
  }

  /** True when an error was reported, built or only counted. */
  hasErrors(): boolean {
    return this.kept.omitted.errors > 0 || this.kept.items.some((d) => d.severity === "error");
  }

  /**
   * The diagnostics, closed by `code` (the frontend's limit note, an `info` row) when some were
   * only counted. The note says how many, and how many of them were errors.
   */
  closedWith(code: CodeOf<T>, file: string | undefined): Diagnostic[] {
    const list = this.kept.items.slice();
    const { count, errors } = this.kept.omitted;
    if (count === 0) return list;
    list.push(this.make(code, limitMessage(count, errors, this.kept.limit), { file, hint: LIMIT_HINT }));
    return list;
  }
}

export const LIMIT_HINT = "fix these and check again to see the rest";

/** The closing note's words, shared by every frontend whose note counts diagnostics. */
export function limitMessage(count: number, errors: number, limit: number = DIAGNOSTIC_LIMIT): string {
  return `${count} more diagnostic${count === 1 ? "" : "s"} not shown (${errors} error${errors === 1 ? "" : "s"}): the check reports at most ${limit}`;
}
