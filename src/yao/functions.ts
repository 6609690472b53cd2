/**
 * The HNS function module (yao-v0.1.md §7): `(fn ...)` declarations, compilation in name order with
 * a static acyclic call graph, and the entry's module tool bound.
 *
 * Compilation recurses through applications, but the compile stack is capped at 32 functions and
 * each body at expression depth 32, so the recursion is bounded.
 */
import type { EffectSet, HirExpr, YaoType } from "../../ir/yao-ir-0.1.js";
import type { SList, SNode, SourceSpan } from "../syntax/tree.js";
import { debugEffects, debugType } from "./debug.js";
import { fail, YaoError } from "./error.js";
import {
  ExpressionAnalyzer,
  RESERVED_FUNCTION_NAMES,
  type AnalysisEnv,
  type CompiledFunction,
  type FunctionResolver,
} from "./expressions.js";
import { RUNTIME_BINDING, Scope } from "./scope.js";
import { isIdentifier, sortByCodePoints, trimWhiteSpace } from "./text.js";
import { validateTypeNames, type TypeTable } from "./type-module.js";
import { parseEffectList, parseType } from "./type-syntax.js";
import { effectDifference, isAssignable, isEffectSubset } from "./types.js";

export const MAX_CALL_DEPTH = 32;

export interface FunctionDeclaration {
  readonly name: string;
  readonly visibility: "internal" | "exported";
  readonly description: string | undefined;
  readonly params: readonly { readonly name: string; readonly ty: YaoType }[];
  readonly returns: YaoType;
  readonly effects: EffectSet | undefined;
  readonly body: SNode;
  readonly form: SList;
}

const CLAUSES = ["visibility", "description", "params", "returns", "effects", "body"] as const;

/** §7.1, in the reference's check order. Parameter and return types are validated here. */
export function parseFunctionDeclaration(form: SNode, types: TypeTable): FunctionDeclaration {
  if (form.kind !== "list") fail("type_mismatch", "HNS function must be (fn NAME ...)", form.span);
  const [head, nameNode, ...clauses] = form.items;
  if (head === undefined || head.kind !== "symbol" || head.name !== "fn") {
    fail("unknown_operator", "HNS function must have an (fn ...) root", head?.span ?? form.span);
  }
  if (nameNode === undefined) fail("unknown_name", "fn declaration is missing its name", form.span);
  if (nameNode.kind !== "symbol") fail("unknown_name", "fn name must be a symbol", nameNode.span);
  const name = nameNode.name;
  if (!isIdentifier(name) || RESERVED_FUNCTION_NAMES.has(name)) {
    fail("duplicate_name", `invalid or reserved HNS function name '${name}'`, nameNode.span);
  }
  const seen = new Set<string>();
  let visibility: "internal" | "exported" = "internal";
  let description: string | undefined;
  let params: { name: string; ty: YaoType }[] | undefined;
  let returns: YaoType | undefined;
  let effects: EffectSet | undefined;
  let body: SNode | undefined;
  for (const c of clauses) {
    if (c.kind !== "list") fail("type_mismatch", "fn clauses must be lists", c.span);
    const ch = c.items[0];
    if (ch === undefined || ch.kind !== "symbol") fail("unknown_name", "fn clause has no name", c.span);
    const clause = ch.name;
    if (!(CLAUSES as readonly string[]).includes(clause)) fail("unknown_name", `unknown fn clause '${clause}'`, ch.span);
    if (seen.has(clause)) fail("duplicate_name", `duplicate fn.${clause} declaration`, c.span);
    seen.add(clause);
    const args = c.items.slice(1);
    switch (clause) {
      case "visibility": {
        if (args.length !== 1) fail("invalid_type", "fn visibility must be (visibility internal|exported)", c.span);
        const v = args[0]!;
        if (v.kind !== "symbol") fail("unknown_name", "fn visibility must be internal or exported", v.span);
        if (v.name !== "internal" && v.name !== "exported") fail("invalid_type", `unknown fn visibility '${v.name}'`, v.span);
        visibility = v.name;
        break;
      }
      case "description": {
        if (args.length !== 1) fail("invalid_type", "fn description must contain exactly one string", c.span);
        const v = args[0]!;
        if (v.kind === "list") fail("invalid_type", "fn description must be a string", v.span);
        if (v.kind === "symbol" || trimWhiteSpace(v.value) === "") {
          fail("invalid_type", "fn description must be a non-empty string", v.span);
        }
        description = v.value;
        break;
      }
      case "params":
        params = parseParams(args, types);
        break;
      case "returns":
        if (args.length !== 1) fail("invalid_type", "fn returns must be (returns TYPE)", c.span);
        returns = parseType(args[0]!);
        validateTypeNames(returns, types, c.span);
        break;
      case "effects":
        effects = parseEffectList(args);
        break;
      case "body":
        if (args.length !== 1) fail("invalid_type", "fn body must contain exactly one Yao expression", c.span);
        body = args[0]!;
        break;
    }
  }
  if (visibility === "exported" && description === undefined) {
    fail("invalid_type", `exported fn '${name}' requires a non-empty description`, form.span);
  }
  if (visibility === "exported" && effects === undefined) {
    fail("invalid_type", `exported fn '${name}' requires an explicit (effects ...) upper bound`, form.span);
  }
  if (params === undefined) fail("invalid_type", `fn '${name}' is missing (params ...)`, form.span);
  if (returns === undefined) fail("invalid_type", `fn '${name}' is missing (returns TYPE)`, form.span);
  if (body === undefined) fail("invalid_type", `fn '${name}' is missing (body EXPR)`, form.span);
  return { name, visibility, description, params, returns, effects, body, form };
}

function parseParams(entries: readonly SNode[], types: TypeTable): { name: string; ty: YaoType }[] {
  const out: { name: string; ty: YaoType }[] = [];
  for (const p of entries) {
    if (p.kind !== "list") fail("type_mismatch", "fn parameter must be (NAME TYPE)", p.span);
    if (p.items.length !== 2) fail("invalid_type", "fn parameter must contain exactly NAME and TYPE", p.span);
    const [n, t] = p.items as [SNode, SNode];
    if (n.kind !== "symbol") fail("unknown_name", "binding name must be a symbol without '$'", n.span);
    if (n.name.startsWith("$") || !isIdentifier(n.name)) fail("unknown_name", `invalid binding name '${n.name}'`, n.span);
    if (n.name === RUNTIME_BINDING || out.some((o) => o.name === n.name)) {
      fail("duplicate_name", `invalid or duplicate fn parameter '${n.name}'`, n.span);
    }
    const ty = parseType(t);
    validateTypeNames(ty, types, p.span);
    out.push({ name: n.name, ty });
  }
  return out;
}

/** Compiles every function of a module on demand, memoised, rejecting cycles (§7.2). */
export class FunctionModule implements FunctionResolver {
  private readonly compiled = new Map<string, CompiledFunction>();
  private readonly stack: string[] = [];
  private env: AnalysisEnv | undefined;

  constructor(private readonly declarations: ReadonlyMap<string, FunctionDeclaration>) {}

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
      const cycle = [...this.stack.slice(onStack), name].join(" -> ");
      fail("recursive_function", `recursive HNS function cycle is not supported: ${cycle}`, decl.form.span);
    }
    if (this.stack.length >= MAX_CALL_DEPTH) {
      fail("resource_limit", `HNS function call depth exceeds ${MAX_CALL_DEPTH}`, decl.form.span);
    }
    this.stack.push(name);
    try {
      const result = this.compileBody(decl);
      this.compiled.set(name, result);
      return result;
    } catch (e) {
      if (e instanceof YaoError) {
        e.function ??= name;
        e.message = `in fn '${name}': ${e.message}`;
      }
      throw e;
    } finally {
      this.stack.pop();
    }
  }

  private compileBody(decl: FunctionDeclaration): CompiledFunction {
    const env = this.env!;
    const scope = Scope.root(env.profile.runtime);
    for (const p of decl.params) scope.bind(p.name, p.ty);
    const body: HirExpr = new ExpressionAnalyzer(env, true).expr(decl.body, scope, 0);
    if (!isAssignable(body.ty, decl.returns)) {
      fail("type_mismatch", `expected ${debugType(decl.returns)}, found ${debugType(body.ty)}`, body.span);
    }
    if (decl.effects !== undefined && !isEffectSubset(body.effects, decl.effects)) {
      fail(
        "effect_escape",
        `fn '${decl.name}' effects ${debugEffects(body.effects)} exceed declared upper bound ${debugEffects(decl.effects)}; missing ${debugEffects(effectDifference(body.effects, decl.effects))}`,
        body.span,
      );
    }
    return { name: decl.name, visibility: decl.visibility, params: decl.params, returns: decl.returns, body };
  }

  /** §7.4: every function's tools (name order) must lie inside the entry's requires.tools. */
  checkModuleToolBound(bound: readonly string[]): void {
    for (const name of this.names()) {
      const fn = this.compile(name);
      for (const e of fn.body.effects) {
        if (e.kind === "tool" && !bound.includes(e.name)) {
          fail(
            "effect_escape",
            `HNS function '${name}' reaches tool '${e.name}' outside the package entry requires.tools set`,
            this.declarations.get(name)!.form.span,
          );
        }
      }
    }
  }
}
