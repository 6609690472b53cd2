/**
 * `yaoc/eval`: run a validated Yao program (the linked typed IR `yaoc ir` prints) and resume it
 * from a persisted state with one completion at a time. Browser-safe; it never calls a tool, a model
 * or the host: effects come back as requests (docs/eval.md).
 */
import type { SourceSpan } from "../../ir/span.js";
import type { YaoProgram, YaoType } from "../../ir/yao-ir-0.1.js";
import { canonicalJson } from "../json/jcs.js";
import { readOne } from "../syntax/reader.js";
import type { HnsPackage } from "../hns/model.js";
import { analyzeProgram } from "../yao/analyze.js";
import { admitAgainst, entryToolBound, packageBinding } from "../yao/package-analysis.js";
import { programJson } from "../yao/ir-json.js";
import { readPersistedProgram } from "../yao/ir-read.js";
import { morphzProfile, toolsFromManifest } from "../yao/profile.js";
import { isAssignable, isEffectSubset } from "../yao/types.js";
import { budgetsWith, type Budgets } from "./budgets.js";
import { failure, FAILURE_CLASSES, type EvalFailure, type FailureClass } from "./failures.js";
import { Machine, type MachineHooks } from "./machine.js";
import { ProgramIndex } from "./program-index.js";
import {
  DEFAULT_ERROR_CLASS,
  REQUEST_KINDS,
  type Completion,
  type CompletionBase,
  type EffectRequest,
  type RequestKind,
} from "./requests.js";
import {
  decodeState,
  encodeState,
  StateError,
  type AdmissionText,
  type DecodedState,
  type StateExtras,
} from "./state.js";
import { parseEnvelopeText, valueText, ValueTextError } from "./value-text.js";
import { refValue, optionNone, structuralRecord, valueProblem, type Value } from "./values.js";

export { BUDGET_NAMES, DEFAULT_BUDGETS, budgetsWith, type Budgets } from "./budgets.js";
export { decodeValue, fromPlainJson, toPlainJson } from "./decode.js";
export { FAILURE_CLASSES, isCatchable, type EvalFailure, type FailureClass } from "./failures.js";
export { INT_SCHEMA_MAXIMUM, INT_SCHEMA_MINIMUM, jsonSchema } from "./json-schema.js";
export {
  requestId,
  REQUEST_KINDS,
  type Completion,
  type CompletionBase,
  type EffectRequest,
  type RequestKind,
} from "./requests.js";
export { MAX_STATE_BYTES, STATE_FORMAT, STATE_VERSION, StateError } from "./state.js";
export { floatText, parseValueText, valueText, ValueTextError } from "./value-text.js";
export { displayValue } from "./display.js";
export * from "./values.js";

export interface RunOptions {
  readonly budgets?: Partial<Budgets>;
  /** The implicit `runtime` binding; by default local references (see docs/eval.md). */
  readonly runtime?: Value;
  /** Tool input schemas (as `yaoc ir --tools`), used to admit model-written Program Values. */
  readonly tools?: Readonly<Record<string, unknown>>;
  /**
   * `startProgram`: the HNS package the program is the entry of. Model-written Program Values are
   * then admitted against it by the same rules as `admitProgram` and `yaoc admit` (exported
   * functions only, the shared types, the entry's tool bound); the state keeps what that needs.
   */
  readonly package?: HnsPackage;
  /** With a key the state's digest is an HMAC, so only holders of the key can write a state that resumes. */
  readonly integrityKey?: Uint8Array;
  /** Stop after this many steps with outcome "running" (for tests and cooperative schedulers). */
  readonly stepLimit?: number;
  /**
   * `continueState`: the wall time elapsed since the run started, in ms, as the host measures it
   * (a completion carries its own as `elapsed_ms`). Checked against the elapsed-time budget.
   */
  readonly elapsedMs?: number;
}

export type Outcome =
  | { readonly outcome: "value"; readonly value: Value }
  | { readonly outcome: "failure"; readonly failure: EvalFailure }
  | { readonly outcome: "suspended"; readonly requests: readonly EffectRequest[] }
  | { readonly outcome: "running" };

export interface RunResult {
  readonly result: Outcome;
  /**
   * True when a completion was refused (foreign, stale, conflicting duplicate, wrong kind, a
   * finished machine): `result` is that integrity failure and `state` is the input state, unchanged.
   */
  readonly rejected: boolean;
  /** The canonical JSON state after this call. */
  state(): string;
}

/** The `runtime` binding a local run gets: references named `local`, no objective or principal. */
export function localRuntime(): Value {
  return structuralRecord([
    ["agent", refValue("Agent", "local")],
    ["capabilities", refValue("CapabilitySet", "local")],
    ["context", refValue("Context", "local")],
    ["evaluation", refValue("Evaluation", "local")],
    ["execution_target", optionNone()],
    ["harness", optionNone()],
    ["objective", optionNone()],
    ["principal", optionNone()],
  ]);
}

/** What a run of a package entry keeps of its package to admit model-written programs against. */
function admissionText(pkg: HnsPackage): AdmissionText {
  return {
    package: { id: pkg.manifest.id, version: pkg.manifest.version, identity: pkg.identity },
    functions: pkg.functions.map((f) => f.source),
    types: pkg.entry.typeSource ?? null,
    toolBound: entryToolBound(pkg),
    manifestTools: pkg.manifest.tools,
  };
}

function admissionHooks(m: Machine, extras: StateExtras): MachineHooks {
  return {
    admit(source: string, type: Extract<YaoType, { kind: "program" }>, span: SourceSpan): string {
      const read = readOne(source, { file: "<model program>" });
      if (!read.ok) throw failure("inference", `the model's program does not read: ${read.diagnostic.message}`, span);
      const schemas = extras.tools === null ? {} : (JSON.parse(extras.tools) as Record<string, unknown>);
      const a = extras.admission;
      const binding = extras.binding;
      // A package entry's run admits by the package's rules (the one function `yaoc admit` runs);
      // a plain program's run has no package, so only its tools bound what the model may write.
      const r =
        a === null || binding === null
          ? analyzeProgram(read.form, {
              profile: morphzProfile(toolsFromManifest(Object.keys(schemas), schemas).tools),
            })
          : admitAgainst(binding, read.form, morphzProfile(toolsFromManifest(a.manifestTools, schemas).tools));
      if (r.program === undefined) {
        const d = r.diagnostics[0];
        const against = a === null ? "" : ` against ${a.package.id} ${a.package.version} ${a.package.identity}`;
        throw failure(
          "inference",
          `the model's program is not admitted${against}: ${d === undefined ? "rejected" : `${d.code}: ${d.message}`}`,
          span,
        );
      }
      const p = r.program;
      if (!isAssignable(p.output, type.value.output) || !isEffectSubset(p.effects, type.value.effects))
        throw failure("inference", "the model's program does not have the declared Program type", span);
      const known = m.index.programs.findIndex((x) => x.hash === p.source_hash);
      if (known < 0) m.index.add(p, p.source_hash);
      return p.source_hash;
    },
  };
}

function outcomeOf(m: Machine): Outcome {
  const status = m.status();
  const r = m.root.result;
  if (status === "value" && r !== undefined && "value" in r) return { outcome: "value", value: r.value };
  if (status === "failure" && r !== undefined && "failure" in r) return { outcome: "failure", failure: r.failure };
  if (status === "running") return { outcome: "running" };
  return { outcome: "suspended", requests: [...m.pending.values()].map((p) => p.request) };
}

function finish(m: Machine, extras: StateExtras, options: RunOptions): RunResult {
  m.run(options.stepLimit);
  const result = outcomeOf(m);
  let cached: string | undefined;
  return {
    result,
    rejected: false,
    state: () => (cached ??= encodeState(m, extras, options.integrityKey)),
  };
}

function integrity(message: string, state: string): RunResult {
  return {
    result: { outcome: "failure", failure: { class: "integrity", message } },
    rejected: true,
    state: () => state,
  };
}

/**
 * Read a state back, or the `integrity` refusal that leaves it as it was: every entry point that
 * takes a state (continue, cancel, resume) starts here.
 */
function decodeOrRefuse(state: string, options: RunOptions): DecodedState | RunResult {
  try {
    return decodeState(state, options.integrityKey);
  } catch (e) {
    if (e instanceof StateError) return integrity(`corrupt machine state: ${e.message}`, state);
    throw e;
  }
}

/**
 * Start a program: a YaoProgram from the analyzer (trusted, with its program_hash), or IR JSON text
 * as `yaoc ir` prints it (re-read and its program_hash verified). Throws `StateError` when the text
 * is not a valid program or `options.runtime` is not a Yao value.
 */
export function startProgram(input: YaoProgram | string, options: RunOptions = {}): RunResult {
  let program: YaoProgram;
  let hash: string;
  const texts: string[] = [];
  if (typeof input === "string") {
    const r = readPersistedProgram(input);
    if (!r.ok) throw new StateError(r.diagnostic.message);
    program = r.program;
    hash = r.programHash;
    texts.push(input.trim());
  } else {
    // An analyzer's program carries its program_hash; recomputing it would cost as much as a
    // good part of the compilation. Text (and every state) is untrusted and verified.
    program = input;
    hash = program.source_hash;
  }
  // The runtime binding is written into every state: a value the state cannot hold (a plain
  // object, a value nested past the depth limit) would give a state that no resume reads back.
  const runtimeProblem = options.runtime === undefined ? undefined : valueProblem(options.runtime);
  if (runtimeProblem !== undefined) throw new StateError(`the runtime binding is not a Yao value: ${runtimeProblem}`);
  const index = new ProgramIndex();
  index.add(program, hash);
  const m = new Machine(index, budgetsWith(options.budgets), options.runtime ?? localRuntime());
  const extras: StateExtras = {
    programTexts: texts,
    tools: options.tools === undefined ? null : canonicalJson(options.tools),
    admission: options.package === undefined ? null : admissionText(options.package),
    binding: options.package === undefined ? null : packageBinding(options.package),
  };
  m.hooks = admissionHooks(m, extras);
  return finish(m, extras, options);
}

/** Continue a state that stopped with outcome "running" (a step limit). */
export function continueState(state: string, options: RunOptions = {}): RunResult {
  const decoded = decodeOrRefuse(state, options);
  if ("result" in decoded) return decoded;
  const { machine: m, extras } = decoded;
  m.hooks = admissionHooks(m, extras);
  // A suspended or finished machine has nothing to run: it answers as it stands, unchanged.
  if (m.status() !== "running") return { result: outcomeOf(m), rejected: false, state: () => state };
  if (options.elapsedMs !== undefined) {
    const over = m.reportElapsed(options.elapsedMs);
    if (over !== undefined) m.failReady("resource", over);
  }
  return finish(m, extras, options);
}

/**
 * Cancel a run that has not finished (semantics §10: a `cancelled` failure, never caught by
 * `fallback`): it ends at once with that failure, and every pending request is void, so a later
 * completion for one is refused. Cancelling a cancelled machine again changes nothing; a machine
 * that finished otherwise is refused as `integrity`.
 */
export function cancelState(state: string, reason = "", options: RunOptions = {}): RunResult {
  const decoded = decodeOrRefuse(state, options);
  if ("result" in decoded) return decoded;
  const { machine: m, extras } = decoded;
  const status = m.status();
  if (status === "failure" && m.root.result !== undefined && "failure" in m.root.result) {
    if (m.root.result.failure.class === "cancelled")
      return { result: outcomeOf(m), rejected: false, state: () => state };
  }
  if (status === "value" || status === "failure")
    return integrity(`the machine has finished (${status}); there is nothing to cancel`, state);
  m.cancel(reason === "" ? "the run was cancelled" : `the run was cancelled: ${reason}`);
  return finish(m, extras, options);
}

/** The completion as data, read from JSON text (`{"id","value"}`, `{"id","text"}`, `{"id","error":{"message"}}`). */
export function parseCompletion(text: string): Completion {
  let v: Value;
  try {
    v = parseEnvelopeText(text);
  } catch (e) {
    if (e instanceof ValueTextError)
      throw new CompletionError(`the completion is not valid JSON: ${e.message} at offset ${e.offset}`);
    throw e;
  }
  if (!(v instanceof Map)) throw new CompletionError("a completion is a JSON object with an id");
  const id = v.get("id");
  if (typeof id !== "string") throw new CompletionError('a completion needs a string "id"');
  const kind = v.get("kind");
  if (kind !== undefined && !REQUEST_KINDS.includes(kind as RequestKind))
    throw new CompletionError(
      `unknown request kind '${String(valueText(kind))}' (expected ${REQUEST_KINDS.join(", ")})`,
    );
  const given = ["value", "text", "error"].filter((k) => v.has(k));
  if (given.length !== 1) throw new CompletionError('a completion has exactly one of "value", "text" or "error"');
  for (const k of v.keys())
    if (!["id", "kind", "value", "text", "error", "rounds", "elapsed_ms"].includes(k))
      throw new CompletionError(`unknown completion field '${k}'`);
  const count = (name: string, least: number): number | undefined => {
    const x = v.get(name);
    if (x === undefined) return undefined;
    if (typeof x !== "bigint" || x < BigInt(least) || x > BigInt(Number.MAX_SAFE_INTEGER))
      throw new CompletionError(`"${name}" must be an integer of at least ${least}`);
    return Number(x);
  };
  const rounds = count("rounds", 1);
  const elapsedMs = count("elapsed_ms", 0);
  const base: { -readonly [K in keyof CompletionBase]: CompletionBase[K] } = { id };
  if (kind !== undefined) base.kind = kind as RequestKind;
  if (rounds !== undefined) base.rounds = rounds;
  if (elapsedMs !== undefined) base.elapsedMs = elapsedMs;
  if (v.has("value")) return { ...base, value: v.get("value")! };
  if (v.has("text")) {
    const t = v.get("text");
    if (typeof t !== "string") throw new CompletionError('"text" must be a string');
    return { ...base, text: t };
  }
  const err = v.get("error");
  if (!(err instanceof Map) || typeof err.get("message") !== "string")
    throw new CompletionError('"error" must be an object with a string "message"');
  const cls = err.get("class");
  if (cls !== undefined && (!FAILURE_CLASSES.includes(cls as FailureClass) || cls === "integrity"))
    throw new CompletionError(`"error.class" must be a failure class other than integrity`);
  return {
    ...base,
    error:
      cls === undefined
        ? { message: err.get("message") as string }
        : { message: err.get("message") as string, class: cls as FailureClass },
  };
}

export class CompletionError extends Error {}

function completionText(c: Completion): string {
  const m = new Map<string, Value>([["id", c.id]]);
  if (c.kind !== undefined) m.set("kind", c.kind);
  if (c.rounds !== undefined) m.set("rounds", BigInt(c.rounds));
  if (c.elapsedMs !== undefined) m.set("elapsed_ms", BigInt(c.elapsedMs));
  if ("value" in c) m.set("value", c.value);
  else if ("text" in c) m.set("text", c.text);
  else {
    const e = new Map<string, Value>([["message", c.error.message]]);
    if (c.error.class !== undefined) e.set("class", c.error.class);
    m.set("error", e);
  }
  return valueText(m);
}

/**
 * What is wrong with a completion built in JavaScript rather than read by `parseCompletion`, or
 * undefined: refused before it can reach the state, which would otherwise hold text that does not
 * read back (a plain object as a value, a NaN count).
 */
function completionProblem(c: Completion): string | undefined {
  if (typeof c.id !== "string") return 'a completion needs a string "id"';
  if (c.kind !== undefined && !REQUEST_KINDS.includes(c.kind)) return `unknown request kind '${String(c.kind)}'`;
  if (c.rounds !== undefined && !(Number.isSafeInteger(c.rounds) && c.rounds >= 1))
    return '"rounds" must be an integer of at least 1';
  if (c.elapsedMs !== undefined && !(Number.isSafeInteger(c.elapsedMs) && c.elapsedMs >= 0))
    return '"elapsedMs" must be an integer of at least 0';
  if ("value" in c) {
    const p = valueProblem(c.value);
    return p === undefined ? undefined : `the completion's value is not a Yao value: ${p}`;
  }
  if ("text" in c) return typeof c.text === "string" ? undefined : '"text" must be a string';
  if ("error" in c && typeof c.error?.message === "string") {
    const cls = c.error.class;
    return cls === undefined || FAILURE_CLASSES.includes(cls) ? undefined : `unknown failure class '${String(cls)}'`;
  }
  return 'a completion has exactly one of "value", "text" or "error" (with a string "message")';
}

/** Resume a suspended state with one completion. */
export function resumeState(state: string, completion: Completion, options: RunOptions = {}): RunResult {
  const problem = completionProblem(completion);
  if (problem !== undefined) return integrity(`the completion is refused: ${problem}`, state);
  const decoded = decodeOrRefuse(state, options);
  if ("result" in decoded) return decoded;
  const { machine: m, extras } = decoded;
  m.hooks = admissionHooks(m, extras);
  const text = completionText(completion);
  const done = m.completed.get(completion.id);
  if (done !== undefined) {
    if (done === text) {
      // An exact duplicate changes nothing and answers as the machine stands.
      return { result: outcomeOf(m), rejected: false, state: () => state };
    }
    return integrity(`request ${completion.id} was already completed with a different answer`, state);
  }
  const status = m.status();
  if (status === "value" || status === "failure")
    return integrity(`the machine has finished (${status}); no completion is expected`, state);
  const p = m.pending.get(completion.id);
  if (p === undefined)
    return integrity(
      `completion ${completion.id} is for no pending request of this machine (foreign or stale); pending: ${[...m.pending.keys()].join(", ") || "none"}`,
      state,
    );
  if (completion.kind !== undefined && completion.kind !== p.kind)
    return integrity(`request ${completion.id} is a ${p.kind} request, not ${completion.kind}`, state);
  if ("text" in completion && p.kind !== "infer")
    return integrity(`only an infer request is completed with "text"; ${completion.id} is a ${p.kind} request`, state);
  if (completion.rounds !== undefined && p.kind !== "infer")
    return integrity(`only an infer completion reports model rounds; ${completion.id} is a ${p.kind} request`, state);
  m.completed.set(completion.id, text);
  // Budgets the host reports on: the deadline first (it ends the waiting thread whatever the answer).
  const late = completion.elapsedMs === undefined ? undefined : m.reportElapsed(completion.elapsedMs);
  if (late !== undefined) m.complete(completion.id, { error: { class: "resource", message: late } });
  else if (completion.rounds !== undefined && completion.rounds > m.budgets.modelRounds)
    m.complete(completion.id, {
      error: {
        class: "resource",
        message: `the infer took ${completion.rounds} model rounds; the model round budget is ${m.budgets.modelRounds}`,
      },
    });
  else if ("error" in completion) {
    const cls = completion.error.class ?? DEFAULT_ERROR_CLASS[p.kind];
    m.complete(completion.id, { error: { class: cls, message: completion.error.message } });
  } else if ("text" in completion) m.complete(completion.id, { text: completion.text });
  else m.complete(completion.id, { value: completion.value });
  return finish(m, extras, options);
}

export { programJson };
