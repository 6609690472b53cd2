/**
 * The machine state as canonical JSON (RFC 8785, src/json/jcs.ts): the validated IR of every
 * program the machine runs (the root first, then admitted Program Values) with their hashes, the
 * threads with their continuations, the scopes, the budgets used, the pending requests and the
 * completions already taken. Values are embedded as their value text (value-text.ts), because JCS
 * cannot tell the Float 1.0 from the Int 1. There is no clock and no randomness in it: the same
 * program and the same completions give the same bytes.
 *
 * A state is untrusted input when it comes back. Reading re-validates every program (its
 * recomputed program_hash), a digest over the whole state (SHA-256, or HMAC-SHA-256 when the host
 * supplies a key, which is what defends against a writer who can also recompute a plain digest),
 * and the shape of every frame; anything else is an `integrity` failure and nothing runs.
 */
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { SourceSpan } from "../../ir/span.js";
import type { YaoProgram } from "../../ir/yao-ir-0.1.js";
import { sha256Hex } from "../canonical/hash.js";
import { canonicalJson } from "../json/jcs.js";
import { readOne } from "../syntax/reader.js";
import { readPersistedProgram } from "../yao/ir-read.js";
import type { AdmissionBinding } from "../yao/package-analysis.js";
import { programJson } from "../yao/ir-json.js";
import { BUDGET_NAMES, type Budgets } from "./budgets.js";
import { FAILURE_CLASSES, type BranchOutcome, type EvalFailure, type FailureClass } from "./failures.js";
import { Machine, Scope, Thread, type Control, type Frame } from "./machine.js";
import { ProgramIndex } from "./program-index.js";
import { REQUEST_KINDS, type RequestKind } from "./requests.js";
import { parseValueText, valueText, ValueTextError } from "./value-text.js";
import type { Value } from "./values.js";

export const STATE_FORMAT = "yaoc-eval-state";
/**
 * 2: the model-round and elapsed-time budgets, and the elapsed time used. 3: `admission`, the
 * package a run's model-written programs are admitted against. A version 2 state still reads (as
 * a run with no package: it was admitted against the tool schemas only, as version 2 did).
 */
export const STATE_VERSION = 3;
const READABLE_VERSIONS: readonly number[] = [2, STATE_VERSION];
/** A state file larger than this is refused before it is parsed. */
export const MAX_STATE_BYTES = 64 * 1024 * 1024;

type J = null | boolean | number | string | J[] | { [k: string]: J };

export class StateError extends Error {}

const bad = (message: string): never => {
  throw new StateError(message);
};

// ---- writing ----

function spanJson(s: SourceSpan | undefined): J {
  if (s === undefined) return null;
  const p = (x: SourceSpan["start"]): J => ({ byte: x.byte, line: x.line, column: x.column });
  return { start: p(s.start), end: p(s.end) };
}

export function failureJson(f: EvalFailure): { [k: string]: J } {
  const out: { [k: string]: J } = { class: f.class, message: f.message, span: spanJson(f.span) };
  if (f.branches !== undefined)
    out.branches = f.branches.map((b) => {
      const o: { [k: string]: J } = { name: b.name, status: b.status };
      if (b.class !== undefined) o.class = b.class;
      if (b.message !== undefined) o.message = b.message;
      return o;
    });
  return out;
}

class Writer {
  readonly scopes: J[] = [];
  private readonly ids = new Map<Scope, number>();

  scope(s: Scope): number {
    const known = this.ids.get(s);
    if (known !== undefined) return known;
    const parent = s.parent === null ? -1 : this.scope(s.parent);
    const id = this.scopes.length;
    this.ids.set(s, id);
    this.scopes.push([parent, s.depth, [...s.vars].map(([k, v]) => [k, valueText(v)])]);
    return id;
  }

  control(c: Control | undefined): J {
    if (c === undefined) return null;
    if (c.m === "eval") return { m: "eval", n: c.n, s: this.scope(c.s) };
    if (c.m === "ret") return { m: "ret", v: valueText(c.v) };
    return { m: "fail", f: failureJson(c.f) };
  }

  frame(f: Frame): J {
    switch (f.t) {
      case "args":
        return { t: f.t, n: f.n, s: this.scope(f.s), vals: f.vals.map(valueText) };
      case "logic":
      case "seq":
        return { t: f.t, n: f.n, s: this.scope(f.s), i: f.i };
      case "if":
      case "match":
      case "fallback":
        return { t: f.t, n: f.n, s: this.scope(f.s) };
      case "map":
        return {
          t: f.t,
          n: f.n,
          s: this.scope(f.s),
          items: f.items === null ? null : valueText(f.items),
          acc: f.acc.map(valueText),
        };
      case "parseq":
        return { t: f.t, n: f.n, s: this.scope(f.s), acc: f.acc.map(valueText) };
      case "par":
        return { t: f.t, n: f.n, s: this.scope(f.s), threads: f.threads.map((x) => this.thread(x)) };
      case "wait":
        return { t: f.t, n: f.n, s: this.scope(f.s), id: f.id };
      case "child":
        return { t: f.t, n: f.n };
    }
  }

  thread(t: Thread): J {
    // The stack first, bottom up, so scope numbers follow the order a reader meets them.
    const stack = t.stack.map((f) => this.frame(f));
    const result: J =
      t.result === undefined
        ? null
        : "value" in t.result
          ? { value: valueText(t.result.value) }
          : { failure: failureJson(t.result.failure) };
    return { id: t.id, name: t.name, stack, control: this.control(t.control), result };
  }
}

/**
 * The bound package of a run started from an HNS package, as text: what a model-written program
 * is admitted against (src/yao/package-analysis.ts `admitAgainst`), kept in the state so that a
 * worker that resumes the run admits by the same rules without the package at hand.
 */
export interface AdmissionText {
  /** The package: `id`, `version` and `identity`, named when a program is refused. */
  readonly package: { readonly id: string; readonly version: string; readonly identity: string };
  /** The canonical `(fn …)` text of every package function, in the package's order. */
  readonly functions: readonly string[];
  /** The entry's canonical `(types …)` module, or null. */
  readonly types: string | null;
  /** The entry's tool bound (its `requires.tools`, or the manifest's tools). */
  readonly toolBound: readonly string[];
  /** The manifest's tools, the tools the package may name at all. */
  readonly manifestTools: readonly string[];
}

export interface StateExtras {
  /** IR JSON text of each program, in index order (cached so a program is printed once). */
  readonly programTexts: string[];
  /** The tool schemas admitted programs are checked against, as JSON text (or null). */
  readonly tools: string | null;
  /** The package admitted programs are bound by, or null for a run of a plain program. */
  readonly admission: AdmissionText | null;
  /** `admission` as the analyzer takes it (read back from its texts when a state is decoded). */
  readonly binding: AdmissionBinding | null;
}

/** The package binding of a state's admission text; a text that does not read is a corrupt state. */
function bindingOf(a: AdmissionText): AdmissionBinding {
  const form = (text: string, what: string) => {
    const r = readOne(text, { file: "<bound package>" });
    return r.ok ? r.form : bad(`the bound package's ${what} does not read: ${r.diagnostic.message}`);
  };
  return {
    typeSources: a.types === null ? [] : [form(a.types, "types")],
    functions: a.functions.map((f, i) => form(f, `function ${i}`)),
    toolBound: a.toolBound,
  };
}

function admissionJson(a: AdmissionText | null): J {
  if (a === null) return null;
  return {
    package: { id: a.package.id, version: a.package.version, identity: a.package.identity },
    functions: [...a.functions],
    types: a.types,
    tool_bound: [...a.toolBound],
    manifest_tools: [...a.manifestTools],
  };
}

function admissionFrom(v: unknown): AdmissionText | null {
  if (v === null) return null;
  const o = obj(v, "admission");
  const p = obj(o.package, "the admission package");
  const strs = (x: unknown, what: string) => arr(x, what).map((y, i) => str(y, `${what} ${i}`));
  return {
    package: {
      id: str(p.id, "the package id"),
      version: str(p.version, "the package version"),
      identity: str(p.identity, "the package identity"),
    },
    functions: strs(o.functions, "package function"),
    types: o.types === null ? null : str(o.types, "the package types"),
    toolBound: strs(o.tool_bound, "tool bound"),
    manifestTools: strs(o.manifest_tools, "manifest tool"),
  };
}

function digestOf(body: string, key: Uint8Array | undefined): string {
  const bytes = new TextEncoder().encode(body);
  return key === undefined
    ? `sha256:${bytesToHex(sha256(bytes))}`
    : `hmac-sha256:${bytesToHex(hmac(sha256, key, bytes))}`;
}

export function encodeState(m: Machine, extras: StateExtras, key?: Uint8Array): string {
  while (extras.programTexts.length < m.index.programs.length)
    extras.programTexts.push(programJson(m.index.programs[extras.programTexts.length]!.program));
  const w = new Writer();
  const root = w.thread(m.root);
  const pending: J[] = [...m.pending].map(([id, p]) => [id, p.kind, p.thread.id, valueText(p.request)]);
  const body: { [k: string]: J } = {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    program_hash: m.programHash,
    programs: [...extras.programTexts],
    program_hashes: m.index.programs.map((p) => p.hash),
    budgets: Object.fromEntries(BUDGET_NAMES.map((n) => [n, m.budgets[n]])),
    used: { ...m.used },
    sequence: m.seq,
    runtime: valueText(m.runtime),
    tools: extras.tools,
    admission: admissionJson(extras.admission),
    scopes: w.scopes,
    root,
    ready: m.ready.map((t) => t.id),
    pending,
    completed: [...m.completed],
  };
  const text = canonicalJson(body);
  return canonicalJson({ ...body, digest: digestOf(text, key) });
}

// ---- reading ----

function isObj(v: unknown): v is { [k: string]: unknown } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function obj(v: unknown, what: string): { [k: string]: unknown } {
  return isObj(v) ? v : bad(`${what} is not an object`);
}
function arr(v: unknown, what: string): unknown[] {
  return Array.isArray(v) ? v : bad(`${what} is not an array`);
}
function str(v: unknown, what: string): string {
  return typeof v === "string" ? v : bad(`${what} is not a string`);
}
function int(v: unknown, what: string, max = Number.MAX_SAFE_INTEGER): number {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0 && v <= max
    ? v
    : bad(`${what} is not a valid count`);
}
function value(v: unknown, what: string): Value {
  try {
    return parseValueText(str(v, what));
  } catch (e) {
    if (e instanceof ValueTextError) return bad(`${what} is not a valid value: ${e.message}`);
    throw e;
  }
}

function spanFrom(v: unknown): SourceSpan | undefined {
  if (v === null || v === undefined) return undefined;
  const o = obj(v, "a span");
  const p = (x: unknown) => {
    const q = obj(x, "a span position");
    return { byte: int(q.byte, "byte"), line: int(q.line, "line"), column: int(q.column, "column") };
  };
  return { file: "", start: p(o.start), end: p(o.end) };
}

export function failureFrom(v: unknown): EvalFailure {
  const o = obj(v, "a failure");
  const cls = str(o.class, "a failure class");
  if (!FAILURE_CLASSES.includes(cls as FailureClass)) bad(`unknown failure class '${cls}'`);
  const f: { -readonly [K in keyof EvalFailure]: EvalFailure[K] } = {
    class: cls as FailureClass,
    message: str(o.message, "a failure message"),
  };
  const span = spanFrom(o.span);
  if (span !== undefined) f.span = span;
  if (o.branches !== undefined)
    f.branches = arr(o.branches, "failure branches").map((b): BranchOutcome => {
      const q = obj(b, "a branch");
      const status = str(q.status, "a branch status");
      if (status !== "succeeded" && status !== "failed") bad(`unknown branch status '${status}'`);
      const out: { -readonly [K in keyof BranchOutcome]: BranchOutcome[K] } = {
        name: str(q.name, "a branch name"),
        status: status as BranchOutcome["status"],
      };
      if (q.class !== undefined) out.class = str(q.class, "a branch class") as FailureClass;
      if (q.message !== undefined) out.message = str(q.message, "a branch message");
      return out;
    });
  return f;
}

const FRAME_OPS: Readonly<Record<string, readonly string[] | null>> = {
  args: null,
  logic: ["pure"],
  seq: ["seq"],
  if: ["if"],
  match: ["match"],
  fallback: ["fallback"],
  map: ["map"],
  parseq: ["par"],
  par: ["par"],
  wait: ["call", "host", "infer_body", "run"],
  child: ["run"],
};

class Reader {
  scopes: Scope[] = [];
  readonly threads = new Map<string, Thread>();

  constructor(readonly index: ProgramIndex) {}

  readScopes(list: unknown[]): void {
    const raw = list.map((x, i) => {
      const [parent, depth, vars] = arr(x, `scope ${i}`);
      return { parent: typeof parent === "number" ? parent : bad(`scope ${i} has no parent index`), depth, vars };
    });
    // Parents always come before their children (the writer numbers a parent first).
    raw.forEach((r, i) => {
      if (!Number.isInteger(r.parent) || r.parent < -1 || r.parent >= i) bad(`scope ${i} has a bad parent`);
      const s = new Scope(r.parent === -1 ? null : this.scopes[r.parent]!, int(r.depth, `scope ${i} depth`, 64));
      for (const pair of arr(r.vars, `scope ${i} bindings`)) {
        const [name, v] = arr(pair, `a binding of scope ${i}`);
        s.vars.set(str(name, "a binding name"), value(v, `binding ${String(name)}`));
      }
      this.scopes.push(s);
    });
  }

  scope(v: unknown): Scope {
    const i = int(v, "a scope index");
    return this.scopes[i] ?? bad(`scope ${i} does not exist`);
  }

  node(v: unknown, ops: readonly string[] | null): number {
    const n = int(v, "a node id");
    const e = this.index.node(n) ?? bad(`node ${n} does not exist`);
    if (ops !== null && !ops.includes(e.kind.op)) bad(`node ${n} is a '${e.kind.op}', not one of ${ops.join(", ")}`);
    return n;
  }

  control(v: unknown): Control | undefined {
    if (v === null) return undefined;
    const o = obj(v, "a control register");
    if (o.m === "eval") return { m: "eval", n: this.node(o.n, null), s: this.scope(o.s) };
    if (o.m === "ret") return { m: "ret", v: value(o.v, "a returned value") };
    if (o.m === "fail") return { m: "fail", f: failureFrom(o.f) };
    return bad("unknown control register");
  }

  frame(v: unknown, owner: Thread): Frame {
    const o = obj(v, "a frame");
    const t = str(o.t, "a frame type");
    if (!(t in FRAME_OPS)) bad(`unknown frame type '${t}'`);
    const n = this.node(o.n, FRAME_OPS[t]!);
    if (t === "child") return { t, n };
    const s = this.scope(o.s);
    const list = (x: unknown, what: string) => arr(x, what).map((y) => value(y, what));
    switch (t) {
      case "args":
        return { t, n, s, vals: list(o.vals, "frame values") };
      case "logic":
      case "seq":
        return { t, n, s, i: int(o.i, "a frame position", this.index.kids(n).length) };
      case "if":
      case "match":
      case "fallback":
        return { t, n, s };
      case "map": {
        const items = o.items === null ? null : value(o.items, "map items");
        if (items !== null && !Array.isArray(items)) bad("map items are not a list");
        return { t, n, s, items: items as Value[] | null, acc: list(o.acc, "map results") };
      }
      case "parseq":
        return { t, n, s, acc: list(o.acc, "branch results") };
      case "par":
        return { t, n, s, threads: arr(o.threads, "branch threads").map((x) => this.thread(x, owner)) };
      default:
        return { t: "wait", n, s, id: str(o.id, "a request id") };
    }
  }

  thread(v: unknown, parent: Thread | null): Thread {
    const o = obj(v, "a thread");
    const id = str(o.id, "a thread id");
    if (this.threads.has(id)) bad(`thread ${id} appears twice`);
    const t = new Thread(id, str(o.name, "a thread name"), parent);
    this.threads.set(id, t);
    t.stack = arr(o.stack, "a thread stack").map((f) => this.frame(f, t));
    t.control = this.control(o.control);
    if (o.result !== null) {
      const r = obj(o.result, "a thread result");
      t.result = "value" in r ? { value: value(r.value, "a thread value") } : { failure: failureFrom(r.failure) };
    }
    return t;
  }
}

/**
 * Programs already read back and verified, by their exact IR text. Reading a program is a pure
 * function of its text, so the same text gives the same program and program_hash; keeping the
 * last few means that resuming a run again and again re-reads its program once, not at every
 * completion, and the program's node numbering (program-index.ts, kept beside the program
 * object) is built once too. The hash check against the state's list still runs every time.
 */
const verified = new Map<string, { readonly program: YaoProgram; readonly hash: string }>();
const VERIFIED_KEPT = 8;

function verifiedProgram(text: string, i: number): { readonly program: YaoProgram; readonly hash: string } {
  const known = verified.get(text);
  if (known !== undefined) {
    // Most recently used last, so the oldest is the one dropped.
    verified.delete(text);
    verified.set(text, known);
    return known;
  }
  const r = readPersistedProgram(text);
  if (!r.ok) return bad(`program ${i}: ${r.diagnostic.message}`);
  const read = { program: r.program, hash: r.programHash };
  verified.set(text, read);
  if (verified.size > VERIFIED_KEPT) verified.delete(verified.keys().next().value!);
  return read;
}

export interface DecodedState {
  readonly machine: Machine;
  readonly extras: StateExtras;
}

/** Read a state back; every problem is a StateError (the caller reports it as `integrity`). */
export function decodeState(text: string, key?: Uint8Array): DecodedState {
  if (text.length > MAX_STATE_BYTES) bad(`the state is larger than ${MAX_STATE_BYTES} bytes`);
  let raw: unknown;
  try {
    // JCS text is plain JSON; duplicate keys or other tricks are caught by the digest check below.
    raw = JSON.parse(text);
  } catch {
    return bad("the state is not JSON (truncated or corrupt)");
  }
  const o = obj(raw, "the state");
  if (o.format !== STATE_FORMAT) bad(`this is not a ${STATE_FORMAT} document`);
  if (typeof o.version !== "number" || !READABLE_VERSIONS.includes(o.version))
    bad(`state version ${String(o.version)} is not supported (expected ${READABLE_VERSIONS.join(" or ")})`);
  if ((o.version === STATE_VERSION) !== "admission" in o)
    bad(`a version ${o.version} state ${o.version === STATE_VERSION ? "lacks" : "has"} an admission field`);
  const { digest, ...body } = o;
  const expected = digestOf(canonicalJson(body), key);
  if (digest !== expected) {
    // Name a key mismatch apart from an edit: the digest's algorithm says how it was written.
    const keyed = typeof digest === "string" && digest.startsWith("hmac-sha256:");
    if (keyed && key === undefined) bad("the state is digested with an integrity key (hmac-sha256); give that key");
    if (!keyed && key !== undefined && typeof digest === "string" && digest.startsWith("sha256:"))
      bad("the state has a plain digest (sha256), but an integrity key was given: it was not written with that key");
    bad("the state's digest does not match its contents: it was edited or corrupted, or written with another key");
  }
  if (canonicalJson(o) !== text.trim()) bad("the state is not in canonical form");

  const index = new ProgramIndex();
  const texts = arr(o.programs, "programs").map((p, i) => str(p, `program ${i}`));
  const hashes = arr(o.program_hashes, "program hashes").map((h, i) => str(h, `program hash ${i}`));
  if (texts.length === 0 || texts.length !== hashes.length) bad("the state lists no programs or mismatched hashes");
  texts.forEach((t, i) => {
    const r = verifiedProgram(t, i);
    if (r.hash !== hashes[i]) bad(`program ${i} has program_hash ${r.hash}, not ${hashes[i]}`);
    index.add(r.program, r.hash);
  });
  if (o.program_hash !== hashes[0]) bad("the state's program_hash is not its root program's");

  const b = obj(o.budgets, "budgets");
  const budgets = Object.fromEntries(
    BUDGET_NAMES.map((n) => [n, n === "elapsedMs" && b[n] === null ? null : int(b[n], `budget ${n}`)]),
  ) as unknown as Budgets;
  const reader = new Reader(index);
  reader.readScopes(arr(o.scopes, "scopes"));
  const root = reader.thread(o.root, null);
  if (root.id !== "0") bad("the root thread is not thread 0");
  const m = new Machine(index, budgets, value(o.runtime, "runtime"), root);
  const used = obj(o.used, "used budgets");
  m.used.steps = int(used.steps, "used steps");
  m.used.toolEffects = int(used.toolEffects, "used tool effects");
  m.used.inferEffects = int(used.inferEffects, "used inference effects");
  m.used.branches = int(used.branches, "used branches");
  m.used.elapsedMs = int(used.elapsedMs, "used elapsed time");
  m.seq = int(o.sequence, "the effect sequence");
  m.ready = arr(o.ready, "ready threads").map(
    (id) => reader.threads.get(str(id, "a thread id")) ?? bad(`ready thread ${String(id)} does not exist`),
  );
  for (const entry of arr(o.pending, "pending requests")) {
    const [id, kind, threadId, request] = arr(entry, "a pending request");
    const rid = str(id, "a request id");
    if (!REQUEST_KINDS.includes(kind as RequestKind)) bad(`unknown request kind '${String(kind)}'`);
    const thread = reader.threads.get(str(threadId, "a thread id")) ?? bad(`thread ${String(threadId)} does not exist`);
    const top = thread.stack[thread.stack.length - 1];
    if (top?.t !== "wait" || top.id !== rid) bad(`thread ${thread.id} is not waiting for ${rid}`);
    const req = value(request, "a request");
    if (!(req instanceof Map) || req.get("id") !== rid || req.get("kind") !== kind)
      bad(`request ${rid} does not match its entry`);
    m.pending.set(rid, { request: req as ReadonlyMap<string, Value>, kind: kind as RequestKind, thread });
  }
  for (const entry of arr(o.completed, "completed requests")) {
    const [id, t] = arr(entry, "a completed request");
    m.completed.set(str(id, "a request id"), str(t, "a completion"));
  }
  const tools = o.tools === null ? null : str(o.tools, "tools");
  const admission = admissionFrom(o.admission ?? null);
  const binding = admission === null ? null : bindingOf(admission);
  return { machine: m, extras: { programTexts: texts, tools, admission, binding } };
}

/** The digest of a completion as it is remembered for duplicate detection. */
export function completionDigest(canonical: string): string {
  return sha256Hex(canonical);
}
