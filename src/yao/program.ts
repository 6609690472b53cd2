/**
 * Program analysis (yao-v0.1.md §4): the `(eval ...)`/`(infer ...)` envelope, `requires`, type
 * sources, the function module and the body, in the reference's pipeline order (§4.3), ending in the
 * statically linked Program record (§9.2) and its `program_hash`.
 */
import type { EffectSet, HirExpr, Requirements, YaoProgram } from "../../ir/yao-ir-0.1.js";
import { YAO_LANGUAGE_VERSION } from "../../ir/yao-ir-0.1.js";
import { canonicalSource } from "../canonical/typed.js";
import type { SList, SNode, SSymbol } from "../syntax/tree.js";
import { effectsPart, worded } from "./message.js";
import { ErrorSink, fail, type YaoError } from "./error.js";
import { ExpressionAnalyzer, type AnalysisEnv } from "./expressions.js";
import { FunctionModule, parseFunctionDeclaration, recogniseFunction, type FunctionDeclaration } from "./functions.js";
import {
  recogniseEntryHeader,
  type EntryHeader,
  type FnHeader,
  type NameListClause,
  type RequiresHeader,
} from "../syntax/header.js";
import { programHash } from "./ir-json.js";
import { toolsOfEffects } from "./reachable-tools.js";
import { failOnMisplacedDeclaration } from "./declaration-order.js";
import { countLinkedNodes, MAX_LINKED_NODES } from "./linked-size.js";
import type { AnalysisProfile } from "./profile.js";
import { Scope } from "./scope.js";
import { sortByCodePoints } from "./text.js";
import { parseTypesForm, validateTypeTable, type TypeTable } from "./type-module.js";
import { parseEffectList } from "./type-syntax.js";
import { displayEffectList } from "./type-display.js";
import { effectDifference, isEffectSubset } from "./types.js";

export interface ProgramInput {
  readonly root: SNode;
  /** The root's recognised header when the loader already read it; recognised here otherwise. */
  readonly header?: EntryHeader;
  /** The root's canonical text when the loader already printed it. */
  readonly source?: string;
  /** Canonical `(types ...)` forms of the bound package, for model-authored programs (§4.3 step 2). */
  readonly typeSources?: readonly SNode[];
  /** `(fn ...)` forms of the module, or the loader's recognised headers, in the order given. */
  readonly functions?: readonly (SNode | FnHeader)[];
  /** Package entry: internal functions may be applied and the module tool bound applies. */
  readonly allowInternal: boolean;
  readonly profile: AnalysisProfile;
  /** Where independent errors are recorded; one is made when absent. */
  readonly sink?: ErrorSink;
  /**
   * Admission against a bound package (HNS §9.2): the package entry's tool bound (its
   * `requires.tools`, or the manifest's tools when it has none). Every tool the program names in
   * its `requires`, calls, or reaches through applied functions and `(program …)` effects must be
   * in it; `(requires (tools))` on the entry admits pure programs only.
   */
  readonly packageToolBound?: readonly string[];
  /** False: the first error inside each body stops it, as in the reference (default: recover and go on). */
  readonly recover?: boolean;
}

/** Thrown when analysis recorded errors: every independent one, the reference's first one first. */
export class AnalysisErrors extends Error {
  constructor(readonly errors: readonly YaoError[]) {
    super(errors[0]?.message ?? "analysis failed");
  }
}

export interface ProgramAnalysis {
  readonly program: YaoProgram;
  readonly module: FunctionModule;
}

function isHeaded(n: SNode | undefined, name: string): n is SList {
  return n !== undefined && n.kind === "list" && n.items[0]?.kind === "symbol" && n.items[0].name === name;
}

/** Throws AnalysisErrors with every recorded error, or a YaoError that no unit recovers from. */
export function analyzeRoot(input: ProgramInput): ProgramAnalysis {
  const root = input.root;
  const header = input.header ?? recogniseHeader(root);
  const owner = header.owner;
  const requirements: Requirements =
    header.requires === undefined ? { tools: null, effects: null, objects: null } : readRequirements(header.requires);

  if (input.packageToolBound !== undefined) checkRequiresWithinPackage(header, requirements, input.packageToolBound);

  const types: TypeTable = new Map();
  for (const source of input.typeSources ?? []) {
    if (!isHeaded(source, "types"))
      fail("invalid_type", "HNS module type source must have a (types ...) root", source.span);
    parseTypesForm(source, types, (n) => `bound HNS module declares type '${n}' more than once`);
  }
  if (header.types !== undefined) {
    const local = header.types;
    const localTypes: TypeTable = new Map();
    parseTypesForm(local, localTypes);
    for (const [name, def] of localTypes) {
      if (types.has(name))
        fail("duplicate_name", `program type '${name}' conflicts with the bound HNS module type`, local.span);
      types.set(name, def);
    }
  }
  const sink = input.sink ?? new ErrorSink();
  sink.attempt(
    () => validateTypeTable(types, sink),
    () => undefined,
  );

  const declarations = new Map<string, FunctionDeclaration>();
  for (const f of input.functions ?? []) {
    const decl = sink.attempt(
      () => parseFunctionDeclaration(isFnHeader(f) ? f : recogniseFunction(f), types, sink),
      () => undefined,
    );
    if (decl === undefined) continue;
    const first = declarations.get(decl.name);
    if (first !== undefined) {
      sink.attempt(
        () =>
          fail("duplicate_name", `duplicate HNS function '${decl.name}'`, decl.form.span, {
            label: "declared a second time",
            hint: "rename or remove one of the two functions",
            related: [{ span: first.form.span, message: `'${decl.name}' is first declared here` }],
          }),
        () => undefined,
      );
      continue;
    }
    declarations.set(decl.name, decl);
  }
  const module = new FunctionModule(declarations, sink);
  const env: AnalysisEnv = {
    profile: input.profile,
    types,
    requirements,
    allowInternal: input.allowInternal,
    functions: module,
    counter: { nodes: 0 },
    packageToolBound: input.packageToolBound ?? null,
    ...(input.recover === undefined ? {} : { recover: input.recover }),
  };
  module.attach(env);
  module.compileAll();
  // The module bound is the entry's requires.tools (the loader keeps it inside the manifest's tools);
  // with no tools clause, the profile's available tools (the manifest's) still bound what functions reach.
  if (input.allowInternal) module.checkModuleToolBound(requirements.tools ?? availableTools(input.profile));

  // The entry is checked against the module even when some function had errors.
  const rest = header.body;
  let entryErrors = 0;
  const analyzer = new ExpressionAnalyzer(
    env,
    false,
    input.recover === false
      ? undefined
      : (e) => {
          entryErrors++;
          sink.record(e);
        },
  );
  const scope = Scope.root(input.profile.runtime);
  const body = sink.attempt<HirExpr | undefined>(
    () => {
      if (owner === "runtime") {
        if (rest.length !== 1) {
          const reference = "eval requires exactly one body after declarations; use seq for multiple steps";
          // A declaration out of its place is the cause: say so there, not "use seq" at the whole eval.
          if (root.kind === "list") failOnMisplacedDeclaration("eval", root.span, root.items.slice(1), reference);
          fail("invalid_type", reference, root.span, {
            hint: "wrap the steps in (seq STEP …): an (eval …) holds one expression",
          });
        }
        return analyzer.expr(rest[0]!, scope, 0);
      }
      if (rest.length === 0) fail("invalid_type", "infer requires one Yao body", root.span);
      return analyzer.infer(rest, header.form, scope, 0, true);
    },
    () => undefined,
  );
  if (body === undefined || sink.errors.length > 0 || entryErrors > 0) throw new AnalysisErrors(sink.errors);

  checkDeclaredEffects(body, requirements.effects);
  if (input.packageToolBound !== undefined) checkEffectsWithinPackage(body, input.packageToolBound);
  const linked = countLinkedNodes(body);
  if (linked > MAX_LINKED_NODES) {
    fail(
      "resource_limit",
      {
        text: `the linked program has ${linked} nodes, over the limit of ${MAX_LINKED_NODES}`,
        reference: `statically linked Yao HIR contains ${linked} nodes, exceeding the limit of ${MAX_LINKED_NODES}`,
      },
      root.span,
      {
        label: `this program links ${linked} nodes`,
        hint: `a program with every function body counted once per call holds at most ${MAX_LINKED_NODES} nodes (the linked-node limit); this one has ${linked}: call a large function once and bind its result, or make its body smaller`,
      },
    );
  }
  const sortedTypes = new Map(sortByCodePoints(types.keys()).map((k) => [k, types.get(k)!]));
  const unhashed: YaoProgram = {
    language_version: YAO_LANGUAGE_VERSION,
    owner,
    requirements,
    types: sortedTypes,
    body,
    output: body.ty,
    effects: body.effects,
    canonical_source: input.source ?? canonicalSource(root),
    source_hash: "",
  };
  return { program: { ...unhashed, source_hash: programHash(unhashed) }, module };
}

const OUTSIDE_PACKAGE_HINT =
  "the bound package's entry does not grant it: the model may only use tools inside the entry's (requires (tools …))";

/** An admitted program's own `requires` stays inside the package entry's bound (HNS §9.2). */
function checkRequiresWithinPackage(header: EntryHeader, requirements: Requirements, bound: readonly string[]): void {
  for (const t of header.requires?.tools ?? []) {
    if (!bound.includes(t.name))
      fail("effect_escape", `requires.tools names '${t.name}', outside the package entry requires.tools set`, t.span, {
        label: "not granted by the package entry",
        hint: OUTSIDE_PACKAGE_HINT,
      });
  }
  const nested = toolsOfEffects(requirements.effects ?? []).find((r) => !bound.includes(r.tool));
  if (nested !== undefined && header.requires !== undefined)
    fail(
      "effect_escape",
      `requires.effects reaches tool '${nested.tool}', outside the package entry requires.tools set`,
      header.requires.form.span,
      { hint: OUTSIDE_PACKAGE_HINT },
    );
}

/** Whatever the body reaches (applied functions, nested programs) stays inside the package bound too. */
function checkEffectsWithinPackage(body: HirExpr, bound: readonly string[]): void {
  const escaping = toolsOfEffects(body.effects).find((r) => !bound.includes(r.tool));
  if (escaping !== undefined)
    fail(
      "effect_escape",
      `the program reaches tool '${escaping.tool}', outside the package entry requires.tools set`,
      body.span,
      {
        hint: OUTSIDE_PACKAGE_HINT,
      },
    );
}

function availableTools(profile: AnalysisProfile): string[] {
  return [...profile.tools].filter(([, entry]) => entry.available).map(([name]) => name);
}

function checkDeclaredEffects(body: HirExpr, declared: EffectSet | null): void {
  if (declared === null || isEffectSubset(body.effects, declared)) return;
  fail(
    "effect_escape",
    worded`program effects ${effectsPart(body.effects)} exceed declared upper bound ${effectsPart(declared)}; missing ${effectsPart(effectDifference(body.effects, declared))}. Remove requires.effects to let Yao infer the complete set, or add every missing effect explicitly`,
    body.span,
    {
      label: `this program uses ${displayEffectList(body.effects)}`,
      hint: `add ${displayEffectList(effectDifference(body.effects, declared))} to (requires (effects …)), or remove the (effects …) clause to let Yao infer it`,
    },
  );
}

/** §4.1, worded as the analyzer's errors (the loader words the same failures with `hns.*` codes). */
function recogniseHeader(root: SNode): EntryHeader {
  const r = recogniseEntryHeader(root);
  if (r.ok) return r.header;
  const f = r.failure;
  switch (f.kind) {
    case "not_list":
      return fail("type_mismatch", "program root must be (eval ...) or (infer ...)", f.node.span);
    case "no_owner":
      return fail("unknown_operator", "program root is missing an evaluation owner", f.node.span);
    case "unknown_owner":
      return fail("unknown_operator", `unknown program root '${f.node.name}'; expected eval or infer`, f.node.span);
    case "in_band_version":
      return fail("invalid_type", "Yao source has no in-band version declaration; remove (version ...)", f.node.span);
  }
}

/** §4.2: every clause in source order, judged from the recogniser's record. */
function readRequirements(requires: RequiresHeader): Requirements {
  let effects: EffectSet | null = null;
  for (const clause of requires.clauses) {
    const problem = clause.problem;
    if (problem?.kind === "not_list") fail("type_mismatch", "requires clauses must be lists", clause.node.span);
    if (clause.name === undefined || clause.nameNode === undefined)
      fail("unknown_name", "requires clause has no name", clause.node.span);
    if (clause.name !== "tools" && clause.name !== "objects" && clause.name !== "effects")
      fail("unknown_name", `unknown requires clause '${clause.name}'`, clause.nameNode.span);
    if (problem?.kind === "repeated")
      fail("duplicate_name", `duplicate requires.${clause.name} declaration`, clause.node.span);
    if (problem?.kind === "item_not_symbol")
      fail("unknown_name", ITEM_WORDS[clause.name as NameListClause].notSymbol, problem.node.span);
    if (problem?.kind === "item_repeated")
      fail("duplicate_name", ITEM_WORDS[clause.name as NameListClause].repeated(problem.node.name), problem.node.span);
    if (clause.name === "effects") effects = parseEffectList(clause.args);
  }
  const sorted = (names: readonly SSymbol[] | undefined) =>
    names === undefined ? null : sortByCodePoints(names.map((n) => n.name));
  return { tools: sorted(requires.tools), effects, objects: sorted(requires.objects) };
}

const ITEM_WORDS: Record<NameListClause, { notSymbol: string; repeated: (name: string) => string }> = {
  tools: { notSymbol: "tool must be a symbol", repeated: (t) => `duplicate tool '${t}'` },
  objects: { notSymbol: "object kind must be a symbol", repeated: (k) => `duplicate object kind '${k}'` },
};

function isFnHeader(f: SNode | FnHeader): f is FnHeader {
  return "clauses" in f;
}
