/**
 * The HIR kinds the analyzer builds most often (literals, references, field reads, operators,
 * `seq`, `bind`, `if`, tool calls and function applications), made by `new` rather than written as
 * object literals. Each kind object lives as long as the check's HIR, so most of those made at an
 * object literal's site are still alive at a minor collection; V8 then moves that site to the old
 * generation, and an old kind pointing at its young operands keeps them, their tree nodes and so
 * the whole check's tree alive through every minor collection until the next full one. The
 * bench's warm check ran a tenth slower in the processes where that happened (issue 29, figure
 * n). An instance made by `new` has no such site. Fields are assigned in the order the IR lists
 * them, so every kind has the keys, order and values the literal had; each class assigns them in
 * its constructor rather than through parameter properties, which TypeScript defines before the
 * `op` field and so would put `op` last.
 */
import type { HirExpr, HirKind, Literal, NamedArgument, PureOperator } from "../../ir/yao-ir-0.1.js";

type Kind<Op extends HirKind["op"]> = Extract<HirKind, { readonly op: Op }>;

class LiteralKind {
  declare readonly op: "literal";
  declare readonly value: Literal;
  constructor(value: Literal) {
    this.op = "literal";
    this.value = value;
  }
}

/** A literal value that has one (every kind but nil). */
class LiteralValue {
  declare readonly kind: Exclude<Literal["kind"], "nil">;
  declare readonly value: boolean | bigint | string;
  constructor(kind: Exclude<Literal["kind"], "nil">, value: boolean | bigint | string) {
    this.kind = kind;
    this.value = value;
  }
}

/** The one nil value (literals are never mutated), so a nil literal allocates only its kind. */
const NIL: Literal = Object.freeze({ kind: "nil" });

export function nilLiteral(): Kind<"literal"> {
  return new LiteralKind(NIL);
}

export function literal<L extends Exclude<Literal, { kind: "nil" }>>(
  kind: L["kind"],
  value: L["value"],
): Kind<"literal"> {
  return new LiteralKind(new LiteralValue(kind, value) as Literal);
}

class ReferenceKind {
  declare readonly op: "reference";
  declare readonly root: string;
  constructor(root: string) {
    this.op = "reference";
    this.root = root;
  }
}

export function reference(root: string): Kind<"reference"> {
  return new ReferenceKind(root);
}

class GetKind {
  declare readonly op: "get";
  declare readonly value: HirExpr;
  declare readonly field: string;
  constructor(value: HirExpr, field: string) {
    this.op = "get";
    this.value = value;
    this.field = field;
  }
}

export function get(value: HirExpr, field: string): Kind<"get"> {
  return new GetKind(value, field);
}

class PureKind {
  declare readonly op: "pure";
  declare readonly operator: PureOperator;
  declare readonly operands: readonly HirExpr[];
  constructor(operator: PureOperator, operands: readonly HirExpr[]) {
    this.op = "pure";
    this.operator = operator;
    this.operands = operands;
  }
}

export function pure(operator: PureOperator, operands: readonly HirExpr[]): Kind<"pure"> {
  return new PureKind(operator, operands);
}

class SeqKind {
  declare readonly op: "seq";
  declare readonly steps: readonly HirExpr[];
  constructor(steps: readonly HirExpr[]) {
    this.op = "seq";
    this.steps = steps;
  }
}

export function seq(steps: readonly HirExpr[]): Kind<"seq"> {
  return new SeqKind(steps);
}

class BindKind {
  declare readonly op: "bind";
  declare readonly name: string;
  declare readonly value: HirExpr;
  constructor(name: string, value: HirExpr) {
    this.op = "bind";
    this.name = name;
    this.value = value;
  }
}

export function bind(name: string, value: HirExpr): Kind<"bind"> {
  return new BindKind(name, value);
}

class IfKind {
  declare readonly op: "if";
  declare readonly condition: HirExpr;
  declare readonly when_true: HirExpr;
  declare readonly when_false: HirExpr;
  constructor(condition: HirExpr, whenTrue: HirExpr, whenFalse: HirExpr) {
    this.op = "if";
    this.condition = condition;
    this.when_true = whenTrue;
    this.when_false = whenFalse;
  }
}

export function ifKind(condition: HirExpr, whenTrue: HirExpr, whenFalse: HirExpr): Kind<"if"> {
  return new IfKind(condition, whenTrue, whenFalse);
}

class CallKind {
  declare readonly op: "call";
  declare readonly tool: string;
  declare readonly arguments: readonly NamedArgument[];
  constructor(tool: string, args: readonly NamedArgument[]) {
    this.op = "call";
    this.tool = tool;
    this.arguments = args;
  }
}

export function call(tool: string, args: readonly NamedArgument[]): Kind<"call"> {
  return new CallKind(tool, args);
}

class FunctionApplicationKind {
  declare readonly op: "function_application";
  declare readonly function: string;
  declare readonly arguments: readonly NamedArgument[];
  declare readonly parameters: readonly string[];
  declare readonly body: HirExpr;
  constructor(fn: string, args: readonly NamedArgument[], parameters: readonly string[], body: HirExpr) {
    this.op = "function_application";
    this.function = fn;
    this.arguments = args;
    this.parameters = parameters;
    this.body = body;
  }
}

export function functionApplication(
  fn: string,
  args: readonly NamedArgument[],
  parameters: readonly string[],
  body: HirExpr,
): Kind<"function_application"> {
  return new FunctionApplicationKind(fn, args, parameters, body);
}
