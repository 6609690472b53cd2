/**
 * Budgets (Yao Evaluation Semantics §11, Morphz runtime profile defaults). They are aggregate for a
 * root program: `par` branches, nested `infer` and `run` children draw on the same counters, and
 * a child program gets what remains and refunds nothing. Exhausting one is a `resource` failure.
 */
export interface Budgets {
  /** Typed-IR nodes evaluated. */
  readonly steps: number;
  readonly toolEffects: number;
  readonly inferEffects: number;
  /** `par` branches started. */
  readonly branches: number;
  /** Program Value nesting depth (`run` inside `run`). */
  readonly nesting: number;
  /** Elements of one `map` collection. */
  readonly mapElements: number;
}

export const DEFAULT_BUDGETS: Budgets = Object.freeze({
  steps: 100_000,
  toolEffects: 128,
  inferEffects: 8,
  branches: 32,
  nesting: 4,
  mapElements: 64,
});

export const BUDGET_NAMES: readonly (keyof Budgets)[] = [
  "steps",
  "toolEffects",
  "inferEffects",
  "branches",
  "nesting",
  "mapElements",
];

/** Human words for each budget, for `resource` failure messages. */
export const BUDGET_WORDS: Readonly<Record<keyof Budgets, string>> = {
  steps: "typed-IR step",
  toolEffects: "tool effect",
  inferEffects: "inference effect",
  branches: "parallel branch",
  nesting: "Program Value nesting",
  mapElements: "map element",
};

/** The defaults with `overrides` applied; every value must be a non-negative safe integer. */
export function budgetsWith(overrides: Partial<Budgets> = {}): Budgets {
  const out: Record<string, number> = { ...DEFAULT_BUDGETS };
  for (const name of BUDGET_NAMES) {
    const v = overrides[name];
    if (v === undefined) continue;
    if (!Number.isSafeInteger(v) || v < 0)
      throw new RangeError(`budget ${name} must be a non-negative integer, got ${v}`);
    out[name] = v;
  }
  return out as unknown as Budgets;
}
