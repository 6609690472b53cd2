/**
 * Budgets (Yao Evaluation Semantics §11, Morphz runtime profile defaults). They are aggregate for a
 * root program: `par` branches, nested `infer` and `run` children draw on the same counters, and
 * a child program gets what remains and refunds nothing. The one exception is `branches`, which
 * counts the branches running at once, not those ever started. Exhausting one is a `resource` failure.
 */
export interface Budgets {
  /** Typed-IR nodes evaluated. */
  readonly steps: number;
  readonly toolEffects: number;
  readonly inferEffects: number;
  /**
   * Branches of effectful `par`s scheduled at once (started and not yet joined): the profile's
   * "simultaneously scheduled branches". A join gives its branches back, so sequential `par`s
   * never add up; one `par` has at most 32 branches, which the analyzer already enforces.
   */
  readonly branches: number;
  /** Program Value nesting depth (`run` inside `run`). */
  readonly nesting: number;
  /** Elements of one `map` collection. */
  readonly mapElements: number;
  /**
   * Model rounds one nested `infer` may take. The host runs the model and reports the rounds it
   * took with the completion (`"rounds"`); the request names the ceiling (`"model_rounds"`).
   */
  readonly modelRounds: number;
  /**
   * Elapsed wall time of the whole run, in ms, or null for no deadline. The machine has no clock:
   * the host reports the time elapsed since the run started with a completion (`"elapsed_ms"`)
   * or when it continues a state, so the state stays deterministic.
   */
  readonly elapsedMs: number | null;
}

export const DEFAULT_BUDGETS: Budgets = Object.freeze({
  steps: 100_000,
  toolEffects: 128,
  inferEffects: 8,
  branches: 32,
  nesting: 4,
  mapElements: 64,
  modelRounds: 4,
  elapsedMs: null,
});

export const BUDGET_NAMES: readonly (keyof Budgets)[] = [
  "steps",
  "toolEffects",
  "inferEffects",
  "branches",
  "nesting",
  "mapElements",
  "modelRounds",
  "elapsedMs",
];

/** Human words for each budget, for `resource` failure messages. */
export const BUDGET_WORDS: Readonly<Record<keyof Budgets, string>> = {
  steps: "typed-IR step",
  toolEffects: "tool effect",
  inferEffects: "inference effect",
  branches: "parallel branch",
  nesting: "Program Value nesting",
  mapElements: "map element",
  modelRounds: "model round",
  elapsedMs: "elapsed-time",
};

/**
 * The defaults with `overrides` applied; every value must be a non-negative safe integer (the
 * elapsed-time budget may also be null: no deadline).
 */
export function budgetsWith(overrides: Partial<Budgets> = {}): Budgets {
  const out: Record<string, number | null> = { ...DEFAULT_BUDGETS };
  for (const name of BUDGET_NAMES) {
    const v = overrides[name];
    if (v === undefined) continue;
    if (v === null && name === "elapsedMs") {
      out[name] = null;
      continue;
    }
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0)
      throw new RangeError(`budget ${name} must be a non-negative integer, got ${v}`);
    out[name] = v;
  }
  return out as unknown as Budgets;
}
