import type { YaoProgram } from "../../ir/yao-ir-0.1.js";
import { readOne } from "../../src/syntax/reader.js";
import { analyzeProgram } from "../../src/yao/analyze.js";
import { morphzProfile, toolsFromManifest } from "../../src/yao/profile.js";
import {
  resumeState,
  startProgram,
  valueText,
  type Completion,
  type EffectRequest,
  type Outcome,
  type RunOptions,
  type RunResult,
} from "../../src/eval/index.js";

/** Tools the tests call: `read` (path String), `write` (path, mode enum), `any` (dynamic). */
export const TEST_TOOLS: Record<string, unknown> = {
  read: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  write: {
    type: "object",
    properties: { path: { type: "string" }, mode: { type: "string", enum: ["append", "replace"] } },
    required: ["path", "mode"],
  },
  any: { type: "object", properties: {} },
};

export function compile(source: string, schemas: Record<string, unknown> = TEST_TOOLS): YaoProgram {
  const r = readOne(source, { file: "test.yao" });
  if (!r.ok) throw new Error(`does not read: ${r.diagnostic.message}`);
  const { tools } = toolsFromManifest(Object.keys(schemas), schemas);
  const a = analyzeProgram(r.form, { profile: morphzProfile(tools) });
  if (a.program === undefined) throw new Error(`ill-typed: ${a.diagnostics.map((d) => d.message).join("; ")}`);
  return a.program;
}

/** Evaluate a pure expression under `(eval …)`; returns the outcome. */
export function run(source: string, options: RunOptions = {}): Outcome {
  return startProgram(compile(source), options).result;
}

export function value(source: string): string {
  const r = run(source);
  if (r.outcome !== "value") throw new Error(`expected a value, got ${JSON.stringify(r, replacer)}`);
  return valueText(r.value);
}

export function replacer(_k: string, v: unknown): unknown {
  if (typeof v === "bigint") return `${v}n`;
  if (v instanceof Map) return Object.fromEntries(v);
  return v;
}

export function requests(r: RunResult): EffectRequest[] {
  if (r.result.outcome !== "suspended")
    throw new Error(`expected suspended, got ${JSON.stringify(r.result, replacer)}`);
  return [...r.result.requests];
}

export function answer(r: RunResult, c: Completion, options: RunOptions = {}): RunResult {
  return resumeState(r.state(), c, options);
}
