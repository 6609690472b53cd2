/**
 * The analyzer's entry points (yao-v0.1.md §7.6), returning diagnostics instead of throwing:
 *
 * - `analyzeProgram`: one program, optionally with a bound module (model-authored by default);
 * - `analyzeModule`: a package entry with its function forms (HNS §9.4 / §11 step 8);
 * - `analyzeSources`: the same from source texts, with the module byte and function-count limits.
 */
import type { EffectSet, YaoProgram, YaoType } from "../../ir/yao-ir-0.1.js";
import { canonicalSource } from "../canonical/typed.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { diagnostic } from "./codes.js";
import { utf8Length } from "../syntax/utf8.js";
import { readOne } from "../syntax/reader.js";
import { fileOf, type SNode } from "../syntax/tree.js";
import {
  emptySpanIn,
  ErrorLimitReached,
  ErrorSink,
  fail,
  MAX_REPORTED_ERRORS,
  toDiagnostic,
  YaoError,
} from "./error.js";
import type { CompiledFunction } from "./expressions.js";
import type { FunctionDeclaration } from "./functions.js";
import type { EntryHeader, FnHeader } from "../syntax/header.js";
import { morphzProfile, type AnalysisProfile } from "./profile.js";
import { AnalysisErrors, analyzeRoot } from "./program.js";

export const MAX_MODULE_FUNCTIONS = 128;
export const MAX_MODULE_SOURCE_BYTES = 262_144;

export interface AnalysisResult {
  /**
   * Empty when the program is valid. Every independent error (each function, the type table, the
   * entry) is reported; the first is the one the reference reports.
   */
  readonly diagnostics: Diagnostic[];
  readonly program?: YaoProgram;
  readonly programHash?: string;
  readonly outputType?: YaoType;
  readonly effects?: EffectSet;
  /** Every compiled function (also unused ones), so a checker can inspect exports. */
  readonly functions?: ReadonlyMap<string, CompiledFunction>;
  readonly declarations?: readonly FunctionDeclaration[];
  /** The innermost HNS function a violation arose in (the reference's `Diagnostic.function`). */
  readonly failedFunction?: string;
}

export interface AnalyzeOptions {
  readonly profile?: AnalysisProfile;
  /** Canonical `(types ...)` forms of the bound package (shared types). */
  readonly typeSources?: readonly SNode[];
  /** `(fn …)` forms, or headers the loader already recognised. */
  readonly functions?: readonly (SNode | FnHeader)[];
  /** Defaults to false: a model-authored program may apply exported functions only. */
  readonly allowInternal?: boolean;
  /** Admission against a bound package: the package entry's tool bound (HNS §9.2). */
  readonly packageToolBound?: readonly string[];
  /** False: the first error inside each body stops it, as in the reference (default: every independent one). */
  readonly recover?: boolean;
}

function run(body: (sink: ErrorSink) => ReturnType<typeof analyzeRoot>, file: string): AnalysisResult {
  const sink = new ErrorSink();
  try {
    const { program, module } = body(sink);
    const declarations = module.names().map((n) => module.declaration(n)!);
    return {
      diagnostics: [],
      program,
      programHash: program.source_hash,
      outputType: program.output,
      effects: program.effects,
      functions: module.compiledFunctions(),
      declarations,
    };
  } catch (e) {
    let errors: readonly YaoError[];
    let truncated = false;
    if (e instanceof AnalysisErrors) errors = e.errors;
    else if (e instanceof YaoError) errors = [...sink.errors, e];
    else if (e instanceof ErrorLimitReached) {
      errors = sink.errors;
      truncated = true;
    } else throw e;
    const diagnostics = uniqueDiagnostics(errors.map((x) => toDiagnostic(x, file)));
    if (truncated) {
      diagnostics.push(
        diagnostic(
          "yao.error_limit",
          `analysis stopped after ${MAX_REPORTED_ERRORS} errors; fix these and check again to see the rest`,
          {
            file,
          },
        ),
      );
    }
    const first = errors[0]?.function;
    return first === undefined ? { diagnostics } : { diagnostics, failedFunction: first };
  }
}

/** The same error reached twice (one unknown type used by two fields of a declaration) is shown once. */
function uniqueDiagnostics(ds: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return ds.filter((d) => {
    const key = `${d.code}\u0000${d.file}\u0000${d.span?.start.byte}\u0000${d.span?.end.byte}\u0000${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function analyzeProgram(program: SNode, options: AnalyzeOptions = {}): AnalysisResult {
  return run(
    (sink) =>
      analyzeRoot({
        sink,
        root: program,
        typeSources: options.typeSources ?? [],
        functions: options.functions ?? [],
        allowInternal: options.allowInternal ?? false,
        profile: options.profile ?? morphzProfile(),
        ...(options.packageToolBound === undefined ? {} : { packageToolBound: options.packageToolBound }),
        ...(options.recover === undefined ? {} : { recover: options.recover }),
      }),
    program.span.file,
  );
}

export interface ModuleInput {
  readonly entry: SNode;
  /**
   * What the HNS loader already read and printed: the entry's recognised header and canonical text.
   * Given, they are used as they are; absent, the analyzer reads and prints the entry itself.
   */
  readonly entryHeader?: EntryHeader;
  readonly entrySource?: string;
  /** `source` and `header`, when given, are the loader's canonical text and recognised header. */
  readonly functions: readonly ModuleFunction[];
  /**
   * The UTF-8 length of `entrySource` and of every function's `source`, when the loader measured
   * them (it encodes them to hash the identity); absent, they are measured here.
   */
  readonly programBytes?: number;
  readonly typeSources?: readonly SNode[];
  /** True for the package entry (the HNS loader); false when admitting a model-authored program. */
  readonly allowInternal: boolean;
  readonly profile?: AnalysisProfile;
  /** False: the first error inside each body stops it, as in the reference (default: every independent one). */
  readonly recover?: boolean;
}

export interface ModuleFunction {
  readonly name: string;
  readonly form: SNode;
  readonly file: string;
  readonly source?: string;
  readonly header?: FnHeader;
}

/** The UTF-8 length of the entry's and the functions' canonical texts (`ModuleInput.programBytes`). */
function programBytes(input: ModuleInput): number {
  let total = utf8Length(input.entrySource ?? canonicalSource(input.entry));
  for (const f of input.functions) total += utf8Length(f.source ?? canonicalSource(f.form));
  return total;
}

/** Functions in the order diagnostics are shown: by file, then by position in it. */
function bySourcePlace(a: ModuleFunction, b: ModuleFunction): number {
  const fa = fileOf(a.form);
  const fb = fileOf(b.form);
  if (fa !== fb) return fa < fb ? -1 : 1;
  return a.form.span.start.byte - b.form.span.start.byte;
}

/** The package form (reference `analyze_module_forms`): limits on the forms, then full analysis. */
export function analyzeModule(input: ModuleInput): AnalysisResult {
  const file = fileOf(input.entry);
  return run((sink) => {
    if (input.functions.length > MAX_MODULE_FUNCTIONS) {
      // At the first function past the limit in the order they are shown (file, then position),
      // the construct that crosses it, not at the entry.
      const n = input.functions.length;
      const over = [...input.functions].sort(bySourcePlace)[MAX_MODULE_FUNCTIONS]!;
      fail(
        "resource_limit",
        {
          text: `the package declares ${n} functions, over the limit of ${MAX_MODULE_FUNCTIONS}`,
          reference: "too many package functions",
        },
        over.form.span,
        {
          label: `function ${MAX_MODULE_FUNCTIONS + 1} of ${n}, over the limit of ${MAX_MODULE_FUNCTIONS}`,
          hint: `a package holds at most ${MAX_MODULE_FUNCTIONS} functions (the module function limit); this one declares ${n}: merge or remove ${n - MAX_MODULE_FUNCTIONS}`,
        },
      );
    }
    // The limit counts canonical bytes: the loader's texts where it printed them, printed here otherwise.
    let total = input.programBytes ?? programBytes(input);
    for (const t of input.typeSources ?? []) total += utf8Length(canonicalSource(t));
    if (total > MAX_MODULE_SOURCE_BYTES)
      fail("resource_limit", "combined package program exceeds source byte limit", input.entry.span, {
        label: `the entry, types and functions print as ${total} bytes`,
        hint: `the entry, types and functions together hold at most ${MAX_MODULE_SOURCE_BYTES} bytes of canonical text (the module source limit); this package has ${total}`,
      });
    return analyzeRoot({
      sink,
      root: input.entry,
      ...(input.entryHeader === undefined ? {} : { header: input.entryHeader }),
      ...(input.entrySource === undefined ? {} : { source: input.entrySource }),
      typeSources: input.typeSources ?? [],
      functions: input.functions.map((f) => f.header ?? f.form),
      allowInternal: input.allowInternal,
      profile: input.profile ?? morphzProfile(),
      ...(input.recover === undefined ? {} : { recover: input.recover }),
    });
  }, file);
}

export interface SourceInput {
  readonly source: string;
  readonly file?: string;
  readonly typeSources?: readonly { readonly source: string; readonly file?: string }[];
  readonly functionSources?: readonly { readonly source: string; readonly file?: string }[];
  readonly allowInternal?: boolean;
  readonly profile?: AnalysisProfile;
  /** False: the first error inside each body stops it, as in the reference (default: every independent one). */
  readonly recover?: boolean;
}

/** Reference `analyze_with_module`: byte and count limits on the raw sources, then parse each with parse_one. */
export function analyzeSources(input: SourceInput): AnalysisResult {
  const file = input.file ?? "program.yao";
  const types = input.typeSources ?? [];
  const fns = input.functionSources ?? [];
  const total = [input, ...types, ...fns].reduce((sum, s) => sum + utf8Length(s.source), 0);
  if (total > MAX_MODULE_SOURCE_BYTES) {
    return fromError(
      new YaoError(
        "resource_limit",
        `Yao module source is ${total} bytes, exceeding the limit of ${MAX_MODULE_SOURCE_BYTES}`,
        emptySpanIn(file),
      ),
      file,
    );
  }
  if (fns.length > MAX_MODULE_FUNCTIONS) {
    return fromError(
      new YaoError(
        "resource_limit",
        `Yao module declares ${fns.length} functions, exceeding the limit of ${MAX_MODULE_FUNCTIONS}`,
        emptySpanIn(file),
      ),
      file,
    );
  }
  const parse = (s: { source: string; file?: string }, fallback: string): SNode | Diagnostic => {
    const r = readOne(s.source, { file: s.file ?? fallback });
    return r.ok ? r.form : r.diagnostic;
  };
  const root = parse(input, file);
  if (!isNode(root)) return { diagnostics: [root] };
  const typeForms: SNode[] = [];
  for (const [i, t] of types.entries()) {
    const r = parse(t, `types-${i}.yao`);
    if (!isNode(r)) return { diagnostics: [r] };
    typeForms.push(r);
  }
  const fnForms: SNode[] = [];
  for (const [i, f] of fns.entries()) {
    const r = parse(f, `function-${i}.yao`);
    if (!isNode(r)) return { diagnostics: [r] };
    fnForms.push(r);
  }
  return analyzeProgram(root, {
    typeSources: typeForms,
    functions: fnForms,
    allowInternal: input.allowInternal ?? false,
    ...(input.profile === undefined ? {} : { profile: input.profile }),
    ...(input.recover === undefined ? {} : { recover: input.recover }),
  });
}

function isNode(x: SNode | Diagnostic): x is SNode {
  return "kind" in x;
}

function fromError(e: YaoError, file: string): AnalysisResult {
  return { diagnostics: [toDiagnostic(e, file)] };
}
