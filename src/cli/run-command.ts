/**
 * `yaoc run`: check a program like `yaoc ir` does, then evaluate its typed IR with `yaoc/eval`;
 * `yaoc run --resume STATE --completion FILE` continues a suspended state with one completion, and
 * `yaoc run --resume STATE --cancel [REASON]` cancels it.
 * Output is one JSON object (`--format json`) or a readable summary; the state goes into the JSON
 * output or to a new file (`--state-out`, never an existing path: a state is never rewritten in
 * place). Exit 0 for a value or a suspension, 1 for a failure or an ill-typed program, 2 for usage
 * and I/O errors (including a completion file that is not a completion).
 */
import { writeFile } from "node:fs/promises";
import type { Command } from "commander";
import { InvalidArgumentError, Option } from "commander";
import { renderDiagnosticsHuman } from "../diagnostics/render.js";
import { evalDiagnostic } from "../eval/codes.js";
import { NodeFs } from "../fs/node-fs.js";
import { FsError } from "../fs/package-fs.js";
import type { HnsPackage } from "../hns/model.js";
import {
  BUDGET_NAMES,
  cancelState,
  CompletionError,
  continueState,
  displayValue,
  MAX_STATE_BYTES,
  parseCompletion,
  resumeState,
  startProgram,
  valueText,
  type Budgets,
  type EvalFailure,
  type RunOptions,
  type RunResult,
} from "../eval/index.js";
import { analyzeProgram } from "../yao/index.js";
import { EXIT_INVALID, EXIT_OK, useColor } from "./io.js";
import { withToolContracts } from "../check/hns-result.js";
import { analyzeHns, guarded, isPackage, profileFor, readProgram, Rejected, UsageError } from "./yao.js";

const fs = new NodeFs();
const MAX_COMPLETION_BYTES = 16 * 1024 * 1024;
const MAX_TOOLS_BYTES = 16 * 1024 * 1024;
/** An integrity key file is a secret of a few dozen bytes; anything this large is a wrong path. */
const MAX_KEY_BYTES = 64 * 1024;
/** Fewer bytes than a SHA-256 block's worth of guessing is no key at all. */
const MIN_KEY_BYTES = 16;

interface RunCliOptions {
  tools?: string;
  maxSteps?: number;
  budget?: Partial<Record<keyof Budgets, number>>;
  elapsedMs?: number;
  cancel?: string | boolean;
  format: "human" | "json";
  resume?: string;
  completion?: string;
  stateOut?: string;
  integrityKeyFile?: string;
}

async function readBounded(path: string, limit: number, what: string): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = await fs.readFile(path, limit);
  } catch (e) {
    if (e instanceof FsError && e.code === "too_large")
      throw new UsageError(`${path}: the ${what} is larger than ${limit} bytes`);
    throw new UsageError(`cannot read the ${what} ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(`${path}: the ${what} is not UTF-8 text`);
  }
}

async function toolSchemas(path: string | undefined): Promise<Record<string, unknown> | undefined> {
  if (path === undefined) return undefined;
  try {
    const v = JSON.parse(await readBounded(path, MAX_TOOLS_BYTES, "tool schemas")) as unknown;
    if (typeof v !== "object" || v === null || Array.isArray(v)) throw new Error("expected a JSON object");
    return v as Record<string, unknown>;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read tool schemas ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function spanJson(f: EvalFailure): unknown {
  if (f.span === undefined) return null;
  const p = (x: { byte: number; line: number; column: number }) => ({ byte: x.byte, line: x.line, column: x.column });
  return { start: p(f.span.start), end: p(f.span.end) };
}

/** The JSON output object as text (values in the Morphz value model, the state embedded as it is). */
function jsonOutput(r: RunResult, withState: boolean): string {
  const res = r.result;
  const parts: string[] = [`"outcome":${JSON.stringify(res.outcome)}`];
  if (res.outcome === "value") parts.push(`"value":${valueText(res.value)}`);
  else if (res.outcome === "failure") {
    const f = res.failure;
    parts.push(
      `"class":${JSON.stringify(f.class)}`,
      `"code":${JSON.stringify(`eval.${f.class}`)}`,
      `"message":${JSON.stringify(f.message)}`,
      `"span":${JSON.stringify(spanJson(f))}`,
    );
    if (f.branches !== undefined) parts.push(`"branches":${JSON.stringify(f.branches)}`);
    if (r.rejected) parts.push(`"rejected":true`);
  } else if (res.outcome === "suspended") parts.push(`"requests":[${res.requests.map(valueText).join(",")}]`);
  // A rejected completion changed nothing: there is no new state to hand back.
  if (withState && !r.rejected) parts.push(`"state":${r.state()}`);
  return `{${parts.join(",")}}\n`;
}

function humanOutput(
  r: RunResult,
  file: string | undefined,
  sources: ReadonlyMap<string, string>,
  stateNote: string,
): string {
  const res = r.result;
  if (res.outcome === "value") return `value: ${displayValue(res.value)}\n${stateNote}`;
  if (res.outcome === "suspended") {
    const lines = [`suspended: ${res.requests.length} pending request${res.requests.length === 1 ? "" : "s"}`];
    for (const q of res.requests) {
      const kind = String(q.get("kind"));
      const what =
        kind === "tool"
          ? `call ${String(q.get("tool"))} ${displayValue(q.get("arguments") ?? null)}`
          : kind === "host"
            ? `${String(q.get("operation"))} ${displayValue(q.get("arguments") ?? null)}`
            : kind === "infer"
              ? `infer ${String(q.get("source"))}`
              : `run program ${String(q.get("hash"))}`;
      lines.push(`  ${String(q.get("id"))} (${kind}): ${what}`);
    }
    lines.push(
      'answer one with a completion file {"id":ID,"value":V} (or {"id":ID,"error":{"message":M}}) and',
      "  yaoc run --resume STATE_FILE --completion FILE --state-out NEW_STATE_FILE",
    );
    return `${lines.join("\n")}\n${stateNote}`;
  }
  if (res.outcome === "failure") {
    const f = res.failure;
    const text = file === undefined ? undefined : sources.get(file);
    if (
      f.span !== undefined &&
      file !== undefined &&
      text !== undefined &&
      f.span.end.byte <= new TextEncoder().encode(text).length
    ) {
      const d = evalDiagnostic(`eval.${f.class}`, `${f.class} failure: ${f.message}`, {
        file,
        span: { start: f.span.start, end: f.span.end },
        ...(f.branches === undefined
          ? {}
          : {
              related: f.branches.map((b) => ({
                message: `branch ${b.name}: ${b.status}${b.class ? ` (${b.class}: ${b.message})` : ""}`,
              })),
            }),
        hint: `yaoc explain eval.${f.class}`,
      });
      return renderDiagnosticsHuman([d], sources, { color: useColor(process.stdout) }) + stateNote;
    }
    const at = f.span === undefined ? "" : ` (at ${f.span.start.line}:${f.span.start.column})`;
    const branches = (f.branches ?? [])
      .map((b) => `\n  branch ${b.name}: ${b.status}${b.class ? ` (${b.class}: ${b.message})` : ""}`)
      .join("");
    return `${f.class} failure${at}: ${f.message}${branches}\n${r.rejected ? "the completion was refused; the state is unchanged\n" : stateNote}`;
  }
  return `running: stopped after the step limit\n${stateNote}`;
}

async function emit(
  r: RunResult,
  opts: RunCliOptions,
  file: string | undefined,
  sources: ReadonlyMap<string, string>,
): Promise<void> {
  let note = "";
  if (opts.stateOut !== undefined && !r.rejected) {
    try {
      // "wx": a new path only. An existing file (the input state among them) is never rewritten.
      await writeFile(opts.stateOut, `${r.state()}\n`, { flag: "wx" });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new UsageError(
        code === "EEXIST"
          ? `${opts.stateOut} already exists; a state is written to a new path only (choose another --state-out)`
          : `cannot write the state to ${opts.stateOut}: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    note = `state written to ${opts.stateOut}\n`;
  } else if (opts.format === "human" && !r.rejected && r.result.outcome === "suspended") {
    note = "the state was not saved: add --state-out FILE (or use --format json, which includes it)\n";
  }
  process.stdout.write(
    opts.format === "json" ? jsonOutput(r, opts.stateOut === undefined) : humanOutput(r, file, sources, note),
  );
  process.exitCode = r.result.outcome === "failure" ? EXIT_INVALID : EXIT_OK;
}

/**
 * The key of `--integrity-key-file`: the file's bytes as they are (a host keeps one secret file for
 * every state it writes and reads). Without it the state's digest is plain SHA-256, which catches
 * corruption and casual edits but not a writer who recomputes it (docs/eval.md, State).
 */
async function integrityKey(path: string | undefined): Promise<Uint8Array | undefined> {
  if (path === undefined) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = await fs.readFile(path, MAX_KEY_BYTES);
  } catch (e) {
    if (e instanceof FsError && e.code === "too_large")
      throw new UsageError(`${path}: an integrity key file is at most ${MAX_KEY_BYTES} bytes`);
    throw new UsageError(`cannot read the integrity key ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (bytes.length < MIN_KEY_BYTES)
    throw new UsageError(`${path}: an integrity key needs at least ${MIN_KEY_BYTES} bytes (it has ${bytes.length})`);
  return bytes;
}

function runOptions(
  opts: RunCliOptions,
  tools: Record<string, unknown> | undefined,
  key: Uint8Array | undefined,
): RunOptions {
  const budgets = { ...opts.budget, ...(opts.maxSteps !== undefined ? { steps: opts.maxSteps } : {}) };
  return {
    ...(Object.keys(budgets).length > 0 ? { budgets } : {}),
    ...(tools !== undefined ? { tools } : {}),
    ...(opts.elapsedMs !== undefined ? { elapsedMs: opts.elapsedMs } : {}),
    ...(key !== undefined ? { integrityKey: key } : {}),
  };
}

/** `--budget` names, as kebab-case words: tool-effects, model-rounds, elapsed-ms, … */
const BUDGET_FLAGS: ReadonlyMap<string, keyof Budgets> = new Map(
  BUDGET_NAMES.map((n) => [n.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), n] as const),
);

function budgetFlag(v: string, previous: Partial<Record<keyof Budgets, number>> = {}) {
  const m = /^([a-z-]+)=(\d+)$/.exec(v);
  const name = m === null ? undefined : BUDGET_FLAGS.get(m[1]!);
  if (m === null || name === undefined || !Number.isSafeInteger(Number(m[2])))
    throw new InvalidArgumentError(`expected NAME=N with NAME one of ${[...BUDGET_FLAGS.keys()].join(", ")}`);
  return { ...previous, [name]: Number(m[2]) };
}

async function runProgram(path: string, opts: RunCliOptions): Promise<void> {
  const tools = await toolSchemas(opts.tools);
  const key = await integrityKey(opts.integrityKeyFile);
  let result;
  let sources: ReadonlyMap<string, string>;
  let file: string | undefined;
  let pkg: HnsPackage | undefined;
  if (isPackage(path)) {
    const analysed = await analyzeHns(path, opts.tools, true);
    pkg = analysed.pkg;
    sources = analysed.sources;
    file = undefined;
    result = analysed.analysis;
  } else {
    const read = await readProgram(path);
    sources = read.sources;
    file = path;
    result = analyzeProgram(read.form, { profile: await profileFor([], opts.tools) });
    // A lone program has no package to grade, but a static argument its --tools schema forbids is
    // refused here as a package's is (through check) before anything is asked of the host.
    if (tools !== undefined)
      result = { ...result, diagnostics: [...(await withToolContracts(result, tools, [])).diagnostics] };
  }
  if (result.diagnostics.length > 0 || result.program === undefined)
    throw new Rejected(path, result.diagnostics, sources);
  const spanFile = result.program.body.span.file;
  await emit(
    // A package's run admits model-written programs against the package, as `yaoc admit` does.
    startProgram(result.program, {
      ...runOptions(opts, tools, key),
      ...(pkg === undefined ? {} : { package: pkg }),
    }),
    opts,
    sources.has(spanFile) ? spanFile : file,
    sources,
  );
}

async function resume(opts: RunCliOptions): Promise<void> {
  const state = await readBounded(opts.resume!, MAX_STATE_BYTES, "state");
  const tools = await toolSchemas(opts.tools);
  const key = await integrityKey(opts.integrityKeyFile);
  if (opts.cancel !== undefined && opts.cancel !== false) {
    if (opts.completion !== undefined) throw new UsageError("give either --completion FILE or --cancel, not both");
    const reason = typeof opts.cancel === "string" ? opts.cancel : "";
    await emit(cancelState(state, reason, runOptions(opts, tools, key)), opts, undefined, new Map());
    return;
  }
  if (opts.completion === undefined) {
    // Without a completion, continue a state that stopped at its step limit.
    await emit(continueState(state, runOptions(opts, tools, key)), opts, undefined, new Map());
    return;
  }
  const text = await readBounded(opts.completion, MAX_COMPLETION_BYTES, "completion");
  let completion;
  try {
    completion = parseCompletion(text);
  } catch (e) {
    if (e instanceof CompletionError) throw new UsageError(`${opts.completion}: ${e.message}`);
    throw e;
  }
  if (opts.elapsedMs !== undefined) {
    if (completion.elapsedMs !== undefined && completion.elapsedMs !== opts.elapsedMs)
      throw new UsageError(
        `${opts.completion} gives elapsed_ms ${completion.elapsedMs} and --elapsed-ms ${opts.elapsedMs}`,
      );
    completion = { ...completion, elapsedMs: opts.elapsedMs };
  }
  await emit(resumeState(state, completion, runOptions(opts, tools, key)), opts, undefined, new Map());
}

function positiveInt(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n)) throw new InvalidArgumentError("expected a non-negative integer");
  return n;
}

export function registerRunCommand(program: Command): void {
  program
    .command("run")
    .description(
      "evaluate a Yao program or HNS package entry; effects come back as requests, answered with --resume STATE --completion FILE",
    )
    .argument("[program]", "a .yao program or an .hns package (not with --resume)")
    .option("--tools <file>", "JSON object mapping tool names to input JSON Schemas (as yaoc ir --tools)")
    .option("--max-steps <n>", "typed-IR step budget (default 100000)", positiveInt)
    .option("--resume <state>", "continue a suspended state file")
    .option(
      "--completion <file>",
      'the answer to one pending request: {"id":ID,"value":V} or {"id":ID,"error":{"message":M}}',
    )
    .option(
      "--budget <name=n>",
      "override a budget (repeatable): steps, tool-effects, infer-effects, branches, nesting, map-elements, model-rounds, elapsed-ms",
      budgetFlag,
    )
    .option(
      "--elapsed-ms <n>",
      "with --resume: the ms elapsed since the run started, checked against the elapsed-ms budget",
      positiveInt,
    )
    .option("--cancel [reason]", "with --resume: cancel the run (a cancelled failure; every pending request is void)")
    .option("--state-out <file>", "write the new state to this new file (never an existing one)")
    .option(
      "--integrity-key-file <file>",
      "digest states with HMAC-SHA-256 under this file's bytes (at least 16); resuming needs the same file",
    )
    .addOption(new Option("--format <format>", "output format").choices(["human", "json"]).default("human"))
    .action((path: string | undefined, opts: RunCliOptions) =>
      guarded(
        async () => {
          if (opts.resume !== undefined) {
            if (path !== undefined) throw new UsageError("give either a PROGRAM or --resume STATE, not both");
            await resume(opts);
            return;
          }
          if (opts.completion !== undefined) throw new UsageError("--completion needs --resume STATE");
          if (opts.cancel !== undefined || opts.elapsedMs !== undefined)
            throw new UsageError(`${opts.cancel !== undefined ? "--cancel" : "--elapsed-ms"} needs --resume STATE`);
          if (path === undefined)
            throw new UsageError("yaoc run needs a PROGRAM (or --resume STATE --completion FILE)");
          await runProgram(path, opts);
        },
        () => opts.format,
      )(),
    );
}
