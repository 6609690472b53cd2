/**
 * The deterministic evaluation machine (Yao Evaluation Semantics §4–§8). It is a continuation
 * machine: each thread holds an explicit stack of frames and one control register (evaluate node
 * N in scope S, return value V, or unwind failure F), so every point between two steps is plain
 * data that state.ts can write and read back. It advances without I/O until a value, a classified
 * failure or a set of pending effect requests; it never calls a tool, a model or the host.
 *
 * Scopes are a chain (a branch, a `map` body or a `match` case gets a child scope, so copying an
 * environment is O(1)); `bind` refuses a name visible anywhere in the chain, as the reference's
 * cloned environment does. `par` with effectful branches runs each branch as its own thread, all
 * started before any request is returned; the join is in source order.
 */
import type { SourceSpan } from "../../ir/span.js";
import type { HirExpr, HirKind, YaoType } from "../../ir/yao-ir-0.1.js";
import { encodeExpr, encodeType, encodeTypeDefinition } from "../yao/ir-json.js";
import type { JValue } from "../yao/json-text.js";
import { JObject } from "../yao/json-text.js";
import { BUDGET_WORDS, type Budgets } from "./budgets.js";
import { decodeValue, fromPlainJson, toPlainJson, type TypeTable } from "./decode.js";
import { Failure, failure, isCatchable, type BranchOutcome, type EvalFailure, type FailureClass } from "./failures.js";
import { jsonSchema, type SchemaValue } from "./json-schema.js";
import type { ProgramIndex } from "./program-index.js";
import { requestId, type EffectRequest, type RequestKind } from "./requests.js";
import { parseValueText, ValueTextError } from "./value-text.js";
import {
  I64_MAX,
  I64_MIN,
  MAX_VALUE_DEPTH,
  optionNone,
  optionSome,
  readField,
  resultOf,
  structuralRecord,
  tagged,
  yaoTag,
  valueDepth,
  valueEquals,
  type Value,
} from "./values.js";

export class Scope {
  readonly vars = new Map<string, Value>();
  constructor(
    readonly parent: Scope | null,
    /** Program Value nesting depth of the code running in this scope. */
    readonly depth: number,
  ) {}

  lookup(name: string): Value | undefined {
    for (let s: Scope | null = this; s !== null; s = s.parent) {
      const v = s.vars.get(name);
      if (v !== undefined) return v;
    }
    return undefined;
  }
}

export type Frame =
  /** Children `kids[0..count)` are evaluated into `vals`, then the node is applied. */
  | { t: "args"; n: number; s: Scope; vals: Value[] }
  | { t: "logic"; n: number; s: Scope; i: number }
  | { t: "seq"; n: number; s: Scope; i: number }
  | { t: "if"; n: number; s: Scope }
  | { t: "match"; n: number; s: Scope }
  | { t: "fallback"; n: number; s: Scope }
  | { t: "map"; n: number; s: Scope; items: readonly Value[] | null; acc: Value[] }
  /** A `par` whose branches are pure: evaluated one after another, like the reference. */
  | { t: "parseq"; n: number; s: Scope; acc: Value[] }
  /** A `par` with effectful branches, waiting for its branch threads. */
  | { t: "par"; n: number; s: Scope; threads: Thread[] }
  /** Waiting for the completion of request `id`. */
  | { t: "wait"; n: number; s: Scope; id: string }
  /** A child program (`run`) is evaluating above this frame. */
  | { t: "child"; n: number };

export type Control =
  | { readonly m: "eval"; readonly n: number; readonly s: Scope }
  | { readonly m: "ret"; readonly v: Value }
  | { readonly m: "fail"; readonly f: EvalFailure };

export class Thread {
  stack: Frame[] = [];
  /** Undefined while blocked (waiting for a completion or for branch threads). */
  control: Control | undefined;
  /** Set once the thread is terminal (its stack is empty). */
  result: { readonly value: Value } | { readonly failure: EvalFailure } | undefined;
  constructor(
    /** "0" for the root, "0.2" for branch 2 of a `par` in it. */
    readonly id: string,
    /** The branch name, for the join. */
    readonly name: string,
    readonly parent: Thread | null,
  ) {}
}

export interface Used {
  steps: number;
  toolEffects: number;
  inferEffects: number;
  branches: number;
  /** The largest elapsed time (ms since the run started) the host has reported. */
  elapsedMs: number;
}

export type Status = "running" | "suspended" | "value" | "failure";

/** An effect request under construction, with the thread that waits for it. */
export interface Pending {
  readonly request: EffectRequest;
  readonly kind: RequestKind;
  readonly thread: Thread;
}

const spanOf = (e: HirExpr): SourceSpan => e.span;

function jvalueToValue(v: JValue): Value {
  if (v instanceof JObject) {
    const m = new Map<string, Value>();
    for (const [k, x] of v.entries) m.set(k, jvalueToValue(x));
    return m;
  }
  if (Array.isArray(v)) return v.map(jvalueToValue);
  return v;
}

function schemaToValue(v: SchemaValue): Value {
  if (v === null || typeof v === "boolean" || typeof v === "string" || typeof v === "bigint") return v;
  if (typeof v === "number") return BigInt(v);
  if (Array.isArray(v)) return v.map(schemaToValue);
  const m = new Map<string, Value>();
  for (const [k, x] of Object.entries(v)) m.set(k, schemaToValue(x));
  return m;
}

function spanValue(s: SourceSpan): Value {
  const pos = (p: SourceSpan["start"]) =>
    new Map<string, Value>([
      ["byte", BigInt(p.byte)],
      ["line", BigInt(p.line)],
      ["column", BigInt(p.column)],
    ]);
  return new Map<string, Value>([
    ["start", pos(s.start)],
    ["end", pos(s.end)],
  ]);
}

function literal(e: HirExpr): Value {
  const k = e.kind as Extract<HirKind, { op: "literal" }>;
  const lit = k.value;
  switch (lit.kind) {
    case "nil":
      return null;
    case "bool":
      return lit.value;
    case "int":
      return lit.value;
    case "string":
      return lit.value;
    case "float": {
      const x = Number(lit.value);
      if (Number.isNaN(x)) throw failure("value", `invalid Float literal '${lit.value}'`, e.span);
      if (!Number.isFinite(x)) throw failure("value", "Float literal is not finite", e.span);
      return x;
    }
  }
}

function asBool(v: Value, e: HirExpr): boolean {
  if (typeof v !== "boolean") throw failure("value", "boolean operator received a non-Bool value", e.span);
  return v;
}

function compare(op: string, a: Value, b: Value, e: HirExpr): boolean {
  let c: number;
  const num = (x: Value): number | undefined =>
    typeof x === "number" ? x : typeof x === "bigint" ? Number(x) : undefined;
  const x = num(a);
  const y = num(b);
  if (x !== undefined && y !== undefined) {
    // Two Ints compare exactly; anything with a Float compares as doubles (the reference's as_f64).
    c = typeof a === "bigint" && typeof b === "bigint" ? (a < b ? -1 : a > b ? 1 : 0) : x < y ? -1 : x > y ? 1 : 0;
  } else if (typeof a === "string" && typeof b === "string") {
    // Rust compares strings by bytes, which is code point order.
    c = compareCodePointStrings(a, b);
  } else throw failure("value", "ordered comparison received incomparable values", e.span);
  switch (op) {
    case "less":
      return c < 0;
    case "less_equal":
      return c <= 0;
    case "greater":
      return c > 0;
    default:
      return c >= 0;
  }
}

function compareCodePointStrings(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    const cx = x.value.codePointAt(0)!;
    const cy = y.value.codePointAt(0)!;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

function numeric(op: string, vals: readonly Value[], e: HirExpr): Value {
  if (op !== "divide" && vals.every((v) => typeof v === "bigint")) {
    const ints = vals as bigint[];
    let r: bigint;
    if (op === "add") r = ints.reduce((a, b) => a + b, 0n);
    else if (op === "subtract") r = ints[0]! - ints[1]!;
    else r = ints.reduce((a, b) => a * b, 1n);
    // Checked at every partial result, as try_fold with checked_* does.
    if (op !== "subtract") {
      let acc = op === "add" ? 0n : 1n;
      for (const i of ints) {
        acc = op === "add" ? acc + i : acc * i;
        if (acc < I64_MIN || acc > I64_MAX) throw failure("value", "integer arithmetic overflow", e.span);
      }
    }
    if (r < I64_MIN || r > I64_MAX) throw failure("value", "integer arithmetic overflow", e.span);
    return r;
  }
  const nums = vals.map((v) => {
    if (typeof v === "number") return v;
    if (typeof v === "bigint") return Number(v);
    throw failure("value", "numeric operator received a non-number", e.span);
  });
  if (op === "divide" && nums[1] === 0) throw failure("value", "division by zero", e.span);
  let r: number;
  if (op === "add") r = nums.reduce((a, b) => a + b, 0);
  else if (op === "subtract") r = nums[0]! - nums[1]!;
  else if (op === "multiply") r = nums.reduce((a, b) => a * b, 1);
  else r = nums[0]! / nums[1]!;
  if (!Number.isFinite(r)) throw failure("value", "floating-point result is not finite", e.span);
  return r;
}

/**
 * `v`, unless it nests deeper than a value may (values.ts MAX_VALUE_DEPTH): then a `resource`
 * failure at the node that built it. Every value the machine holds passes here when it is built,
 * so every state it writes reads back. A container's depth is cached, so this costs the new
 * container's own children, not a walk of the whole value.
 */
function withinDepth<V extends Value>(v: V, span: SourceSpan): V {
  if (v === null || typeof v !== "object") return v;
  const d = valueDepth(v);
  if (d > MAX_VALUE_DEPTH)
    throw failure("resource", `a value may nest at most ${MAX_VALUE_DEPTH} deep; this one would nest ${d} deep`, span);
  return v;
}

/** Which children an `args` frame evaluates before the node is applied. */
function argCount(e: HirExpr, kids: readonly number[]): number {
  return e.kind.op === "function_application" ? kids.length - 1 : kids.length;
}

const ARGS_OPS = new Set<string>([
  "list",
  "dict",
  "record",
  "variant",
  "option_some",
  "result_ok",
  "result_err",
  "evidence_candidate",
  "outcome_candidate",
  "context_transaction",
  "from_json",
  "to_json",
  "get",
  "decode",
  "is",
  "bind",
  "call",
  "host",
  "run",
  "function_application",
  "pure",
]);

/**
 * A model's answer that cannot be used is an `inference` failure, which `fallback` may catch; but an
 * integrity, authority or cancellation failure raised while reading it keeps its class, so it never
 * becomes program data (§10).
 */
function asInference(x: unknown, span: SourceSpan): unknown {
  if (!(x instanceof Failure)) return x;
  if (!isCatchable(x.failure.class)) return x.failure.span === undefined ? new Failure({ ...x.failure, span }) : x;
  return failure("inference", x.failure.message, span);
}

/** The uncatchable classes, most severe first: the class a join takes when a branch failed with one. */
const UNCATCHABLE_ORDER: readonly FailureClass[] = ["integrity", "authority", "cancelled"];

export interface MachineHooks {
  /** Admit model-written Yao source as a Program Value of `type`; returns its hash, or throws a Failure. */
  admit?(source: string, type: Extract<YaoType, { kind: "program" }>, span: SourceSpan): string;
}

export class Machine {
  seq = 0;
  readonly used: Used = { steps: 0, toolEffects: 0, inferEffects: 0, branches: 0, elapsedMs: 0 };
  readonly pending = new Map<string, Pending>();
  /** Completed request id → canonical text of the completion, for idempotent duplicates. */
  readonly completed = new Map<string, string>();
  /** Threads to run, first first. */
  ready: Thread[] = [];
  root: Thread;
  hooks: MachineHooks = {};

  constructor(
    readonly index: ProgramIndex,
    readonly budgets: Budgets,
    readonly runtime: Value,
    root?: Thread,
    /** False for check-time evaluation of a static expression: no `runtime` binding is visible. */
    bindRuntime = true,
  ) {
    if (root !== undefined) this.root = root;
    else {
      this.root = new Thread("0", "", null);
      const s = new Scope(null, 0);
      if (bindRuntime) s.vars.set("runtime", runtime);
      this.root.control = { m: "eval", n: index.programs[0]!.root, s };
      this.ready.push(this.root);
    }
  }

  get programHash(): string {
    return this.index.programs[0]!.hash;
  }

  status(): Status {
    if (this.root.result !== undefined) return "value" in this.root.result ? "value" : "failure";
    return this.ready.length > 0 ? "running" : "suspended";
  }

  private types(n: number): TypeTable {
    return this.index.programOf(n).program.types;
  }

  /** Run ready threads for at most `limit` steps (the whole way by default). */
  run(limit = Number.POSITIVE_INFINITY): Status {
    let slice = 0;
    while (this.ready.length > 0) {
      const t = this.ready[0]!;
      while (t.control !== undefined) {
        if (slice >= limit) return "running";
        slice++;
        this.step(t);
      }
      this.ready.shift();
      if (t.result !== undefined) this.finished(t);
    }
    return this.status();
  }

  /** The span of the node a thread stands at: the one it evaluates, or the one its top frame belongs to. */
  private spanAt(t: Thread): SourceSpan | undefined {
    const c = t.control;
    if (c?.m === "eval") return this.index.node(c.n)!.span;
    const top = t.stack[t.stack.length - 1];
    return top === undefined ? undefined : this.index.node(top.n)!.span;
  }

  /**
   * Record the elapsed time the host reports (ms since the run started; the largest report wins,
   * so a worker with a slower clock cannot give time back). Returns the resource failure message
   * when the elapsed-time budget is exhausted.
   */
  reportElapsed(ms: number): string | undefined {
    if (ms > this.used.elapsedMs) this.used.elapsedMs = ms;
    const limit = this.budgets.elapsedMs;
    if (limit === null || this.used.elapsedMs <= limit) return undefined;
    return `the ${BUDGET_WORDS.elapsedMs} budget of ${limit} ms is exhausted (${this.used.elapsedMs} ms elapsed)`;
  }

  /** Every ready thread fails where it stands with `f` (an exhausted deadline before a continue). */
  failReady(cls: EvalFailure["class"], message: string): void {
    for (const t of this.ready) {
      const span = this.spanAt(t);
      t.control = { m: "fail", f: span === undefined ? { class: cls, message } : { class: cls, message, span } };
    }
  }

  /**
   * Cancel the run (semantics §7.3, §10): the failure is not catchable, so the root ends with it
   * at once; every branch and pending request goes with it. The span is where the machine stood:
   * the first pending request's node, or the root's current node.
   */
  cancel(message: string): void {
    const first = [...this.pending.values()].sort(
      (a, b) => Number(a.request.get("sequence")) - Number(b.request.get("sequence")),
    )[0];
    const span =
      first !== undefined
        ? this.spanAt(first.thread)
        : (this.spanAt(this.root) ?? this.index.node(this.index.programs[0]!.root)!.span);
    const f: EvalFailure = span === undefined ? { class: "cancelled", message } : { class: "cancelled", message, span };
    this.root.stack = [];
    this.root.control = undefined;
    this.root.result = { failure: f };
    this.pending.clear();
    this.ready = [];
  }

  /** A terminal branch thread may complete its `par`. */
  private finished(t: Thread): void {
    const parent = t.parent;
    if (parent === null) return;
    const frame = parent.stack[parent.stack.length - 1];
    if (frame?.t !== "par" || !frame.threads.every((x) => x.result !== undefined)) return;
    parent.stack.pop();
    // The branches are joined: they no longer count against the simultaneously scheduled ones.
    this.used.branches -= frame.threads.length;
    const e = this.index.node(frame.n)!;
    const failed = frame.threads.filter((x) => x.result !== undefined && "failure" in x.result);
    if (failed.length === 0) {
      const v = structuralRecord(frame.threads.map((x) => [x.name, (x.result as { value: Value }).value] as const));
      try {
        parent.control = { m: "ret", v: withinDepth(v, e.span) };
      } catch (x) {
        if (!(x instanceof Failure)) throw x;
        parent.control = { m: "fail", f: x.failure };
      }
    } else {
      const branches: BranchOutcome[] = frame.threads.map((x) =>
        "failure" in x.result!
          ? { name: x.name, status: "failed", class: x.result.failure.class, message: x.result.failure.message }
          : { name: x.name, status: "succeeded" },
      );
      const words = branches
        .map((b) => (b.status === "failed" ? `'${b.name}' failed (${b.class}: ${b.message})` : `'${b.name}' succeeded`))
        .join(", ");
      // A branch failure that fallback never catches keeps the join uncatchable (§10: an integrity
      // or authority failure never becomes program data): the joined failure takes its class.
      const classes = failed.map((x) => (x.result as { failure: EvalFailure }).failure.class);
      const cls = UNCATCHABLE_ORDER.find((c) => classes.includes(c)) ?? "parallel";
      parent.control = {
        m: "fail",
        f: { class: cls, message: `par branches failed: ${words}`, span: e.span, branches },
      };
    }
    this.ready.unshift(parent);
  }

  private step(t: Thread): void {
    const c = t.control!;
    try {
      if (c.m === "eval") this.evaluate(t, c.n, c.s);
      else if (c.m === "ret") this.resumeFrame(t, c.v);
      else this.unwind(t, c.f);
    } catch (e) {
      if (e instanceof Failure) t.control = { m: "fail", f: e.failure };
      else throw e;
    }
  }

  private spend(what: "steps" | "toolEffects" | "inferEffects" | "branches", n: number, e: HirExpr): void {
    if (this.used[what] + n > this.budgets[what]) {
      throw failure("resource", `the ${BUDGET_WORDS[what]} budget of ${this.budgets[what]} is exhausted`, e.span);
    }
    this.used[what] += n;
  }

  private evaluate(t: Thread, n: number, s: Scope): void {
    const e = this.index.node(n)!;
    this.spend("steps", 1, e);
    const k = e.kind;
    const kids = this.index.kids(n);
    if (ARGS_OPS.has(k.op) && !(k.op === "pure" && (k.operator === "and" || k.operator === "or"))) {
      if (argCount(e, kids) === 0) {
        this.apply(t, n, s, []);
        return;
      }
      t.stack.push({ t: "args", n, s, vals: [] });
      t.control = { m: "eval", n: kids[0]!, s };
      return;
    }
    switch (k.op) {
      case "literal":
        t.control = { m: "ret", v: literal(e) };
        return;
      case "reference": {
        let v = s.lookup(k.root);
        if (v === undefined) throw failure("value", `binding '${k.root}' is unavailable at runtime`, e.span);
        for (const f of k.path ?? []) {
          const next = readField(v, f);
          if (next === undefined) throw failure("value", `value at '$${k.root}' has no field '${f}'`, e.span);
          v = next;
        }
        t.control = { m: "ret", v };
        return;
      }
      case "option_none":
        t.control = { m: "ret", v: optionNone() };
        return;
      case "pure":
        t.stack.push({ t: "logic", n, s, i: 0 });
        t.control = { m: "eval", n: kids[0]!, s };
        return;
      case "seq":
        if (kids.length === 0) {
          t.control = { m: "ret", v: null };
          return;
        }
        t.stack.push({ t: "seq", n, s, i: 0 });
        t.control = { m: "eval", n: kids[0]!, s };
        return;
      case "if":
        t.stack.push({ t: "if", n, s });
        t.control = { m: "eval", n: kids[0]!, s };
        return;
      case "match":
        t.stack.push({ t: "match", n, s });
        t.control = { m: "eval", n: kids[0]!, s };
        return;
      case "fallback":
        t.stack.push({ t: "fallback", n, s });
        t.control = { m: "eval", n: kids[0]!, s: new Scope(s, s.depth) };
        return;
      case "map":
        t.stack.push({ t: "map", n, s, items: null, acc: [] });
        t.control = { m: "eval", n: kids[0]!, s };
        return;
      case "infer_body":
        this.emitInfer(t, n, s);
        return;
      case "par": {
        if (e.effects.length === 0) {
          t.stack.push({ t: "parseq", n, s, acc: [] });
          t.control = { m: "eval", n: kids[0]!, s: new Scope(s, s.depth) };
          return;
        }
        this.spend("branches", kids.length, e);
        const threads = k.branches.map((b, i) => {
          const child = new Thread(`${t.id}.${i}`, b.name, t);
          child.control = { m: "eval", n: kids[i]!, s: new Scope(s, s.depth) };
          return child;
        });
        t.stack.push({ t: "par", n, s, threads });
        t.control = undefined;
        // Every branch starts before the parent continues: they run next, in source order.
        // Rebuilt rather than spliced with a spread: a wide `par` must not hit the argument limit.
        this.ready = [this.ready[0]!, ...threads, ...this.ready.slice(1)];
        return;
      }
      default:
        throw failure("integrity", `unexpected IR node '${k.op}'`, e.span);
    }
  }

  /** Continue the top frame with the value just computed. */
  private resumeFrame(t: Thread, v: Value): void {
    const f = t.stack.pop();
    if (f === undefined) {
      t.result = { value: v };
      t.control = undefined;
      return;
    }
    const e = this.index.node(f.n)!;
    const kids = this.index.kids(f.n);
    switch (f.t) {
      case "args": {
        f.vals.push(v);
        if (f.vals.length < argCount(e, kids)) {
          t.stack.push(f);
          t.control = { m: "eval", n: kids[f.vals.length]!, s: f.s };
        } else this.apply(t, f.n, f.s, f.vals);
        return;
      }
      case "logic": {
        const k = e.kind as Extract<HirKind, { op: "pure" }>;
        const b = asBool(v, e);
        const decided = k.operator === "and" ? !b : b;
        if (decided || f.i + 1 >= kids.length) {
          t.control = { m: "ret", v: k.operator === "and" ? !decided : decided };
          return;
        }
        f.i++;
        t.stack.push(f);
        t.control = { m: "eval", n: kids[f.i]!, s: f.s };
        return;
      }
      case "seq":
        if (f.i + 1 >= kids.length) {
          t.control = { m: "ret", v };
          return;
        }
        f.i++;
        t.stack.push(f);
        t.control = { m: "eval", n: kids[f.i]!, s: f.s };
        return;
      case "if":
        if (typeof v !== "boolean") throw failure("value", "if condition was not Bool after type checking", e.span);
        t.control = { m: "eval", n: kids[v ? 1 : 2]!, s: new Scope(f.s, f.s.depth) };
        return;
      case "match": {
        const k = e.kind as Extract<HirKind, { op: "match" }>;
        const tag = yaoTag(v);
        const variant = tag?.get("kind") === "variant" ? tag.get("variant") : undefined;
        const fields = tag?.get("fields");
        if (typeof variant !== "string" || !(fields instanceof Map))
          throw failure("value", "match value is not a Yao union variant", e.span);
        const at = k.cases.findIndex((c) => c.variant === variant);
        if (at < 0) throw failure("value", `no match case for variant '${variant}'`, e.span);
        const c = k.cases[at]!;
        const scope = new Scope(f.s, f.s.depth);
        for (const b of c.bindings) {
          const x = fields.get(b.field);
          if (x === undefined) throw failure("value", `variant '${c.variant}' is missing field '${b.field}'`, c.span);
          scope.vars.set(b.binding, x);
        }
        t.control = { m: "eval", n: kids[1 + at]!, s: scope };
        return;
      }
      case "fallback":
        t.control = { m: "ret", v };
        return;
      case "map": {
        const k = e.kind as Extract<HirKind, { op: "map" }>;
        if (f.items === null) {
          if (!Array.isArray(v)) throw failure("value", "map collection was not a List after type checking", e.span);
          if (v.length > this.budgets.mapElements)
            throw failure(
              "resource",
              `map collection has ${v.length} elements; the map element budget is ${this.budgets.mapElements}`,
              e.span,
            );
          f.items = v;
        } else f.acc.push(v);
        if (f.acc.length >= f.items.length) {
          t.control = { m: "ret", v: withinDepth(f.acc, e.span) };
          return;
        }
        const scope = new Scope(f.s, f.s.depth);
        scope.vars.set(k.element, f.items[f.acc.length]!);
        t.stack.push(f);
        t.control = { m: "eval", n: kids[1]!, s: scope };
        return;
      }
      case "parseq": {
        const k = e.kind as Extract<HirKind, { op: "par" }>;
        f.acc.push(v);
        if (f.acc.length >= kids.length) {
          const v = structuralRecord(k.branches.map((b, i) => [b.name, f.acc[i]!] as const));
          t.control = { m: "ret", v: withinDepth(v, e.span) };
          return;
        }
        t.stack.push(f);
        t.control = { m: "eval", n: kids[f.acc.length]!, s: new Scope(f.s, f.s.depth) };
        return;
      }
      case "child":
        t.control = { m: "ret", v };
        return;
      case "par":
      case "wait":
        throw failure("integrity", `a value reached a ${f.t} frame`, e.span);
    }
  }

  private unwind(t: Thread, f: EvalFailure): void {
    const top = t.stack.pop();
    if (top === undefined) {
      t.result = { failure: f };
      t.control = undefined;
      return;
    }
    if (top.t === "fallback" && isCatchable(f.class)) {
      const kids = this.index.kids(top.n);
      t.control = { m: "eval", n: kids[1]!, s: new Scope(top.s, top.s.depth) };
    }
    // Otherwise keep unwinding: the failure stays in the control register.
  }

  private apply(t: Thread, n: number, s: Scope, vals: Value[]): void {
    const e = this.index.node(n)!;
    const k = e.kind;
    // Whatever a node builds (a list, a record, a decoded value…) is checked for depth here.
    const ret = (v: Value) => {
      t.control = { m: "ret", v: withinDepth(v, e.span) };
    };
    switch (k.op) {
      case "list":
        return ret(vals);
      case "dict":
        return ret(new Map(k.entries.map(([name], i) => [name, vals[i]!] as const)));
      case "record":
        return ret(
          tagged([
            ["kind", "record"],
            ["type", k.type_name],
            ["fields", new Map(k.fields.map(([name], i) => [name, vals[i]!] as const))],
          ]),
        );
      case "variant":
        return ret(
          tagged([
            ["kind", "variant"],
            ["type", k.type_name],
            ["fields", new Map(k.fields.map(([name], i) => [name, vals[i]!] as const))],
            ["variant", k.variant],
          ]),
        );
      case "option_some":
        return ret(optionSome(vals[0]!));
      case "result_ok":
        return ret(resultOf("ok", vals[0]!));
      case "result_err":
        return ret(resultOf("err", vals[0]!));
      case "evidence_candidate":
        return ret(
          tagged([
            ["kind", "evidence_candidate"],
            ["evidence_kind", vals[0]!],
            ["value", vals[1]!],
            ["refs", vals.slice(2)],
          ]),
        );
      case "outcome_candidate":
        return ret(
          tagged([
            ["kind", "outcome_candidate"],
            ["status", k.status],
            ["value", vals[0]!],
            ["evidence", vals.slice(1)],
          ]),
        );
      case "context_transaction":
        return ret(
          tagged([
            ["kind", "context_transaction"],
            ["context", vals[0]!],
            ["canonical_source", k.canonical_source],
          ]),
        );
      case "from_json":
        return ret(fromPlainJson(k.target, vals[0]!, this.types(n), e.span));
      case "to_json":
        return ret(toPlainJson(k.value.ty, vals[0]!, this.types(n), e.span));
      case "get": {
        const v = readField(vals[0]!, k.field);
        if (v === undefined) throw failure("value", `value has no field '${k.field}'`, e.span);
        return ret(v);
      }
      case "decode":
        return ret(decodeValue(k.target, vals[0]!, this.types(n), e.span));
      case "is":
        try {
          decodeValue(k.target, vals[0]!, this.types(n), e.span);
          return ret(true);
        } catch (x) {
          if (x instanceof Failure) return ret(false);
          throw x;
        }
      case "pure":
        switch (k.operator) {
          case "equal":
            return ret(valueEquals(vals[0]!, vals[1]!));
          case "not_equal":
            return ret(!valueEquals(vals[0]!, vals[1]!));
          case "less":
          case "less_equal":
          case "greater":
          case "greater_equal":
            return ret(compare(k.operator, vals[0]!, vals[1]!, e));
          case "not":
            return ret(!asBool(vals[0]!, e));
          default:
            return ret(numeric(k.operator, vals, e));
        }
      case "bind":
        if (s.lookup(k.name) !== undefined) throw failure("value", `binding '${k.name}' was overwritten`, e.span);
        s.vars.set(k.name, vals[0]!);
        return ret(null);
      case "function_application": {
        const local = new Scope(null, s.depth);
        const runtime = s.lookup("runtime");
        if (runtime !== undefined) local.vars.set("runtime", runtime);
        const given = new Map<string, Value>();
        let i = 0;
        for (const a of k.arguments) {
          if (a.values.length !== 1)
            throw failure(
              "value",
              `function '${k.function}' argument '${a.name}' does not contain exactly one value`,
              e.span,
            );
          given.set(a.name, vals[i++]!);
        }
        for (const p of k.parameters) {
          const v = given.get(p);
          if (v === undefined)
            throw failure("value", `function '${k.function}' is missing linked argument '${p}'`, e.span);
          given.delete(p);
          local.vars.set(p, v);
        }
        const extra = given.keys().next();
        if (!extra.done)
          throw failure(
            "value",
            `function '${k.function}' received unexpected linked argument '${extra.value}'`,
            e.span,
          );
        const kids = this.index.kids(n);
        t.control = { m: "eval", n: kids[kids.length - 1]!, s: local };
        return;
      }
      case "call":
      case "host": {
        const args = new Map<string, Value>();
        let i = 0;
        for (const a of k.arguments) {
          const values = vals.slice(i, i + a.values.length);
          i += a.values.length;
          args.set(a.name, values.length === 1 ? values[0]! : values);
        }
        if (k.op === "call") {
          this.spend("toolEffects", 1, e);
          this.emit(t, n, s, "tool", [
            ["tool", k.tool],
            ["arguments", args],
          ]);
        } else
          this.emit(t, n, s, "host", [
            ["operation", k.operation],
            ["arguments", args],
            ["result", jvalueToValue(encodeType(e.ty))],
          ]);
        return;
      }
      case "run": {
        const tag = yaoTag(vals[0]!);
        const hash = tag?.get("hash");
        if (tag?.get("kind") !== "program" || typeof hash !== "string")
          throw failure("value", "run operand is not a Program Value", e.span);
        const p = this.index.programs.findIndex((x, i) => i > 0 && x.hash === hash);
        if (p < 0) throw failure("integrity", `Program Value ${hash} was not admitted by this machine`, e.span);
        if (s.depth + 1 > this.budgets.nesting)
          throw failure(
            "resource",
            `the ${BUDGET_WORDS.nesting} budget of ${this.budgets.nesting} is exhausted`,
            e.span,
          );
        const child = this.index.programs[p]!.program;
        this.emit(t, n, s, "program", [
          ["hash", hash],
          ["output", jvalueToValue(encodeType(child.output))],
          [
            "effects",
            jvalueToValue(encodeType({ kind: "program", value: { output: child.output, effects: child.effects } })),
          ],
        ]);
        return;
      }
      default:
        throw failure("integrity", `unexpected IR node '${k.op}'`, e.span);
    }
  }

  private emitInfer(t: Thread, n: number, s: Scope): void {
    const e = this.index.node(n)!;
    const k = e.kind as Extract<HirKind, { op: "infer_body" }>;
    this.spend("inferEffects", 1, e);
    const captures = new Map<string, Value>();
    for (const name of k.captures) {
      const v = s.lookup(name);
      if (v === undefined) throw failure("value", `captured binding '${name}' is unavailable at runtime`, e.span);
      captures.set(name, v);
    }
    const program = this.index.programOf(n).program;
    const types = new Map<string, Value>();
    for (const [name, def] of program.types) types.set(name, jvalueToValue(encodeTypeDefinition(def)));
    const fields: [string, Value][] = [
      ["body", jvalueToValue(encodeExpr(k.body))],
      ["captures", captures],
      ["result", jvalueToValue(encodeType(k.result))],
      ["source", k.source],
      ["types", types],
    ];
    if (k.result.kind !== "program") fields.push(["schema", schemaToValue(jsonSchema(k.result, program.types))]);
    // The ceiling the host's model loop must stay within; it reports the rounds it took.
    fields.push(["model_rounds", BigInt(this.budgets.modelRounds)]);
    this.emit(t, n, s, "infer", fields);
  }

  private emit(t: Thread, n: number, s: Scope, kind: RequestKind, fields: [string, Value][]): void {
    const e = this.index.node(n)!;
    // A request is a value too, one level above its fields (its span is 2 deep): one that would nest
    // too deep fails here, before it takes a sequence number.
    withinDepth(new Map(fields), e.span);
    const sequence = ++this.seq;
    const id = requestId(this.programHash, sequence);
    const request = new Map<string, Value>([
      ["id", id],
      ["kind", kind],
      ["sequence", BigInt(sequence)],
      ["program_hash", this.programHash],
      ["span", spanValue(spanOf(e))],
      ...fields,
    ]);
    this.pending.set(id, { request, kind, thread: t });
    t.stack.push({ t: "wait", n, s, id });
    t.control = undefined;
  }

  /**
   * Feed one completion to the thread waiting for it. The caller has checked the id and kind; this
   * decodes the answer into the node's type (or the failure it implies) and makes the thread ready.
   */
  complete(id: string, answer: { value: Value } | { text: string } | { error: EvalFailure }): void {
    const p = this.pending.get(id)!;
    const t = p.thread;
    const frame = t.stack.pop() as Extract<Frame, { t: "wait" }>;
    const e = this.index.node(frame.n)!;
    this.pending.delete(id);
    this.ready.push(t);
    if ("error" in answer) {
      t.control = { m: "fail", f: { ...answer.error, span: e.span } };
      return;
    }
    try {
      t.control = this.accept(t, frame, e, answer, p.request);
    } catch (x) {
      if (x instanceof Failure) t.control = { m: "fail", f: x.failure };
      else throw x;
    }
  }

  private accept(
    t: Thread,
    frame: Extract<Frame, { t: "wait" }>,
    e: HirExpr,
    answer: { value: Value } | { text: string },
    request: EffectRequest,
  ): Control {
    const k = e.kind;
    const types = this.types(frame.n);
    switch (k.op) {
      case "call":
        if ("text" in answer) throw failure("integrity", "a tool completion gives a value, not text", e.span);
        return { m: "ret", v: answer.value };
      case "host":
        if ("text" in answer) throw failure("integrity", "a host completion gives a value, not text", e.span);
        return { m: "ret", v: withinDepth(decodeValue(e.ty, answer.value, types, e.span), e.span) };
      case "infer_body": {
        const result = (k as Extract<HirKind, { op: "infer_body" }>).result;
        if (result.kind === "program") {
          const source = "text" in answer ? answer.text : answer.value;
          if (typeof source !== "string")
            throw failure("inference", "a Program result must be Yao source text", e.span);
          if (this.hooks.admit === undefined)
            throw failure("inference", "this machine cannot admit Program Values", e.span);
          try {
            const hash = this.hooks.admit(source, result, e.span);
            return {
              m: "ret",
              v: tagged([
                ["kind", "program"],
                ["hash", hash],
              ]),
            };
          } catch (x) {
            throw asInference(x, e.span);
          }
        }
        let plain: Value;
        if ("text" in answer) {
          try {
            plain = parseValueText(answer.text);
          } catch (x) {
            if (x instanceof ValueTextError)
              throw failure("inference", `model output is not strict JSON: ${x.message} at offset ${x.offset}`, e.span);
            throw x;
          }
        } else plain = answer.value;
        let v: Value;
        try {
          v = fromPlainJson(result, plain, types, e.span);
        } catch (x) {
          throw asInference(x, e.span);
        }
        // Outside the try: a value too deep to hold is `resource`, not a bad answer.
        return { m: "ret", v: withinDepth(v, e.span) };
      }
      case "run": {
        // Approved: the child runs above a child frame, in a fresh root scope with only `runtime`.
        const hash = request.get("hash");
        const program = this.index.programs.find((x, i) => i > 0 && x.hash === hash);
        if (program === undefined) throw failure("integrity", "the program of this run request is unknown", e.span);
        const scope = new Scope(null, frame.s.depth + 1);
        scope.vars.set("runtime", frame.s.lookup("runtime") ?? this.runtime);
        t.stack.push({ t: "child", n: frame.n });
        return { m: "eval", n: program.root, s: scope };
      }
      default:
        throw failure("integrity", `no request is expected at a '${k.op}' node`, e.span);
    }
  }
}
