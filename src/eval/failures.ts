/**
 * Classified failures (Yao Evaluation Semantics §10). Every failure carries its class, a message in
 * the reference's words where it has them, and the span of the failing node.
 */
import type { SourceSpan } from "../../ir/span.js";

export type FailureClass =
  | "value"
  | "inference"
  | "tool"
  | "parallel"
  | "resource"
  | "cancelled"
  | "authority"
  | "integrity";

export const FAILURE_CLASSES: readonly FailureClass[] = [
  "value",
  "inference",
  "tool",
  "parallel",
  "resource",
  "cancelled",
  "authority",
  "integrity",
];

/** What `fallback` may turn into its backup: never cancellation, authority or integrity (§10). */
export function isCatchable(c: FailureClass): boolean {
  return c !== "cancelled" && c !== "authority" && c !== "integrity";
}

export interface BranchOutcome {
  readonly name: string;
  readonly status: "succeeded" | "failed";
  readonly class?: FailureClass;
  readonly message?: string;
}

export interface EvalFailure {
  readonly class: FailureClass;
  readonly message: string;
  /** The failing node's span; absent only for failures of the state itself (a corrupt file). */
  readonly span?: SourceSpan;
  /** `parallel`: every branch, in source order, with its status. */
  readonly branches?: readonly BranchOutcome[];
}

/** Thrown inside one evaluation step and turned into the machine's failure. */
export class Failure extends Error {
  constructor(readonly failure: EvalFailure) {
    super(failure.message);
  }
}

export function failure(cls: FailureClass, message: string, span?: SourceSpan): Failure {
  return new Failure(span === undefined ? { class: cls, message } : { class: cls, message, span });
}
