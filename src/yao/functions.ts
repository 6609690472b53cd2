/**
 * The HNS function module (yao-v0.1.md §7): `(fn ...)` declarations, compilation in name order with
 * a static acyclic call graph, and the entry's module tool bound.
 *
 * Compilation recurses through applications, but the compile stack is capped at 32 functions and
 * each body at expression depth 32, so the recursion is bounded.
 */
import { nilLiteral } from "./hir-kinds.js";
import type { EffectSet, HirExpr, YaoType } from "../../ir/yao-ir-0.1.js";
import type { SList, SNode, SourceSpan } from "../syntax/tree.js";
import { effectsPart, typePart, worded } from "./message.js";
import { didYouMean } from "../diagnostics/suggest.js";
import { fail, YaoError, type ErrorSink } from "./error.js";
import { recogniseFnHeader, type FnHeader } from "../syntax/header.js";
import {
  ExpressionAnalyzer,
  RESERVED_FUNCTION_NAMES,
  type AnalysisEnv,
  type CompiledFunction,
  type FunctionResolver,
} from "./expressions.js";
import { RUNTIME_BINDING, Scope } from "./scope.js";
import { toolsOfEffects, toolsOfType } from "./reachable-tools.js";
import { isIdentifier, sortByCodePoints, trimWhiteSpace } from "./text.js";
import { recoverTypeNames, type TypeTable } from "./type-module.js";
import { parseEffectList, parseType } from "./type-syntax.js";
import { displayEffectList, displayEffects, displayType } from "./type-display.js";
import { effectDifference, ERROR_TYPE, isAssignable, isEffectSubset, NO_EFFECTS } from "./types.js";

export const MAX_CALL_DEPTH = 32;

export interface FunctionParameter {
  readonly name: string;
  readonly ty: YaoType;
  /** The `(NAME TYPE)` entry, for secondary spans ("parameter declared here"). */
  readonly span?: SourceSpan;
}

export interface FunctionDeclaration {
  readonly name: string;
  readonly visibility: "internal" | "exported";
  readonly description: string | undefined;
  readonly params: readonly FunctionParameter[];
  readonly returns: YaoType;
  readonly effects: EffectSet | undefined;
  readonly body: SNode;
  readonly form: SList;
  /** The `(returns TYPE)` clause, where a return-type expectation comes from (its span is computed only for a diagnostic). */
  readonly returnsClause?: SNode;
  /**
   * Set when the declaration had errors (already reported): the function stays in the module with
   * what could be read, so its callers are still checked, but its body is not analysed when the
   * body clause itself is missing, and applications accept any arguments when the parameters
   * could not be read.
   */
  readonly recovered?: { readonly signatureKnown: boolean; readonly analyseBody: boolean };
}

const CLAUSES = ["visibility", "description", "params", "returns", "effects", "body"] as const;

/** §7.1's form checks, worded as the analyzer's errors (the loader words them with `hns.*` codes). */
export function recogniseFunction(form: SNode): FnHeader {
  const r = recogniseFnHeader(form);
  if (r.ok) return r.header;
  const f = r.failure;
  switch (f.kind) {
    case "not_list":
      return fail("type_mismatch", "HNS function must be (fn NAME ...)", f.node.span);
    case "not_fn":
      return fail("unknown_operator", "HNS function must have an (fn ...) root", f.node.span);
    case "missing_name":
      return fail("unknown_name", "fn declaration is missing its name", f.node.span);
    case "name_not_symbol":
      return fail("unknown_name", "fn name must be a symbol", f.node.span);
  }
}

/**
 * §7.1, in the reference's check order. Parameter and return types are validated here. Errors in
 * the name are thrown (the function cannot be entered in the module); every other error is recorded
 * in `sink` and the declaration is returned with what could be read.
 */
export function parseFunctionDeclaration(header: FnHeader, types: TypeTable, sink: ErrorSink): FunctionDeclaration {
  const { form, name, nameNode } = header;
  if (!isIdentifier(name) || RESERVED_FUNCTION_NAMES.has(name)) {
    fail("duplicate_name", `invalid or reserved HNS function name '${name}'`, nameNode.span, {
      label: RESERVED_FUNCTION_NAMES.has(name) ? "a reserved Yao name" : "not a valid name",
      hint: "choose another name for the function, for example with a verb-noun such as 'load-file'",
    });
  }
  const errorsBefore = sink.errors.length;
  const seen = new Set<string>();
  const failedClauses = new Set<string>();
  let visibility = "internal" as "internal" | "exported";
  let description: string | undefined;
  let params: FunctionParameter[] | undefined;
  let returns: YaoType | undefined;
  let returnsClause: SNode | undefined;
  let effects: EffectSet | undefined;
  let body: SNode | undefined;
  for (const { node: c, name: clause, nameNode: ch, args } of header.clauses) {
    sink.attempt(
      () => {
        if (c.kind !== "list") fail("type_mismatch", "fn clauses must be lists", c.span);
        if (clause === undefined || ch === undefined) fail("unknown_name", "fn clause has no name", c.span);
        if (!(CLAUSES as readonly string[]).includes(clause)) {
          fail("unknown_name", `unknown fn clause '${clause}'`, ch.span, {
            label: "not an fn clause",
            hint: didYouMean(clause, CLAUSES) ?? `fn clauses are ${CLAUSES.join(", ")}`,
          });
        }
        if (seen.has(clause))
          fail("duplicate_name", `duplicate fn.${clause} declaration`, c.span, {
            label: "declared a second time",
            hint: `keep one (${clause} …)`,
          });
        seen.add(clause);
        failedClauses.add(clause); // until it is read without error
        switch (clause) {
          case "visibility": {
            if (args.length !== 1) fail("invalid_type", "fn visibility must be (visibility internal|exported)", c.span);
            const v = args[0]!;
            if (v.kind !== "symbol") fail("unknown_name", "fn visibility must be internal or exported", v.span);
            if (v.name !== "internal" && v.name !== "exported") {
              fail("invalid_type", `unknown fn visibility '${v.name}'`, v.span, {
                hint:
                  didYouMean(v.name, ["internal", "exported"]) ??
                  "write (visibility internal) or (visibility exported)",
              });
            }
            visibility = v.name;
            break;
          }
          case "description": {
            if (args.length !== 1) fail("invalid_type", "fn description must contain exactly one string", c.span);
            const v = args[0]!;
            if (v.kind === "list") fail("invalid_type", "fn description must be a string", v.span);
            if (v.kind === "symbol" || trimWhiteSpace(v.value) === "") {
              fail("invalid_type", "fn description must be a non-empty string", v.span, {
                hint: 'write (description "what the function does")',
              });
            }
            description = v.value;
            break;
          }
          case "params":
            params = parseParams(args, types, sink);
            break;
          case "returns": {
            if (args.length !== 1) fail("invalid_type", "fn returns must be (returns TYPE)", c.span);
            returnsClause = c;
            returns = ERROR_TYPE; // if the type cannot be read
            returns = recoverTypeNames(parseType(args[0]!), types, () => c.span, args[0]!, sink);
            break;
          }
          case "effects":
            effects = parseEffectList(args);
            break;
          case "body":
            if (args.length !== 1) fail("invalid_type", "fn body must contain exactly one Yao expression", c.span);
            body = args[0]!;
            break;
        }
        failedClauses.delete(clause);
      },
      () => undefined,
    );
  }
  const missing = (clause: string, message: string, hint: string): void => {
    if (failedClauses.has(clause)) return; // already reported where it is written
    sink.attempt(
      () => fail("invalid_type", message, form.span, { label: `no (${clause} …) clause`, hint }),
      () => undefined,
    );
  };
  if (visibility === "exported" && description === undefined && !failedClauses.has("description")) {
    sink.attempt(
      () =>
        fail("missing_description", `exported fn '${name}' requires a non-empty description`, form.span, {
          label: "exported without a (description …)",
          hint: `add (description "what ${name} does") after (visibility exported); the model reads it to decide when to call the function`,
        }),
      () => undefined,
    );
  }
  if (visibility === "exported" && effects === undefined) {
    missing(
      "effects",
      `exported fn '${name}' requires an explicit (effects ...) upper bound`,
      "add (effects) for a pure function, or list what it may do, e.g. (effects (tool read))",
    );
  }
  if (params === undefined)
    missing(
      "params",
      `fn '${name}' is missing (params ...)`,
      "add (params) when it takes no arguments, or (params (NAME TYPE) …)",
    );
  if (returns === undefined)
    missing(
      "returns",
      `fn '${name}' is missing (returns TYPE)`,
      "add (returns TYPE) naming the type of the body's value",
    );
  if (body === undefined)
    missing("body", `fn '${name}' is missing (body EXPR)`, "add (body EXPR) with the function's one Yao expression");
  const recovered =
    sink.errors.length > errorsBefore || params === undefined || body === undefined || returns === undefined;
  // Without its parameters the body's names cannot be resolved: analysing it would only repeat the error.
  const analyseBody = body !== undefined && params !== undefined && !failedClauses.has("params");
  return new Declaration(
    name,
    visibility,
    description,
    params ?? [],
    returns ?? ERROR_TYPE,
    effects,
    body ?? form,
    form,
    returnsClause,
    recovered ? { signatureKnown: params !== undefined, analyseBody } : undefined,
  );
}

/*
 * Declarations and compiled functions are class instances rather than object literals, for the
 * reason the reader's headers are (src/syntax/header.ts): an object literal's allocation site may
 * be moved to the old generation once its objects outlive minor collections, as these do (they
 * last the whole check), and old objects that point at the young tree and HIR keep them through
 * minor collections after the check is over (issue 29, figure n).
 */
class Declaration implements FunctionDeclaration {
  constructor(
    readonly name: string,
    readonly visibility: "internal" | "exported",
    readonly description: string | undefined,
    readonly params: readonly FunctionParameter[],
    readonly returns: YaoType,
    readonly effects: EffectSet | undefined,
    readonly body: SNode,
    readonly form: SList,
    readonly returnsClause: SNode | undefined,
    readonly recovered: FunctionDeclaration["recovered"],
  ) {}
}

class Compiled implements CompiledFunction {
  constructor(
    readonly name: string,
    readonly visibility: "internal" | "exported",
    readonly params: CompiledFunction["params"],
    readonly returns: YaoType,
    readonly body: HirExpr,
    readonly signatureKnown: boolean | undefined,
  ) {}
}

/**
 * The last parameter and function module built, kept until the next is built (a shape no live
 * object has is collected at a full collection, and the optimised analysis with it: see
 * `treeBuilder` in syntax/reader.ts).
 */
const kept: { parameter?: Parameter; module?: FunctionModule } = {};

/** A parameter whose `(NAME TYPE)` span is computed only if a diagnostic points at it. */
class Parameter implements FunctionParameter {
  constructor(
    readonly name: string,
    readonly ty: YaoType,
    private readonly at: SNode,
  ) {
    kept.parameter = this;
  }

  get span(): SourceSpan {
    return this.at.span;
  }
}

function parseParams(entries: readonly SNode[], types: TypeTable, sink: ErrorSink): FunctionParameter[] {
  const out: FunctionParameter[] = [];
  /** Each name's first parameter: a duplicate is found in one lookup, not a scan of those before it. */
  const seen = new Map<string, FunctionParameter>();
  for (const p of entries) {
    if (p.kind !== "list") fail("type_mismatch", "fn parameter must be (NAME TYPE)", p.span);
    if (p.items.length !== 2)
      fail("invalid_type", "fn parameter must contain exactly NAME and TYPE", p.span, {
        hint: "write each parameter as (NAME TYPE), e.g. (path String)",
      });
    const [n, t] = p.items as [SNode, SNode];
    if (n.kind !== "symbol") fail("unknown_name", "binding name must be a symbol without '$'", n.span);
    if (n.name.startsWith("$") || !isIdentifier(n.name))
      fail("unknown_name", `invalid binding name '${n.name}'`, n.span);
    if (n.name === RUNTIME_BINDING || seen.has(n.name)) {
      const first = seen.get(n.name);
      fail("duplicate_name", `invalid or duplicate fn parameter '${n.name}'`, n.span, {
        related: first?.span === undefined ? undefined : [{ span: first.span, message: "first declared here" }],
        hint:
          n.name === RUNTIME_BINDING
            ? "'runtime' is bound implicitly; choose another name"
            : "give each parameter its own name",
      });
    }
    const ty = recoverTypeNames(parseType(t), types, () => p.span, t, sink);
    const param = new Parameter(n.name, ty, p);
    seen.set(n.name, param);
    out.push(param);
  }
  return out;
}

/**
 * Compiles every function of a module on demand, memoised, rejecting cycles (§7.2). Each function
 * is compiled on its own: an error in one is recorded in the sink and the function keeps its
 * declared signature, so its callers are checked against that signature and nothing cascades.
 */
export class FunctionModule implements FunctionResolver {
  private readonly compiled = new Map<string, CompiledFunction>();
  private readonly stack: string[] = [];
  private env: AnalysisEnv | undefined;

  constructor(
    private readonly declarations: ReadonlyMap<string, FunctionDeclaration>,
    private readonly sink: ErrorSink,
  ) {
    kept.module = this;
  }

  /** The environment is built after the module (it refers to it); attach it before compiling. */
  attach(env: AnalysisEnv): void {
    this.env = env;
  }

  has(name: string): boolean {
    return this.declarations.has(name);
  }

  names(): string[] {
    return sortByCodePoints(this.declarations.keys());
  }

  declaration(name: string): FunctionDeclaration | undefined {
    return this.declarations.get(name);
  }

  compiledFunctions(): ReadonlyMap<string, CompiledFunction> {
    return this.compiled;
  }

  compileAll(): void {
    for (const name of this.names()) this.compile(name);
  }

  compile(name: string): CompiledFunction {
    const done = this.compiled.get(name);
    if (done !== undefined) return done;
    const decl = this.declarations.get(name)!;
    const onStack = this.stack.indexOf(name);
    if (onStack >= 0) {
      const members = this.stack.slice(onStack);
      const cycle = [...members, name].join(" -> ");
      fail("recursive_function", `recursive HNS function cycle is not supported: ${cycle}`, decl.form.span, {
        label: `'${name}' is reached again from '${members[members.length - 1]}'`,
        hint: "HNS functions form an acyclic call graph; move the repeated step into the caller or unroll it",
        related: members
          .map((m, i) => ({
            span: this.declarations.get(m)!.form.span,
            message: `'${m}' calls '${members[i + 1] ?? name}'`,
          }))
          .slice(1),
      });
    }
    if (this.stack.length >= MAX_CALL_DEPTH) {
      const depth = this.stack.length + 1;
      fail("resource_limit", `HNS function call depth exceeds ${MAX_CALL_DEPTH}`, decl.form.span, {
        label: `'${name}' is call ${depth} of the chain ${this.stack[0]} -> … -> ${name}, over the limit of ${MAX_CALL_DEPTH}`,
        hint: `functions call each other at most ${MAX_CALL_DEPTH} deep (the call depth limit); this chain is ${depth} deep: call some of its functions from a caller higher up instead of from each other`,
      });
    }
    this.stack.push(name);
    try {
      const result = this.compileBody(decl);
      this.compiled.set(name, result);
      return result;
    } catch (e) {
      if (!(e instanceof YaoError)) throw e;
      this.recordIn(name, e);
      const fallback = this.declaredOnly(decl);
      this.compiled.set(name, fallback);
      return fallback;
    } finally {
      this.stack.pop();
    }
  }

  /**
   * Record an error of function `name`'s body. The reference reports an error inside nested
   * compilation once per enclosing function ("in fn 'a': in fn 'b': …"); the compile stack is
   * exactly that chain, with `name` on top.
   */
  private recordIn(name: string, e: YaoError): void {
    e.function ??= name;
    const prefix = this.stack.map((n) => `in fn '${n}': `).join("");
    e.message = `${prefix}${e.message}`;
    if (e.referenceMessage !== undefined) e.referenceMessage = `${prefix}${e.referenceMessage}`;
    this.sink.record(e);
  }

  /** What callers see of a function whose body has errors: its declaration. */
  private declaredOnly(decl: FunctionDeclaration): CompiledFunction {
    const body: HirExpr = {
      kind: nilLiteral(),
      ty: decl.returns,
      effects: decl.effects ?? NO_EFFECTS,
      span: decl.form.span,
    };
    return new Compiled(
      decl.name,
      decl.visibility,
      decl.params,
      decl.returns,
      body,
      decl.recovered?.signatureKnown ?? true,
    );
  }

  private compileBody(decl: FunctionDeclaration): CompiledFunction {
    if (decl.recovered !== undefined && !decl.recovered.analyseBody) return this.declaredOnly(decl);
    const env = this.env!;
    const scope = Scope.root(env.profile.runtime);
    for (const p of decl.params) scope.bind(p.name, p.ty);
    // Each independent error of the body is recorded where it arises (issue 34, item 4).
    let bodyErrors = 0;
    const analyzer = new ExpressionAnalyzer(
      env,
      true,
      env.recover === false
        ? undefined
        : (e) => {
            bodyErrors++;
            this.recordIn(decl.name, e);
          },
    );
    const body: HirExpr = analyzer.expr(decl.body, scope, 0);
    if (!isAssignable(body.ty, decl.returns)) {
      fail("type_mismatch", worded`expected ${typePart(decl.returns)}, found ${typePart(body.ty)}`, body.span, {
        label: `expected ${displayType(decl.returns)}, found ${displayType(body.ty)}`,
        hint: `make the body produce ${displayType(decl.returns)}, or change the declared (returns …) type`,
        related:
          decl.returnsClause === undefined
            ? undefined
            : [
                {
                  span: decl.returnsClause.span,
                  message: `'${decl.name}' is declared to return ${displayType(decl.returns)} here`,
                },
              ],
      });
    }
    if (decl.effects !== undefined && !isEffectSubset(body.effects, decl.effects)) {
      const missing = effectDifference(body.effects, decl.effects);
      fail(
        "effect_escape",
        {
          // The "in fn 'NAME': " prefix already names the function; the reference's wording names it again.
          text: `its effects ${displayEffects(body.effects)} exceed the declared upper bound ${displayEffects(decl.effects)}; missing ${displayEffectList(missing)}`,
          reference:
            worded`fn '${decl.name}' effects ${effectsPart(body.effects)} exceed declared upper bound ${effectsPart(decl.effects)}; missing ${effectsPart(missing)}`
              .reference,
        },
        body.span,
        {
          label: `this body uses ${displayEffectList(body.effects)}`,
          hint: `add ${displayEffectList(missing)} to the (effects …) of '${decl.name}', or remove what causes ${missing.length === 1 ? "it" : "them"}`,
        },
      );
    }
    // With errors in its body, callers see the declaration, as when the body's first error stopped it.
    if (decl.recovered !== undefined || bodyErrors > 0) return this.declaredOnly(decl);
    return new Compiled(decl.name, decl.visibility, decl.params, decl.returns, body, undefined);
  }

  /**
   * §7.4, HNS §9.2/§14: every tool a function can reach (name order) must lie inside the entry's
   * bound: the tool effects of its body (the reference's check, first), then tools inside nested
   * `(program …)` effects of its body or its declared `(effects …)`, and the `Program` types of its
   * parameters and result (quirk Q13 made strict; docs/divergences/yao.md).
   */
  checkModuleToolBound(bound: readonly string[]): void {
    const types = this.env!.types;
    for (const name of this.names()) {
      const fn = this.compile(name);
      const decl = this.declarations.get(name)!;
      const escaping = this.firstEscape(fn, decl, types, bound);
      if (escaping === undefined) continue;
      this.sink.attempt(
        () =>
          fail(
            "effect_escape",
            `HNS function '${name}' reaches tool '${escaping.tool}' outside the package entry requires.tools set`,
            decl.form.span,
            {
              label: escaping.label,
              hint: `add ${escaping.tool} to the entry's (requires (tools …)) and the manifest's (capabilities (tools …))${escaping.direct ? "" : ", or remove the program type that reaches it"}`,
            },
          ),
        (e) => {
          e.function ??= name;
        },
      );
    }
  }

  private firstEscape(
    fn: CompiledFunction,
    decl: FunctionDeclaration,
    types: TypeTable,
    bound: readonly string[],
  ): { tool: string; label: string; direct: boolean } | undefined {
    const outside = (t: string) => !bound.includes(t);
    const inBody = toolsOfEffects(fn.body.effects).find((r) => outside(r.tool));
    if (inBody !== undefined)
      return {
        tool: inBody.tool,
        direct: inBody.route === "call",
        label:
          inBody.route === "call"
            ? `'${decl.name}' calls tool '${inBody.tool}'`
            : `'${decl.name}' runs a program that may call tool '${inBody.tool}'`,
      };
    const declared = toolsOfEffects(decl.effects ?? []).find((r) => outside(r.tool));
    if (declared !== undefined)
      return {
        tool: declared.tool,
        direct: false,
        label: `'${decl.name}' declares an effect that reaches tool '${declared.tool}'`,
      };
    for (const p of decl.params) {
      const t = toolsOfType(p.ty, types).find(outside);
      if (t !== undefined)
        return { tool: t, direct: false, label: `parameter '${p.name}' is a program that may call tool '${t}'` };
    }
    const r = toolsOfType(decl.returns, types).find(outside);
    if (r !== undefined)
      return { tool: r, direct: false, label: `'${decl.name}' returns a program that may call tool '${r}'` };
    return undefined;
  }
}
