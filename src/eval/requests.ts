/**
 * Effect requests and completions. A request names one pending effect: its id derives from the root
 * program hash and the machine's monotonic effect sequence (so a replay of the same program with the
 * same completions gives the same ids), its kind, and the fully evaluated inputs.
 */
import { sha256Hex } from "../canonical/hash.js";
import type { FailureClass } from "./failures.js";
import type { Value } from "./values.js";

export type RequestKind = "tool" | "infer" | "host" | "program";
export const REQUEST_KINDS: readonly RequestKind[] = ["tool", "infer", "host", "program"];

/** A request as a value: `id`, `kind`, `sequence`, `span` and the kind's fields. */
export type EffectRequest = ReadonlyMap<string, Value>;

export function requestId(programHash: string, sequence: number): string {
  return `yao-effect:${sha256Hex(`${programHash}\n${sequence}`).slice(0, 32)}:${sequence}`;
}

/** What every completion may carry besides its answer. */
export interface CompletionBase {
  readonly id: string;
  readonly kind?: RequestKind;
  /** An infer completion: the model rounds the host's model loop took (at most the request's `model_rounds`). */
  readonly rounds?: number;
  /** The wall time elapsed since the run started, in ms, as the host measures it (the machine has no clock). */
  readonly elapsedMs?: number;
}

export type Completion =
  | (CompletionBase & { readonly value: Value })
  | (CompletionBase & { readonly text: string })
  | (CompletionBase & { readonly error: { readonly message: string; readonly class?: FailureClass } });

/** The failure class an error completion gets when it names none. */
export const DEFAULT_ERROR_CLASS: Readonly<Record<RequestKind, FailureClass>> = {
  tool: "tool",
  infer: "inference",
  host: "authority",
  program: "authority",
};
