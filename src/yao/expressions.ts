/**
 * Expression analysis (yao-v0.1.md §5): lowers one S-expression to a typed HIR node, checking each
 * form's typing rule in the reference's detection order. Recursion follows the source tree, whose
 * depth is capped at 32 here (and at 128 by the reader), so it cannot overflow.
 */
import * as K from "./hir-kinds.js";
import type {
  EffectSet,
  HirExpr,
  HirKind,
  MatchCase,
  NamedArgument,
  ParBranch,
  PureOperator,
  Requirements,
  YaoType,
} from "../../ir/yao-ir-0.1.js";
import { canonicalSource } from "../canonical/typed.js";
import type { SList, SNode, SourceSpan, SSymbol } from "../syntax/tree.js";
import { debugNameSet, debugType } from "./debug.js";
import { effectsPart, typePart, worded } from "./message.js";
import { emptySpanIn, fail, YaoError, type RelatedSpan, type YaoCode } from "./error.js";
import type { AnalysisProfile, Signature } from "./profile.js";
import { isDynamic } from "./profile.js";
import { Scope } from "./scope.js";
import { isIdentifier, sortByCodePoints } from "./text.js";
import { failOnMisplacedDeclaration } from "./declaration-order.js";
import {
  checkJsonCrossable,
  fieldLimit,
  isNonForgeable,
  MAX_FIELDS,
  validateTypeNames,
  type TypeTable,
} from "./type-module.js";
import { parseType } from "./type-syntax.js";
import { didYouMean } from "../diagnostics/suggest.js";
import { FORM_DOCS, FORM_NAMES, formHelp, type OwnRuleForm } from "./forms.js";
import { toolsOfEffects } from "./reachable-tools.js";
import { displayEffectList, displayType } from "./type-display.js";
import {
  commonType,
  ERROR_TYPE,
  isAssignable,
  isErrorType,
  isNumeric,
  mentionsErrorType,
  NO_EFFECTS,
  T,
  unionEffects,
  unionEffectSets,
} from "./types.js";

export const MAX_EXPRESSION_DEPTH = 32;
export const MAX_ANALYZED_NODES = 4096;
export const MAX_PAR_BRANCHES = 32;

/** A compiled HNS function as an application sees it. */
export interface CompiledFunction {
  readonly name: string;
  readonly visibility: "internal" | "exported";
  readonly params: readonly { readonly name: string; readonly ty: YaoType; readonly span?: SourceSpan }[];
  readonly returns: YaoType;
  readonly body: HirExpr;
  /**
   * False when the declaration's parameters could not be read (an error was already reported):
   * applications then accept any arguments and yield the recovery type, so callers add no errors.
   */
  readonly signatureKnown?: boolean;
}

export interface FunctionResolver {
  has(name: string): boolean;
  /** Declared function names, for did-you-mean. */
  names(): string[];
  /** Compile on demand (memoised); may throw recursion and depth errors. */
  compile(name: string): CompiledFunction;
}

export interface AnalysisEnv {
  readonly profile: AnalysisProfile;
  readonly types: TypeTable;
  readonly requirements: Requirements;
  /** Package entry: internal functions may be applied. */
  readonly allowInternal: boolean;
  readonly functions: FunctionResolver;
  /** Shared across the entry and all function bodies (§8: counted once each). */
  readonly counter: { nodes: number };
  /** When admitting against a package: its entry's tool bound (HNS §9.2); null otherwise. */
  readonly packageToolBound?: readonly string[] | null;
  /**
   * Record each error inside a body and go on with the recovery type (the default); false: the
   * first error of each body (each function, the entry) stops it, as in the reference.
   */
  readonly recover?: boolean;
}

/**
 * Names an HNS function may not take (§7.1). The reference leaves out `json-object`, `from-json` and
 * `to-json`, so such functions can be declared but never applied; we reserve every keyword (D-Q3).
 */
export const RESERVED_FUNCTION_NAMES: ReadonlySet<string> = new Set(["eval", "fn", "requires", "types", ...FORM_NAMES]);

const INT_LITERAL = /^[+-]?[0-9]+$/;
const FLOAT_LITERAL = /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$/;
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

/** Anything with a span: nodes pass themselves, so the span is computed only when an error needs it. */
type Spanned = { readonly span: SourceSpan };

interface ParsedArgument {
  readonly name: string;
  readonly nameSpan: SourceSpan;
  readonly values: HirExpr[];
  readonly span: SourceSpan;
}

/**
 * The last HIR node, argument and analyzer built, kept until the next is built (a shape no live
 * object has is collected at a full collection, and the optimised analysis with it: see
 * `treeBuilder` in syntax/reader.ts).
 */
const kept: {
  node?: HirNode;
  argument?: ArgumentNode;
  parsedArgument?: ParsedArgumentNode;
  analyzer?: ExpressionAnalyzer;
} = {};

/**
 * A typed HIR node whose `span` is its source node's, computed when first read: a valid package's
 * spans are never read (the identity strips them and `programHash` does not encode them), and
 * computing one per node was a tenth of a warm check on text with non-ASCII descriptions.
 */
class HirNode implements HirExpr {
  constructor(
    readonly kind: HirKind,
    readonly ty: YaoType,
    readonly effects: EffectSet,
    private readonly at: Spanned,
  ) {
    kept.node = this;
  }

  get span(): SourceSpan {
    return this.at.span;
  }
}

/** A named argument of the IR, its span computed when first read (see HirNode). */
class ArgumentNode implements NamedArgument {
  constructor(
    readonly name: string,
    readonly values: readonly HirExpr[],
    private readonly at: Spanned,
  ) {
    kept.argument = this;
  }

  get span(): SourceSpan {
    return this.at.span;
  }
}

/** A named argument as read: also where its name is written, computed when first read. */
class ParsedArgumentNode extends ArgumentNode implements ParsedArgument {
  declare readonly values: HirExpr[];

  constructor(
    name: string,
    values: HirExpr[],
    at: SList,
    private readonly nameAt: SSymbol,
  ) {
    super(name, values, at);
    kept.parsedArgument = this;
  }

  get nameSpan(): SourceSpan {
    return this.nameAt.span;
  }
}

/** Errors after which analysis of the unit stops: resource limits and call cycles. */
/** The codes of a form's shape errors, which get the form's signature as help. */
const SHAPE_CODES: ReadonlySet<YaoCode> = new Set<YaoCode>(["type_mismatch", "invalid_type"]);

const UNRECOVERED: ReadonlySet<YaoCode> = new Set<YaoCode>(["resource_limit", "recursive_function"]);

/** The node that stands for an operand whose error was recorded: the recovery type, no effects. */
function recovered(at: Spanned): HirExpr {
  return node(K.nilLiteral(), ERROR_TYPE, NO_EFFECTS, at);
}

/** `at` is the node the expression was read from (or another HIR node with its span): see HirNode. */
function node(kind: HirKind, ty: YaoType, effects: EffectSet, at: Spanned): HirExpr {
  return new HirNode(kind, ty, effects, at);
}

function effectsOf(exprs: readonly HirExpr[]): EffectSet {
  return unionEffectSets(exprs.map((e) => e.effects));
}

function pluralItems(form: SList): readonly SNode[] {
  return form.items.slice(1);
}

/** The typing rule of a form with a rule of its own; `depth` is the form's, its operands are one deeper. */
type OwnRule = (a: ExpressionAnalyzer, n: SList, scope: Scope, depth: number) => HirExpr;

export class ExpressionAnalyzer {
  /** One method per `own` row of the language table: a form added there does not compile until it has one. */
  private static readonly OWN_RULES: { readonly [K in OwnRuleForm]: OwnRule } = {
    list: (a, n, s, depth) => a.list(n, s, depth + 1),
    dict: (a, n, s, depth) => a.dict(n, s, depth + 1),
    "json-object": (a, n, s, depth) => a.jsonObject(n, s, depth + 1),
    "from-json": (a, n, s, depth) => a.fromJson(n, s, depth + 1),
    "to-json": (a, n, s, depth) => a.toJson(n, s, depth + 1),
    record: (a, n, s, depth) => a.record(n, s, depth + 1),
    variant: (a, n, s, depth) => a.variant(n, s, depth + 1),
    some: (a, n, s, depth) => a.some(n, s, depth + 1),
    none: (a, n) => a.none(n),
    ok: (a, n, s, depth) => a.okErr(n, "ok", s, depth + 1),
    err: (a, n, s, depth) => a.okErr(n, "err", s, depth + 1),
    get: (a, n, s, depth) => a.get(n, s, depth + 1),
    decode: (a, n, s, depth) => a.decode(n, s, depth + 1),
    is: (a, n, s, depth) => a.is(n, s, depth + 1),
    seq: (a, n, s, depth) => a.seq(n, s, depth + 1),
    bind: (a, n, s, depth) => a.bind(n, s, depth + 1),
    if: (a, n, s, depth) => a.if(n, s, depth + 1),
    match: (a, n, s, depth) => a.match(n, s, depth + 1),
    fallback: (a, n, s, depth) => a.fallback(n, s, depth + 1),
    map: (a, n, s, depth) => a.map(n, s, depth + 1),
    call: (a, n, s, depth) => a.call(n, s, depth + 1),
    // The infer body is analysed at the form's own depth plus one, inside `infer`.
    infer: (a, n, s, depth) => a.infer(pluralItems(n), n, s, depth, false),
    par: (a, n, s, depth) => a.par(n, s, depth + 1),
    run: (a, n, s, depth) => a.run(n, s, depth + 1),
    "host.view": (a, n, s, depth) => a.hostView(n, s, depth + 1),
    evidence: (a, n, s, depth) => a.evidence(n, s, depth + 1),
    outcome: (a, n, s, depth) => a.outcome(n, s, depth + 1),
    "context-transaction": (a, n, s, depth) => a.contextTransaction(n, s, depth + 1),
  };

  constructor(
    private readonly env: AnalysisEnv,
    /** Inside an HNS function body: no requires.tools check on `call`, no visibility check. */
    private readonly inFunction: boolean,
    /**
     * Where an error inside an operand is recorded. Given, the operand becomes a node of the
     * recovery type and the enclosing form goes on, so one body reports each of its independent
     * errors; absent, the first error is thrown, as the reference does.
     */
    private readonly recover?: (e: YaoError) => void,
  ) {
    kept.analyzer = this;
  }

  /**
   * An operand of a form. An error inside it is recorded and the operand is replaced by a node of
   * the recovery type, which every check accepts, with no effects: what encloses it reports only
   * its own, independent errors. Detection order is unchanged, so the first error recorded is the
   * one thrown without recovery. Limits and cycles are not recovered: past them, every further node
   * would report the same again.
   */
  private operand(n: SNode, scope: Scope, depth: number): HirExpr {
    if (this.recover === undefined) return this.expr(n, scope, depth);
    try {
      return this.expr(n, scope, depth);
    } catch (e) {
      if (!(e instanceof YaoError) || UNRECOVERED.has(e.code)) throw e;
      this.recover(e);
      return recovered(n);
    }
  }

  /**
   * An error at this form itself, after which its other parts can still be checked on their own:
   * recorded when recovering (the caller goes on and returns a node of the recovery type), thrown
   * as the reference does otherwise.
   */
  private report(e: YaoError): void {
    if (this.recover === undefined || UNRECOVERED.has(e.code)) throw e;
    this.recover(e);
  }

  expr(n: SNode, scope: Scope, depth: number): HirExpr {
    if (depth > MAX_EXPRESSION_DEPTH)
      fail("resource_limit", `expression depth exceeds ${MAX_EXPRESSION_DEPTH}`, n.span, {
        label: `depth ${depth} here, over the limit of ${MAX_EXPRESSION_DEPTH}`,
        hint: `an expression nests at most ${MAX_EXPRESSION_DEPTH} forms deep (the expression depth limit); this one reaches ${depth} here: name an inner value with (bind NAME E) in a (seq …), or move it into a function`,
      });
    if (++this.env.counter.nodes > MAX_ANALYZED_NODES) {
      fail(
        "resource_limit",
        {
          text: `the package's programs exceed ${MAX_ANALYZED_NODES} analysed nodes`,
          reference: `typed HIR exceeds ${MAX_ANALYZED_NODES} nodes`,
        },
        n.span,
        {
          label: `node ${this.env.counter.nodes} is here, over the limit of ${MAX_ANALYZED_NODES}`,
          hint: `the entry and the functions of a package are analysed as at most ${MAX_ANALYZED_NODES} nodes together (the analysed-node limit; every atom and form is one); the analysis stopped at node ${this.env.counter.nodes}: shorten long literal lists, or move data out into a tool's result`,
        },
      );
    }
    if (n.kind === "string") return node(K.literal("string", n.value), T.string, NO_EFFECTS, n);
    if (n.kind === "symbol") return this.symbol(n, scope);
    const head = n.items[0];
    if (head === undefined || head.kind !== "symbol") {
      fail("unknown_operator", "expression list must start with an operator symbol", n.span);
    }
    const d = depth + 1;
    const op = head.name;
    // The language table says which rule types each form (src/yao/forms.ts).
    const form = FORM_DOCS.get(op);
    if (form !== undefined) {
      const rule = form.rule;
      try {
        if (rule.kind === "pure") return this.pure(n, op, rule.operator, scope, d);
        if (rule.kind === "host") return this.unaryHost(n, op, rule.argument, scope, d);
        return ExpressionAnalyzer.OWN_RULES[form.name as OwnRuleForm](this, n, scope, depth);
      } catch (e) {
        // A form written with the wrong shape (an operand missing, one too many) is an error at
        // the form itself: its help is how the language table writes it (issue 34, item 5).
        if (e instanceof YaoError && e.hint === undefined && e.span !== undefined && SHAPE_CODES.has(e.code)) {
          const at = n.span;
          if (e.span.start.byte === at.start.byte && e.span.end.byte === at.end.byte) e.hint = formHelp(op);
        }
        throw e;
      }
    }
    if (op.includes(".")) return this.hostOperation(n, op, scope, d);
    if (this.env.functions.has(op)) return this.apply(n, op, scope, d);
    fail(
      "unknown_operator",
      `unknown Yao operator '${op}'`,
      head.span,
      unknownOperatorTeaching(op, this.env.functions.names()),
    );
  }

  // ---- atoms (§5.2) ----

  private symbol(s: SSymbol, scope: Scope): HirExpr {
    const text = s.name;
    if (text.startsWith("$")) {
      const rest = text.slice(1);
      fail(
        "unknown_name",
        rest === ""
          ? "binding references do not use '$'; replace '$' with a bare binding name"
          : `binding references do not use '$'; replace '${text}' with '${rest}'`,
        s.span,
      );
    }
    if (text === "nil") return node(K.nilLiteral(), T.nil, NO_EFFECTS, s);
    if (text === "true" || text === "false") {
      return node(K.literal("bool", text === "true"), T.bool, NO_EFFECTS, s);
    }
    // Every number literal starts with a digit, a sign or a point; most symbols are names.
    const c = text.charCodeAt(0);
    if ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e) return this.numberOrName(s, scope);
    return this.reference(s, text, scope);
  }

  /** A symbol that starts like a number: an Int or Float literal, or else a name after all. */
  private numberOrName(s: SSymbol, scope: Scope): HirExpr {
    const text = s.name;
    if (INT_LITERAL.test(text)) {
      const value = BigInt(text);
      if (value < I64_MIN || value > I64_MAX) {
        // Divergence D-Q2: the reference reports `unknown binding '…'` here.
        fail(
          "integer_out_of_range",
          `integer literal '${text}' is outside the Int range [${I64_MIN}, ${I64_MAX}]`,
          s.span,
        );
      }
      return node(K.literal("int", value), T.int, NO_EFFECTS, s);
    }
    const unsigned = text.replace(/^[+-]/, "");
    if (/^[0-9.]/.test(unsigned) && /[.eE]/.test(text)) {
      if (!FLOAT_LITERAL.test(text)) fail("type_mismatch", `invalid Float literal '${text}'`, s.span);
      return node(K.literal("float", text), T.float, NO_EFFECTS, s);
    }
    return this.reference(s, text, scope);
  }

  /** `name` or `name.field.field…`: a binding and the fields read from it. */
  private reference(s: SSymbol, text: string, scope: Scope): HirExpr {
    const dot = text.indexOf(".");
    const root = dot < 0 ? text : text.slice(0, dot);
    const path = dot < 0 ? [] : text.slice(dot + 1).split(".");
    const rootType = scope.lookup(root);
    if (rootType === undefined) {
      fail("unknown_name", `unknown binding '${root}'`, s.span, {
        label: "not bound here",
        hint: didYouMean(root, scope.names()) ?? "bind it first with (bind NAME EXPR), or declare it as a parameter",
      });
    }
    let result = node(K.reference(root), rootType, NO_EFFECTS, s);
    for (const field of path) result = node(K.get(result, field), this.fieldType(result.ty, field, s), NO_EFFECTS, s);
    return result;
  }

  /** `field_type(receiver, f)` (§5.12). */
  private fieldType(receiver: YaoType, field: string, at: Spanned): YaoType {
    if (isErrorType(receiver)) return ERROR_TYPE;
    if (receiver.kind === "map") return receiver.value;
    if (receiver.kind === "structural_record") {
      const t = receiver.value.get(field);
      if (t !== undefined) return t;
    }
    if (receiver.kind === "named") {
      const def = this.env.types.get(receiver.value);
      if (def !== undefined && def.kind === "record") {
        const f = def.fields.find((x) => x.name === field);
        if (f !== undefined) return f.ty;
      }
    }
    const def = receiver.kind === "named" ? this.env.types.get(receiver.value) : undefined;
    const fields =
      receiver.kind === "structural_record"
        ? [...receiver.value.keys()]
        : def?.kind === "record"
          ? def.fields.map((f) => f.name)
          : [];
    fail("type_mismatch", worded`type ${typePart(receiver)} has no readable field '${field}'`, at.span, {
      label: `${displayType(receiver)} has no field '${field}'`,
      hint:
        receiver.kind === "json"
          ? `a Json value has no fields until it is read as a record: declare (types (record NAME (${field} TYPE) …)) and write (get (decode NAME E) ${field})`
          : didYouMean(field, fields),
    });
  }

  // ---- helpers ----

  private requirePure(position: string, exprs: readonly HirExpr[]): void {
    for (const e of exprs) {
      if (e.effects.length > 0) {
        fail(
          "effect_escape",
          worded`${position} must be pure; bind the effectful result first (found ${effectsPart(e.effects)})`,
          e.span,
          {
            label: `this uses ${displayEffectList(e.effects)}`,
            hint: "run it first with (bind NAME EXPR) inside a (seq …), then use NAME here",
          },
        );
      }
    }
  }

  /** `at` and `related` are read only on a mismatch, so a well-typed expression computes no span. */
  private requireAssignable(
    actual: YaoType,
    target: YaoType,
    at: Spanned,
    related?: () => RelatedSpan | undefined,
  ): void {
    if (!isAssignable(actual, target)) {
      const also = related?.();
      fail("type_mismatch", worded`expected ${typePart(target)}, found ${typePart(actual)}`, at.span, {
        label: `expected ${displayType(target)}, found ${displayType(actual)}`,
        related: also === undefined ? undefined : [also],
      });
    }
  }

  private parseValidatedType(n: SNode, at: Spanned): YaoType {
    const t = parseType(n);
    validateTypeNames(t, this.env.types, () => at.span, n);
    return t;
  }

  /** Fold `common` left to right (§3.4); the error names the accumulated type. */
  private commonOf(types: readonly YaoType[], at: Spanned, message?: string): YaoType {
    let current = types[0]!;
    for (const next of types.slice(1)) {
      const c = commonType(current, next);
      if (c === undefined) {
        fail(
          "type_mismatch",
          message ?? worded`types ${typePart(current)} and ${typePart(next)} have no common type`,
          at.span,
        );
      }
      current = c;
    }
    return current;
  }

  /** `around` is the form the name belongs in, pointed at when the name is missing. */
  private bindingName(n: SNode | undefined, around: Spanned): string {
    if (n === undefined || n.kind !== "symbol") {
      fail("unknown_name", "binding name must be a symbol without '$'", n?.span ?? around.span);
    }
    if (n.name.startsWith("$") || !isIdentifier(n.name))
      fail("unknown_name", `invalid binding name '${n.name}'`, n.span);
    return n.name;
  }

  // ---- collections (§5.4–§5.7) ----

  private list(n: SList, scope: Scope, d: number): HirExpr {
    const elements = pluralItems(n).map((e) => this.operand(e, scope, d));
    this.requirePure("list elements", elements);
    const elem =
      elements.length === 0
        ? T.json
        : this.commonOf(
            elements.map((e) => e.ty),
            n,
          );
    return node({ op: "list", elements }, T.list(elem), effectsOf(elements), n);
  }

  private entries(
    n: SList,
    scope: Scope,
    d: number,
    messages: { shape: string; arity: string; key: string; duplicate: (k: string) => string },
    eachValue?: (value: HirExpr) => void,
  ): { key: string; value: HirExpr }[] {
    const items = pluralItems(n);
    if (items.length > MAX_FIELDS) fieldLimit(items, n.items[0]!.kind === "symbol" ? n.items[0]!.name : "dict");
    const out: { key: string; value: HirExpr }[] = [];
    const seen = new Set<string>();
    for (const entry of items) {
      if (entry.kind !== "list") fail("type_mismatch", messages.shape, entry.span);
      if (entry.items.length !== 2) fail("type_mismatch", messages.arity, entry.span);
      const [k, v] = entry.items as [SNode, SNode];
      if (k.kind === "list") fail("type_mismatch", messages.key, k.span);
      const key = k.kind === "symbol" ? k.name : k.value;
      if (seen.has(key)) fail("duplicate_name", messages.duplicate(key), k.span);
      seen.add(key);
      const value = this.operand(v, scope, d);
      eachValue?.(value);
      out.push({ key, value });
    }
    return out;
  }

  private dict(n: SList, scope: Scope, d: number): HirExpr {
    const entries = this.entries(n, scope, d, {
      shape: "dict entries must be (KEY EXPR)",
      arity: "dict entries must contain exactly a key and value",
      key: "dict key must be a symbol or string",
      duplicate: (k) => `duplicate dict key '${k}'`,
    });
    let valueType: YaoType = T.json;
    if (entries.length > 0) {
      let representative = entries[0]!.value;
      valueType = representative.ty;
      for (const { key, value } of entries.slice(1)) {
        const c = commonType(valueType, value.ty);
        if (c === undefined) {
          throw new YaoError(
            "type_mismatch",
            {
              text: `dict field '${key}' has type ${displayType(value.ty)}, which has no common type with the inferred value type ${displayType(valueType)}; dict is a homogeneous (Map T), so use a named record for fixed heterogeneous fields or an explicit Json boundary for dynamic data`,
              reference: `dict field '${key}' has type ${debugType(value.ty)}, which has no common type with the inferred value type ${debugType(valueType)}; dict is a homogeneous Map<T>, so use a named record for fixed heterogeneous fields or an explicit Json boundary for dynamic data`,
            },
            value.span,
            {
              label: `expected ${displayType(valueType)}, found ${displayType(value.ty)}`,
              hint: "give every dict value the same type, or use (record TYPE …) for fixed fields of different types",
              related: [
                {
                  span: representative.span,
                  message: `the value type ${displayType(valueType)} comes from this value`,
                },
              ],
            },
          );
        }
        if (c !== valueType) {
          valueType = c;
          representative = value;
        }
      }
    }
    const values = entries.map((e) => e.value);
    this.requirePure("dict values", values);
    return node(
      { op: "dict", entries: entries.map((e) => [e.key, e.value] as const) },
      T.map(valueType),
      effectsOf(values),
      n,
    );
  }

  /** Sugar for `(dict (K (to-json E))…)`; it has no IR node of its own (§5.6). */
  private jsonObject(n: SList, scope: Scope, d: number): HirExpr {
    const entries = this.entries(
      n,
      scope,
      d,
      {
        shape: "json-object entries must be (KEY EXPR)",
        arity: "json-object entries require exactly a key and value",
        key: "json-object key must be a symbol or string",
        duplicate: (k) => `duplicate JSON key '${k}'`,
      },
      (value) => {
        this.requirePure("json-object field", [value]);
        if (!mentionsErrorType(value.ty)) checkJsonCrossable(value.ty, this.env.types, value.span);
      },
    );
    const wrapped = entries.map(
      (e) => [e.key, node({ op: "to_json", value: e.value }, T.json, NO_EFFECTS, e.value)] as const,
    );
    return node({ op: "dict", entries: wrapped }, T.map(T.json), NO_EFFECTS, n);
  }

  private fromJson(n: SList, scope: Scope, d: number): HirExpr {
    if (n.items.length !== 3) fail("type_mismatch", "from-json requires TYPE and JSON-EXPR", n.span);
    const target = this.parseValidatedType(n.items[1]!, n);
    checkJsonCrossable(target, this.env.types, n.span);
    const value = this.operand(n.items[2]!, scope, d);
    this.requirePure("from-json operand", [value]);
    return node({ op: "from_json", target, value }, target, NO_EFFECTS, n);
  }

  private toJson(n: SList, scope: Scope, d: number): HirExpr {
    if (n.items.length !== 2) fail("type_mismatch", "to-json requires exactly one expression", n.span);
    const value = this.operand(n.items[1]!, scope, d);
    this.requirePure("to-json operand", [value]);
    if (!mentionsErrorType(value.ty)) checkJsonCrossable(value.ty, this.env.types, value.span);
    return node({ op: "to_json", value }, T.json, NO_EFFECTS, n);
  }

  // ---- nominal constructors (§5.8) ----

  private record(n: SList, scope: Scope, d: number): HirExpr {
    const t = n.items[1];
    if (t === undefined) fail("type_mismatch", "record requires a nominal type name", n.span);
    if (t.kind !== "symbol") fail("unknown_name", "record type must be a symbol", t.span);
    const def = this.env.types.get(t.name);
    if (def === undefined || def.kind !== "record")
      fail("invalid_type", `'${t.name}' is not a declared record type`, t.span);
    const fields = this.constructorFields(n.items.slice(2), def.fields, scope, d, n);
    const values = fields.map((f) => f[1]);
    this.requirePure("record fields", values);
    return node({ op: "record", type_name: t.name, fields }, T.named(t.name), effectsOf(values), n);
  }

  private variant(n: SList, scope: Scope, d: number): HirExpr {
    const c = n.items[1];
    if (c === undefined) fail("type_mismatch", "variant requires TYPE.VARIANT", n.span);
    if (c.kind !== "symbol") fail("unknown_name", "variant constructor must be TYPE.VARIANT", c.span);
    const dot = c.name.lastIndexOf(".");
    if (dot < 0) fail("invalid_type", "variant constructor must be TYPE.VARIANT", c.span);
    const typeName = c.name.slice(0, dot);
    const variantName = c.name.slice(dot + 1);
    const def = this.env.types.get(typeName);
    if (def === undefined || def.kind !== "union")
      fail("invalid_type", `'${typeName}' is not a declared union type`, c.span);
    const v = def.variants.find((x) => x.name === variantName);
    if (v === undefined) fail("invalid_type", `union '${typeName}' has no variant '${variantName}'`, c.span);
    const fields = this.constructorFields(n.items.slice(2), v.fields, scope, d, n);
    const values = fields.map((f) => f[1]);
    this.requirePure("variant fields", values);
    return node(
      { op: "variant", type_name: typeName, variant: variantName, fields },
      T.named(typeName),
      effectsOf(values),
      n,
    );
  }

  private constructorFields(
    args: readonly SNode[],
    defs: readonly { name: string; ty: YaoType; span: SourceSpan }[],
    scope: Scope,
    d: number,
    form: SList,
  ): (readonly [string, HirExpr])[] {
    if (args.length !== defs.length) {
      const span = args[0]?.span ?? defs[0]?.span ?? emptySpanIn(form.span.file);
      fail("type_mismatch", `constructor requires ${defs.length} fields, received ${args.length}`, span);
    }
    const out: (readonly [string, HirExpr])[] = [];
    const seen = new Set<string>();
    for (const a of args) {
      if (a.kind !== "list") fail("type_mismatch", "field value must be (FIELD EXPR)", a.span);
      if (a.items.length !== 2) fail("type_mismatch", "field value must contain exactly FIELD and EXPR", a.span);
      const [f, e] = a.items as [SNode, SNode];
      if (f.kind !== "symbol") fail("unknown_name", "field name must be a symbol", f.span);
      if (seen.has(f.name)) fail("duplicate_name", `duplicate field '${f.name}'`, f.span);
      seen.add(f.name);
      const def = defs.find((x) => x.name === f.name);
      if (def === undefined) {
        fail("unknown_name", `unknown field '${f.name}'`, f.span, {
          label: "no such field",
          hint:
            didYouMean(
              f.name,
              defs.map((x) => x.name),
            ) ?? `the fields are ${defs.map((x) => `'${x.name}'`).join(", ") || "none"}`,
        });
      }
      const value = this.operand(e, scope, d);
      this.requireAssignable(value.ty, def.ty, value, () => ({
        span: def.span,
        message: `field '${f.name}' is declared ${displayType(def.ty)} here`,
      }));
      out.push([f.name, value]);
    }
    return out;
  }

  // ---- option / result (§5.9) ----

  private some(n: SList, scope: Scope, d: number): HirExpr {
    if (n.items.length !== 2) fail("type_mismatch", "some requires exactly one value", n.span);
    const value = this.operand(n.items[1]!, scope, d);
    this.requirePure("some payload", [value]);
    return node({ op: "option_some", value }, T.option(value.ty), value.effects, n);
  }

  private none(n: SList): HirExpr {
    if (n.items.length !== 2) fail("type_mismatch", "none requires exactly one element type", n.span);
    const inner = this.parseValidatedType(n.items[1]!, n);
    return node({ op: "option_none", inner }, T.option(inner), NO_EFFECTS, n);
  }

  private okErr(n: SList, op: "ok" | "err", scope: Scope, d: number): HirExpr {
    if (n.items.length !== 3) {
      fail(
        "type_mismatch",
        op === "ok"
          ? "ok requires a value and the Result error type"
          : "err requires a value and the Result success type",
        n.span,
      );
    }
    const value = this.operand(n.items[1]!, scope, d);
    this.requirePure(`${op} payload`, [value]);
    const other = this.parseValidatedType(n.items[2]!, n);
    return op === "ok"
      ? node({ op: "result_ok", value, error: other }, T.result(value.ty, other), value.effects, n)
      : node({ op: "result_err", value, ok: other }, T.result(other, value.ty), value.effects, n);
  }

  // ---- sealed candidates (§5.10) ----

  /** Named clauses in any order, each once; `handle` processes each clause as it is met. */
  private clauses(
    n: SList,
    form: string,
    shapeMessage: string,
    known: readonly string[],
    handle: (name: string, clause: SList) => void,
  ): void {
    const seen = new Set<string>();
    for (const c of pluralItems(n)) {
      if (c.kind !== "list") fail("type_mismatch", shapeMessage, c.span);
      const h = c.items[0];
      if (h === undefined || h.kind !== "symbol") fail("type_mismatch", `${form} field has no name`, c.span);
      // Quirk Q10: the reference reuses the requires-clause wording here.
      if (seen.has(h.name)) fail("duplicate_name", `duplicate requires.${h.name} declaration`, c.span);
      seen.add(h.name);
      if (!known.includes(h.name)) fail("unknown_name", `unknown ${form} field '${h.name}'`, h.span);
      handle(h.name, c);
    }
  }

  private evidence(n: SList, scope: Scope, d: number): HirExpr {
    let kind: HirExpr | undefined;
    let value: HirExpr | undefined;
    let refs: HirExpr[] = [];
    this.clauses(n, "evidence", "evidence fields must be (NAME EXPR...)", ["kind", "value", "refs"], (name, c) => {
      if (name === "refs") {
        refs = c.items.slice(1).map((r) => this.operand(r, scope, d));
        this.requirePure("evidence refs", refs);
        for (const r of refs) this.requireAssignable(r.ty, T.ref("Evidence"), r);
        return;
      }
      if (c.items.length !== 2) fail("type_mismatch", `evidence ${name} requires exactly one value`, c.span);
      const e = this.operand(c.items[1]!, scope, d);
      this.requirePure("evidence candidate field", [e]);
      if (name === "kind") {
        this.requireAssignable(e.ty, T.string, e);
        kind = e;
      } else value = e;
    });
    if (kind === undefined) fail("type_mismatch", "evidence requires (kind String)", n.span);
    if (value === undefined) fail("type_mismatch", "evidence requires (value EXPR)", n.span);
    return node({ op: "evidence_candidate", kind, value, refs }, T.evidenceCandidate, NO_EFFECTS, n);
  }

  private outcome(n: SList, scope: Scope, d: number): HirExpr {
    let status: "succeeded" | "failed" | "blocked" | undefined;
    let value: HirExpr | undefined;
    let evidence: HirExpr[] = [];
    this.clauses(n, "outcome", "outcome fields must be (NAME EXPR...)", ["status", "value", "evidence"], (name, c) => {
      if (name === "status") {
        if (c.items.length !== 2) fail("type_mismatch", "outcome status requires exactly one symbol", c.span);
        const s = c.items[1]!;
        if (s.kind !== "symbol") fail("unknown_name", "outcome status must be a symbol", s.span);
        if (s.name !== "succeeded" && s.name !== "failed" && s.name !== "blocked") {
          fail("invalid_type", "outcome status must be succeeded, failed, or blocked", s.span);
        }
        status = s.name;
      } else if (name === "value") {
        if (c.items.length !== 2) fail("type_mismatch", "outcome value requires exactly one expression", c.span);
        value = this.operand(c.items[1]!, scope, d);
        this.requirePure("outcome value", [value]);
      } else {
        evidence = c.items.slice(1).map((r) => this.operand(r, scope, d));
        this.requirePure("outcome evidence", evidence);
        for (const r of evidence) this.requireAssignable(r.ty, T.ref("Evidence"), r);
      }
    });
    if (status === undefined) fail("type_mismatch", "outcome requires (status succeeded|failed|blocked)", n.span);
    value ??= node(K.nilLiteral(), T.nil, NO_EFFECTS, n);
    return node({ op: "outcome_candidate", status, value, evidence }, T.outcomeCandidate, NO_EFFECTS, n);
  }

  private contextTransaction(n: SList, scope: Scope, d: number): HirExpr {
    let context: HirExpr | undefined;
    let source: string | undefined;
    this.clauses(
      n,
      "context-transaction",
      "context-transaction fields must be (context EXPR) and (transaction (context-tx ...))",
      ["context", "transaction"],
      (name, c) => {
        if (name === "context") {
          if (c.items.length !== 2)
            fail(
              "type_mismatch",
              {
                text: "context-transaction context requires exactly one (Ref Context)",
                reference: "context-transaction context requires exactly one Ref<Context>",
              },
              c.span,
            );
          context = this.operand(c.items[1]!, scope, d);
          this.requirePure("context-transaction context", [context]);
          this.requireAssignable(context.ty, T.ref("Context"), context);
        } else {
          if (c.items.length !== 2) {
            fail("type_mismatch", "context-transaction transaction requires exactly one (context-tx ...) form", c.span);
          }
          const tx = c.items[1]!;
          if (tx.kind !== "list") fail("type_mismatch", "transaction must be (context-tx ...)", tx.span);
          const h = tx.items[0];
          if (h === undefined || h.kind !== "symbol" || h.name !== "context-tx") {
            fail("type_mismatch", "transaction must start with context-tx", tx.span);
          }
          // The payload is not analysed; only its canonical text is kept (and stripped from identity, Q9).
          source = canonicalSource(tx);
        }
      },
    );
    if (context === undefined)
      fail(
        "type_mismatch",
        {
          text: "context-transaction requires (context (Ref Context))",
          reference: "context-transaction requires (context Ref<Context>)",
        },
        n.span,
      );
    if (source === undefined)
      fail("type_mismatch", "context-transaction requires (transaction (context-tx ...))", n.span);
    return node({ op: "context_transaction", context, canonical_source: source }, T.contextTransaction, NO_EFFECTS, n);
  }

  // ---- get / decode / is (§5.11–§5.12) ----

  private get(n: SList, scope: Scope, d: number): HirExpr {
    if (n.items.length !== 3) fail("type_mismatch", "get requires a value and static field name", n.span);
    const value = this.operand(n.items[1]!, scope, d);
    this.requirePure("get operand", [value]);
    const f = n.items[2]!;
    if (f.kind === "list") fail("type_mismatch", "get field must be a symbol or string", f.span);
    const field = f.kind === "symbol" ? f.name : f.value;
    return node(K.get(value, field), this.fieldType(value.ty, field, n), value.effects, n);
  }

  private decode(n: SList, scope: Scope, d: number): HirExpr {
    if (n.items.length !== 3) fail("type_mismatch", "decode requires TYPE and JSON-EXPR", n.span);
    const target = this.parseValidatedType(n.items[1]!, n);
    if (isNonForgeable(target, this.env.types)) {
      fail(
        "invalid_type",
        "decode cannot construct Ref or Program values; they require host injection or Runtime admission",
        n.span,
      );
    }
    const value = this.operand(n.items[2]!, scope, d);
    this.requirePure("decode operand", [value]);
    return node({ op: "decode", target, value }, target, value.effects, n);
  }

  private is(n: SList, scope: Scope, d: number): HirExpr {
    if (n.items.length !== 3) fail("type_mismatch", "is requires TYPE and EXPR", n.span);
    // Divergence D-Q7: the reference skips name validation here; an undeclared type is an error.
    const target = this.parseValidatedType(n.items[1]!, n);
    const value = this.operand(n.items[2]!, scope, d);
    this.requirePure("is operand", [value]);
    return node({ op: "is", target, value }, T.bool, value.effects, n);
  }

  // ---- pure operators (§5.13) ----

  private pure(n: SList, op: string, operator: PureOperator, scope: Scope, d: number): HirExpr {
    const operands = pluralItems(n).map((e) => this.operand(e, scope, d));
    this.requirePure("pure operator operands", operands);
    const count = operands.length;
    const exactly = (k: number): void => {
      if (count !== k)
        fail("type_mismatch", `${op} requires ${k} operands, found ${count}`, n.span, {
          label: `${count} operand${count === 1 ? "" : "s"} here`,
          hint: formHelp(op),
        });
    };
    const atLeastTwo = (): void => {
      if (count < 2)
        fail("type_mismatch", `${op} requires at least two operands`, n.span, {
          label: `${count} operand${count === 1 ? "" : "s"} here`,
          hint: formHelp(op),
        });
    };
    let result: YaoType = T.bool;
    switch (op) {
      case "eq":
      case "ne":
        exactly(2);
        if (commonType(operands[0]!.ty, operands[1]!.ty) === undefined)
          fail("type_mismatch", `${op} operands have incompatible types`, n.span);
        break;
      case "lt":
      case "le":
      case "gt":
      case "ge": {
        exactly(2);
        const [a, b] = [operands[0]!.ty, operands[1]!.ty];
        // An operand whose error is already reported is ordered with anything.
        const ordered =
          (isNumeric(a) && isNumeric(b)) ||
          (a.kind === "string" && b.kind === "string") ||
          isErrorType(a) ||
          isErrorType(b);
        if (!ordered)
          fail("type_mismatch", worded`types ${typePart(a)} and ${typePart(b)} are not ordered`, n.span, {
            hint: `${op} compares two Int/Float values or two String values`,
          });
        break;
      }
      case "and":
      case "or":
      case "not":
        if (op === "not") exactly(1);
        else atLeastTwo();
        for (const o of operands) this.requireAssignable(o.ty, T.bool, o);
        break;
      default: {
        if (op === "add" || op === "mul") atLeastTwo();
        else exactly(2);
        for (const o of operands) {
          if (!isNumeric(o.ty)) {
            fail("type_mismatch", worded`numeric operator received ${typePart(o.ty)}`, o.span, {
              label: `expected Int or Float, found ${displayType(o.ty)}`,
              hint:
                o.ty.kind === "string"
                  ? `${op} works on numbers; for text, build a string with a tool or keep the values apart`
                  : undefined,
            });
          }
        }
        // Divergence D-Q1: `div` always divides as floats at run time, so it is typed Float.
        result = op === "div" || operands.some((o) => o.ty.kind === "float") ? T.float : T.int;
      }
    }
    return node(K.pure(operator, operands), result, effectsOf(operands), n);
  }

  // ---- control (§5.14–§5.18) ----

  private seq(n: SList, scope: Scope, d: number): HirExpr {
    if (n.items.length < 2) fail("type_mismatch", "seq requires at least one step", n.span);
    const steps = pluralItems(n).map((s) => this.operand(s, scope, d));
    return node(K.seq(steps), steps[steps.length - 1]!.ty, effectsOf(steps), n);
  }

  private bind(n: SList, scope: Scope, d: number): HirExpr {
    if (this.recover === undefined) return this.checkedBind(n, scope, d);
    try {
      return this.checkedBind(n, scope, d);
    } catch (e) {
      // The name stays known, as the recovery type, so its later uses add no "unknown binding".
      const nameNode = n.items[1];
      if (e instanceof YaoError && nameNode?.kind === "symbol" && !scope.has(nameNode.name))
        scope.bind(nameNode.name, ERROR_TYPE);
      throw e;
    }
  }

  private checkedBind(n: SList, scope: Scope, d: number): HirExpr {
    if (n.items.length !== 3) fail("type_mismatch", "bind requires NAME and EXPR", n.span);
    const nameNode = n.items[1]!;
    const name = this.bindingName(nameNode, n);
    if (scope.has(name)) fail("duplicate_name", `binding '${name}' cannot be overwritten`, nameNode.span);
    const value = this.operand(n.items[2]!, scope, d);
    // Divergence D-Q12: a binding made inside the value (through seq) must not be overwritten either.
    if (scope.has(name)) fail("duplicate_name", `binding '${name}' cannot be overwritten`, nameNode.span);
    scope.bind(name, value.ty);
    return node(K.bind(name, value), T.nil, value.effects, n);
  }

  private if(n: SList, scope: Scope, d: number): HirExpr {
    if (n.items.length !== 4) fail("type_mismatch", "if requires CONDITION, THEN, and ELSE", n.span);
    const condition = this.operand(n.items[1]!, scope, d);
    this.requirePure("if condition", [condition]);
    this.requireAssignable(condition.ty, T.bool, condition);
    const whenTrue = this.operand(n.items[2]!, scope.copy(), d);
    const whenFalse = this.operand(n.items[3]!, scope.copy(), d);
    const ty = commonType(whenTrue.ty, whenFalse.ty);
    if (ty === undefined) fail("type_mismatch", "if branches have no common result type", n.span);
    return node(K.ifKind(condition, whenTrue, whenFalse), ty, effectsOf([condition, whenTrue, whenFalse]), n);
  }

  private match(n: SList, scope: Scope, d: number): HirExpr {
    if (n.items.length < 2) fail("type_mismatch", "match requires a value and cases", n.span);
    const value = this.operand(n.items[1]!, scope, d);
    this.requirePure("match value", [value]);
    // The value's error is reported; without its union the patterns cannot be checked, but the
    // case bodies still are.
    if (isErrorType(value.ty)) return this.casesWithoutUnion(n, scope, d);
    if (value.ty.kind !== "named") {
      this.report(new YaoError("type_mismatch", "match value must be a named union", value.span));
      return this.casesWithoutUnion(n, scope, d);
    }
    const typeName = value.ty.value;
    const def = this.env.types.get(typeName);
    if (def === undefined || def.kind !== "union") {
      this.report(new YaoError("invalid_type", `'${typeName}' is not a union`, value.span));
      return this.casesWithoutUnion(n, scope, d);
    }
    const cases: MatchCase[] = [];
    const covered = new Set<string>();
    let caseFailed = false;
    const matchCase = (c: SNode): void => {
      if (c.kind !== "list") fail("type_mismatch", "match case must be (PATTERN BODY)", c.span);
      if (c.items.length !== 2) fail("type_mismatch", "match case must contain pattern and body", c.span);
      const [pattern, bodyNode] = c.items as [SNode, SNode];
      if (pattern.kind !== "list") fail("type_mismatch", "match pattern must be (case TYPE.VARIANT ...)", pattern.span);
      const [caseKw, ctor, ...bindingNodes] = pattern.items;
      if (caseKw === undefined || caseKw.kind !== "symbol" || caseKw.name !== "case" || ctor === undefined) {
        fail("type_mismatch", "match pattern must start with (case TYPE.VARIANT ...)", pattern.span);
      }
      if (ctor.kind !== "symbol") fail("unknown_name", "match constructor must be TYPE.VARIANT", ctor.span);
      const dot = ctor.name.lastIndexOf(".");
      if (dot < 0) fail("invalid_type", "match constructor must be TYPE.VARIANT", ctor.span);
      const caseType = ctor.name.slice(0, dot);
      const variantName = ctor.name.slice(dot + 1);
      if (caseType !== typeName) fail("type_mismatch", `case for '${caseType}' cannot match '${typeName}'`, ctor.span);
      if (covered.has(variantName)) fail("duplicate_name", `duplicate match case '${variantName}'`, ctor.span);
      const variant = def.variants.find((v) => v.name === variantName);
      if (variant === undefined) fail("invalid_type", `unknown variant '${typeName}.${variantName}'`, ctor.span);
      covered.add(variantName);
      if (bindingNodes.length !== variant.fields.length) {
        fail(
          "type_mismatch",
          "match pattern must bind every variant field exactly once",
          bindingNodes[0]?.span ?? emptySpanIn(n.span.file),
        );
      }
      const caseScope = scope.copy();
      const bindings: { field: string; binding: string }[] = [];
      const fieldsSeen = new Set<string>();
      for (const b of bindingNodes) {
        if (b.kind !== "list") fail("type_mismatch", "match field binding must be (FIELD NAME)", b.span);
        if (b.items.length !== 2) fail("type_mismatch", "match field binding must contain FIELD and NAME", b.span);
        const [f, nameNode] = b.items as [SNode, SNode];
        if (f.kind !== "symbol") fail("unknown_name", "match field must be a symbol", f.span);
        const binding = this.bindingName(nameNode, b);
        const field = variant.fields.find((x) => x.name === f.name);
        if (field === undefined) fail("unknown_name", `variant has no field '${f.name}'`, f.span);
        if (fieldsSeen.has(f.name)) fail("duplicate_name", `match repeats field '${f.name}'`, f.span);
        fieldsSeen.add(f.name);
        if (caseScope.has(binding))
          fail("duplicate_name", `match binding '${binding}' shadows an existing binding`, nameNode.span);
        caseScope.bind(binding, field.ty);
        bindings.push({ field: f.name, binding });
      }
      const body = this.operand(bodyNode, caseScope, d);
      cases.push({ variant: variantName, bindings, body, span: c.span });
    };
    for (const c of n.items.slice(2)) {
      if (this.recover === undefined) {
        matchCase(c);
        continue;
      }
      // A case whose pattern fails is reported and left out; the other cases are still checked.
      try {
        matchCase(c);
      } catch (e) {
        if (!(e instanceof YaoError) || UNRECOVERED.has(e.code)) throw e;
        this.recover(e);
        caseFailed = true;
      }
    }
    // With a case left out, exhaustiveness cannot be judged: it is not reported as a consequence.
    if (caseFailed && cases.length === 0) return recovered(n);
    const missing = def.variants.filter((v) => !covered.has(v.name)).map((v) => v.name);
    if (missing.length > 0 && !caseFailed)
      fail("type_mismatch", `non-exhaustive match; missing ${missing.join(", ")}`, n.span);
    const ty = this.commonOf(
      cases.map((c) => c.body.ty),
      n,
    );
    return node({ op: "match", value, cases }, ty, effectsOf([value, ...cases.map((c) => c.body)]), n);
  }

  /**
   * The cases of a match whose value failed or is not a union (that error is recorded): each body
   * is checked on its own, every name its pattern binds of the recovery type, so nothing in a body
   * is a consequence of the value; a pattern is not checked. The match is of the recovery type.
   */
  private casesWithoutUnion(n: SList, scope: Scope, d: number): HirExpr {
    for (const c of n.items.slice(2)) {
      if (c.kind !== "list" || c.items.length !== 2) continue;
      const [pattern, bodyNode] = c.items as [SNode, SNode];
      const caseScope = scope.copy();
      if (pattern.kind === "list")
        for (const b of pattern.items.slice(2)) {
          const name = b.kind === "list" && b.items.length === 2 ? b.items[1] : undefined;
          if (name?.kind === "symbol" && !caseScope.has(name.name)) caseScope.bind(name.name, ERROR_TYPE);
        }
      this.operand(bodyNode, caseScope, d);
    }
    return recovered(n);
  }

  private fallback(n: SList, scope: Scope, d: number): HirExpr {
    if (n.items.length !== 3) fail("type_mismatch", "fallback requires PRIMARY and BACKUP", n.span);
    const primary = this.operand(n.items[1]!, scope.copy(), d);
    const backup = this.operand(n.items[2]!, scope.copy(), d);
    const ty = commonType(primary.ty, backup.ty);
    if (ty === undefined) fail("type_mismatch", "fallback branches have no common result type", n.span);
    return node({ op: "fallback", primary, backup }, ty, effectsOf([primary, backup]), n);
  }

  private map(n: SList, scope: Scope, d: number): HirExpr {
    if (n.items.length !== 4) fail("type_mismatch", "map requires COLLECTION, ELEMENT, and BODY", n.span);
    const collection = this.operand(n.items[1]!, scope, d);
    this.requirePure("map collection", [collection]);
    // An error in the collection or the element name is this form's; the body is still checked,
    // with the element of the recovery type when it is not known, so its uses add nothing.
    let failed = false;
    if (collection.ty.kind !== "list" && !isErrorType(collection.ty)) {
      failed = true;
      this.report(
        new YaoError(
          "type_mismatch",
          { text: "map collection must be (List T)", reference: "map collection must be List<T>" },
          collection.span,
          { label: `expected a List, found ${displayType(collection.ty)}` },
        ),
      );
    }
    const elementType = collection.ty.kind === "list" ? collection.ty.value : ERROR_TYPE;
    const nameNode = n.items[2]!;
    const bodyScope = scope.copy();
    let element: string | undefined;
    try {
      element = this.bindingName(nameNode, n);
      if (scope.has(element))
        fail("duplicate_name", `map element '${element}' shadows an existing binding`, nameNode.span);
      bodyScope.bind(element, elementType);
    } catch (e) {
      if (!(e instanceof YaoError)) throw e;
      this.report(e);
      failed = true;
      // A name that was meant (a symbol, if not a valid or free one) stands for the element.
      if (nameNode.kind === "symbol") bodyScope.bind(nameNode.name, ERROR_TYPE);
      else return recovered(n); // which name the body uses for the element is unknown: no cascade
    }
    const body = this.operand(n.items[3]!, bodyScope, d);
    if (failed || element === undefined) return recovered(n);
    return node({ op: "map", collection, element, body }, T.list(body.ty), effectsOf([collection, body]), n);
  }

  // ---- effects: call, host, infer, par, run (§5.19–§5.24) ----

  private namedArguments(items: readonly SNode[], scope: Scope, d: number): ParsedArgument[] {
    const out: ParsedArgument[] = [];
    const seen = new Set<string>();
    for (const a of items) {
      if (a.kind !== "list") fail("type_mismatch", "named argument must be (NAME EXPR...)", a.span);
      const nameNode = a.items[0];
      if (nameNode === undefined) fail("type_mismatch", "named argument is empty", a.span);
      if (nameNode.kind !== "symbol") fail("unknown_name", "argument name must be a symbol", nameNode.span);
      if (a.items.length < 2) fail("type_mismatch", `argument '${nameNode.name}' has no value`, a.span);
      if (seen.has(nameNode.name)) fail("duplicate_name", `duplicate argument '${nameNode.name}'`, nameNode.span);
      seen.add(nameNode.name);
      const values = a.items.slice(1).map((v) => this.operand(v, scope, d));
      out.push(new ParsedArgumentNode(nameNode.name, values, a, nameNode));
    }
    return out;
  }

  private checkSignature(sig: Signature, args: readonly ParsedArgument[], form: SList): void {
    if (isDynamic(sig)) return;
    const given = new Set(args.map((a) => a.name));
    for (const r of sortByCodePoints(sig.required)) {
      if (!given.has(r)) fail("type_mismatch", `missing required argument '${r}'`, form.span);
    }
    for (const a of args) {
      const param = sig.arguments.get(a.name);
      if (param === undefined) {
        fail("unknown_name", `unknown argument '${a.name}'`, a.span, {
          hint: didYouMean(a.name, sig.arguments.keys()),
        });
      }
      const actual =
        a.values.length === 1
          ? a.values[0]!.ty
          : T.list(
              this.commonOf(
                a.values.map((v) => v.ty),
                a,
              ),
            );
      this.requireAssignable(actual, param, a);
    }
  }

  private irArguments(args: readonly ParsedArgument[]): NamedArgument[] {
    return args.map((a) => new ArgumentNode(a.name, a.values, a));
  }

  private call(n: SList, scope: Scope, d: number): HirExpr {
    const toolNode = n.items[1];
    if (toolNode === undefined) fail("type_mismatch", "call requires a static tool name", n.span);
    if (toolNode.kind !== "symbol") fail("unknown_name", "tool name must be a symbol", toolNode.span);
    const tool = toolNode.name;
    const bound = this.env.requirements.tools;
    if (!this.inFunction && bound !== null && !bound.includes(tool)) {
      fail("effect_escape", `tool '${tool}' is outside the program requires.tools set`, toolNode.span);
    }
    const packageBound = this.env.packageToolBound;
    if (!this.inFunction && packageBound != null && !packageBound.includes(tool)) {
      fail("effect_escape", `tool '${tool}' is outside the package entry requires.tools set`, toolNode.span, {
        label: "not granted by the package entry",
        hint: "the bound package's entry does not grant it: the model may only use tools inside the entry's (requires (tools …))",
      });
    }
    const entry = this.env.profile.tools.get(tool);
    if (entry === undefined) {
      this.report(
        new YaoError("unknown_name", `unknown tool '${tool}'`, toolNode.span, {
          label: "no tool of this name",
          hint:
            didYouMean(tool, this.env.profile.tools.keys()) ??
            "declare it in the manifest's (capabilities (tools …)) and the entry's (requires (tools …))",
        }),
      );
      // The arguments' own errors do not depend on the tool's name; with no signature known, none
      // is checked against one (no cascade), and the call is of the recovery type.
      this.namedArguments(n.items.slice(2), scope, d);
      return recovered(n);
    }
    if (!entry.available) fail("effect_escape", entry.reason, toolNode.span);
    const args = this.namedArguments(n.items.slice(2), scope, d);
    this.requirePure(
      "call arguments",
      args.flatMap((a) => a.values),
    );
    this.checkSignature(entry.signature, args, n);
    const effects = unionEffects(effectsOf(args.flatMap((a) => a.values)), [{ kind: "tool", name: tool }]);
    return node(K.call(tool, this.irArguments(args)), entry.signature.result, effects, n);
  }

  private unaryHost(n: SList, op: string, argument: string, scope: Scope, d: number): HirExpr {
    if (n.items.length !== 2) fail("type_mismatch", `${op} requires exactly one operand`, n.span);
    const sig = this.env.profile.hostOperations.get(op);
    if (sig === undefined) fail("unknown_name", `unknown host operation '${op}'`, n.span);
    const operand = this.operand(n.items[1]!, scope, d);
    this.requirePure("host operation operand", [operand]);
    const arg: ParsedArgument = {
      name: argument,
      nameSpan: operand.span,
      values: [operand],
      span: operand.span,
    };
    this.checkSignature(sig, [arg], n);
    return node(
      { op: "host", operation: op, arguments: this.irArguments([arg]) },
      sig.result,
      [{ kind: "host", name: op }],
      n,
    );
  }

  private hostOperation(n: SList, op: string, scope: Scope, d: number): HirExpr {
    const sig = this.env.profile.hostOperations.get(op);
    if (sig === undefined) fail("unknown_name", `unknown host operation '${op}'`, n.span);
    const args = this.namedArguments(pluralItems(n), scope, d);
    const values = args.flatMap((a) => a.values);
    this.requirePure("host operation arguments", values);
    this.checkSignature(sig, args, n);
    const effects = unionEffects(effectsOf(values), [{ kind: "host", name: op }]);
    return node({ op: "host", operation: op, arguments: this.irArguments(args) }, sig.result, effects, n);
  }

  private hostView(n: SList, scope: Scope, d: number): HirExpr {
    if (n.items.length !== 3) fail("type_mismatch", "host.view requires REF and (returns TYPE)", n.span);
    const ref = this.operand(n.items[1]!, scope, d);
    this.requirePure("host.view reference", [ref]);
    if (isErrorType(ref.ty)) return recovered(n);
    if (ref.ty.kind !== "ref")
      fail(
        "type_mismatch",
        { text: "host.view first operand must be (Ref KIND)", reference: "host.view first operand must be Ref<K>" },
        ref.span,
      );
    const kind = ref.ty.value;
    const objects = this.env.requirements.objects;
    if (objects !== null && !objects.includes(kind)) {
      fail(
        "effect_escape",
        {
          text: `host.view (Ref ${kind}) exceeds the declared object upper bound (objects${objects.map((o) => ` ${o}`).join("")})`,
          reference: `host.view Ref<${kind}> exceeds declared object upper bound ${debugNameSet(objects)}`,
        },
        ref.span,
      );
    }
    const ret = n.items[2]!;
    if (ret.kind !== "list") fail("type_mismatch", "host.view result must be (returns TYPE)", ret.span);
    if (ret.items.length !== 2) fail("invalid_type", "host.view result must be (returns TYPE)", ret.span);
    const rh = ret.items[0]!;
    if (rh.kind !== "symbol" || rh.name !== "returns")
      fail("invalid_type", "host.view second operand must be (returns TYPE)", ret.span);
    const ty = this.parseValidatedType(ret.items[1]!, ret);
    const okReturn =
      ty.kind === "json" ||
      ty.kind === "structural_record" ||
      (ty.kind === "named" && this.env.types.get(ty.value)?.kind === "record");
    if (!okReturn)
      fail("invalid_type", "host.view return type must be Json, a structural record, or a named record", ret.span);
    const args: NamedArgument[] = [{ name: "ref", values: [ref], span: ref.span }];
    return node(
      { op: "host", operation: "host.view", arguments: args },
      ty,
      [{ kind: "host", name: `view.${kind}` }],
      n,
    );
  }

  /**
   * `(infer [(captures N…)] [(returns T)] BODY)` (§5.21). The root infer of an `(infer ...)` program
   * passes `root`: no `infer` effect, and its source is the whole root's canonical text.
   */
  infer(args: readonly SNode[], form: SList, scope: Scope, depth: number, root: boolean): HirExpr {
    let i = 0;
    const captures: string[] = [];
    const first = args[0];
    if (
      first !== undefined &&
      first.kind === "list" &&
      first.items[0]?.kind === "symbol" &&
      first.items[0].name === "captures"
    ) {
      for (const c of first.items.slice(1)) {
        if (c.kind !== "symbol") fail("unknown_name", "captures entries must be lexical names", c.span);
        if (captures.includes(c.name))
          fail("duplicate_name", `infer captures lexical name '${c.name}' more than once`, c.span);
        if (!scope.has(c.name))
          fail("unknown_name", `infer capture '${c.name}' is not bound in the parent scope`, c.span);
        captures.push(c.name);
      }
      i = 1;
    }
    let declared: YaoType | undefined;
    const ret = args[i];
    if (
      ret !== undefined &&
      ret.kind === "list" &&
      ret.items[0]?.kind === "symbol" &&
      ret.items[0].name === "returns"
    ) {
      if (ret.items.length !== 2)
        fail("invalid_type", "infer result declaration must be exactly (returns TYPE)", ret.span);
      declared = this.parseValidatedType(ret.items[1]!, ret);
      i++;
    }
    if (args.length - i !== 1) {
      const reference =
        "infer requires exactly one complete Yao body after optional captures/returns declarations; use seq for multiple steps";
      failOnMisplacedDeclaration(root ? "infer" : "inner infer", form.span, args, reference);
      // No body at all: the form's signature is the help (ExpressionAnalyzer.expr adds it).
      fail(
        "invalid_type",
        reference,
        form.span,
        args.length - i === 0 ? {} : { hint: "wrap the steps in (seq STEP …): an (infer …) holds one body expression" },
      );
    }
    const bodyScope = Scope.captures(captures.map((c) => [c, scope.lookup(c)!]));
    const body = this.operand(args[i]!, bodyScope, depth + 1);
    const source = root ? canonicalSource(form) : `(infer ${args.map(canonicalSource).join(" ")})`;
    const result = declared ?? body.ty;
    const effects = root ? body.effects : unionEffects([{ kind: "infer" }], body.effects);
    return node({ op: "infer_body", body, captures, result, source }, result, effects, form);
  }

  private par(n: SList, scope: Scope, d: number): HirExpr {
    const members = pluralItems(n);
    if (members.length < 2) fail("type_mismatch", "par requires at least two branches", n.span);
    if (members.length > MAX_PAR_BRANCHES) {
      fail(
        "resource_limit",
        `par contains ${members.length} branches; the limit is ${MAX_PAR_BRANCHES}`,
        members[MAX_PAR_BRANCHES]!.span,
        {
          label: `branch ${MAX_PAR_BRANCHES + 1} of ${members.length}, over the limit of ${MAX_PAR_BRANCHES}`,
          hint: `a par holds 2 to ${MAX_PAR_BRANCHES} branches (the par branch limit); this one has ${members.length}: split it into several par forms in a (seq …)`,
        },
      );
    }
    const branches: ParBranch[] = [];
    const fields = new Map<string, YaoType>();
    for (const m of members) {
      if (m.kind !== "list" || m.items.length !== 3)
        fail("type_mismatch", "par members must be (branch NAME EXPR)", m.span);
      const [h, nameNode, e] = m.items as [SNode, SNode, SNode];
      if (h.kind !== "symbol" || h.name !== "branch")
        fail("unknown_operator", "par members must start with branch", h.span);
      if (nameNode.kind !== "symbol") fail("unknown_name", "branch name must be a symbol", nameNode.span);
      if (!isIdentifier(nameNode.name)) fail("unknown_name", `invalid branch name '${nameNode.name}'`, nameNode.span);
      if (fields.has(nameNode.name)) fail("duplicate_name", `duplicate par branch '${nameNode.name}'`, nameNode.span);
      const body = this.operand(e, scope.copy(), d);
      fields.set(nameNode.name, body.ty);
      branches.push({ name: nameNode.name, body, span: m.span });
    }
    return node({ op: "par", branches }, T.structural(fields), effectsOf(branches.map((b) => b.body)), n);
  }

  private run(n: SList, scope: Scope, d: number): HirExpr {
    if (n.items.length !== 2) fail("type_mismatch", "run requires one Program Value", n.span);
    const program = this.operand(n.items[1]!, scope, d);
    this.requirePure("run operand", [program]);
    if (isErrorType(program.ty)) return node({ op: "run", program }, ERROR_TYPE, program.effects, n);
    if (program.ty.kind !== "program") {
      fail("type_mismatch", "run operand must have Program<T, E> type", program.span, {
        label: `expected a Program, found ${displayType(program.ty)}`,
      });
    }
    const effects = unionEffects(program.effects, [{ kind: "program", name: program.ty.value.effects }]);
    return node({ op: "run", program }, program.ty.value.output, effects, n);
  }

  // ---- function application (§7.3) ----

  private apply(n: SList, name: string, scope: Scope, d: number): HirExpr {
    const fn = this.env.functions.compile(name);
    if (!this.inFunction && !this.env.allowInternal && fn.visibility === "internal") {
      fail("unknown_name", `HNS function '${name}' is internal and cannot be called by this program`, n.span, {
        hint: `declare it (visibility exported) with a description and effects, or call an exported function`,
      });
    }
    const args = this.namedArguments(pluralItems(n), scope, d);
    const values = args.flatMap((a) => a.values);
    this.requirePure("function arguments", values);
    if (fn.signatureKnown === false) {
      // The declaration's parameters were already reported; do not guess at this application.
      return node(
        K.functionApplication(name, this.irArguments(args), [], fn.body),
        ERROR_TYPE,
        unionEffects(effectsOf(values), fn.body.effects),
        n,
      );
    }
    const given = new Set(args.map((a) => a.name));
    const paramNames = fn.params.map((p) => p.name);
    for (const p of fn.params) {
      if (!given.has(p.name)) {
        fail("type_mismatch", `missing required fn argument '${p.name}'`, n.span, {
          label: `missing argument '${p.name}'`,
          hint: `add (${p.name} VALUE) to the application of '${name}'`,
          related:
            p.span === undefined ? undefined : [{ span: p.span, message: `parameter '${p.name}' is declared here` }],
        });
      }
    }
    for (const a of args) {
      const p = fn.params.find((x) => x.name === a.name);
      if (p === undefined) {
        fail("unknown_name", `unknown fn argument '${a.name}'`, a.span, {
          label: `'${name}' has no parameter '${a.name}'`,
          hint:
            didYouMean(a.name, paramNames) ??
            (paramNames.length === 0
              ? `'${name}' takes no arguments`
              : `its parameters are ${paramNames.map((x) => `'${x}'`).join(", ")}`),
        });
      }
      if (a.values.length !== 1) fail("type_mismatch", `fn argument '${a.name}' requires exactly one value`, a.span);
      this.requireAssignable(a.values[0]!.ty, p.ty, a, () =>
        p.span === undefined
          ? undefined
          : { span: p.span, message: `parameter '${p.name}' is declared ${displayType(p.ty)} here` },
      );
    }
    const bound = this.env.requirements.tools;
    if (!this.inFunction && bound !== null) {
      // Tools inside nested (program …) effects count too (HNS §9.2; quirk Q13 made strict).
      for (const { tool } of toolsOfEffects(fn.body.effects)) {
        if (!bound.includes(tool)) {
          fail("effect_escape", `fn '${name}' reaches tool '${tool}' outside the program requires.tools set`, n.span);
        }
      }
    }
    return node(
      K.functionApplication(
        name,
        this.irArguments(args),
        fn.params.map((p) => p.name),
        fn.body,
      ),
      fn.returns,
      unionEffects(effectsOf(values), fn.body.effects),
      n,
    );
  }
}

/** How other languages spell Yao's operators (yao-v0.1.md §5.13 has only the named forms). */
const OPERATOR_ALIASES: Record<string, string> = {
  "+": "add",
  "-": "sub",
  "*": "mul",
  "/": "div",
  "=": "eq",
  "==": "eq",
  "!=": "ne",
  "/=": "ne",
  "<": "lt",
  "<=": "le",
  ">": "gt",
  ">=": "ge",
  "&&": "and",
  "||": "or",
  "!": "not",
  let: "bind",
  define: "bind",
  set: "bind",
  do: "seq",
  begin: "seq",
  progn: "seq",
  cond: "if",
  case: "match",
  when: "if",
};

function unknownOperatorTeaching(op: string, functions: readonly string[]): { label: string; hint?: string } {
  const alias = Object.hasOwn(OPERATOR_ALIASES, op) ? OPERATOR_ALIASES[op] : undefined;
  if (alias !== undefined) {
    return { label: "not a Yao operator", hint: `Yao spells this operator '${alias}': write (${alias} …)` };
  }
  const suggestion = didYouMean(op, [...FORM_NAMES, ...functions]);
  return {
    label: "not a Yao operator or declared function",
    hint:
      suggestion ?? "expressions start with a Yao operator (add, if, seq, call, …) or the name of a declared (fn …)",
  };
}
