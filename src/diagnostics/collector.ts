/**
 * Collects one check's diagnostics with the severity taken from the frontend's code table, so a code
 * cannot be emitted with a severity its row in docs/diagnostics.md does not show. Frontends extend
 * it with their own ways of locating a problem (HCP by JSON node, HARP by JSON Pointer).
 */
import { diagnostic, type Diagnostic, type Severity } from "./diagnostic.js";

export type DiagnosticPlace = Omit<NonNullable<Parameters<typeof diagnostic>[2]>, "severity">;

export class DiagnosticCollector<Code extends string> {
  readonly diagnostics: Diagnostic[] = [];

  constructor(private readonly severityOf: (code: Code) => Severity) {}

  emit(code: Code, message: string, where: DiagnosticPlace = {}): void {
    this.diagnostics.push(diagnostic(code, message, { ...where, severity: this.severityOf(code) }));
  }

  hasErrors(): boolean {
    return this.diagnostics.some((d) => d.severity === "error");
  }
}
