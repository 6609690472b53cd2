/**
 * One accepted and at least one rejected case per expression form and rule (yao-v0.1.md §3–§8),
 * with the reference's code and message. Profile: the reference's sema test profile.
 */
import { describe, expect, it } from "vitest";
import { analyzeProgram, debugType, semaTestProfile } from "../../src/yao/index.js";
import { parse } from "./helpers.js";

const profile = semaTestProfile();
const TYPES = "(types (record Box (n Int)) (union Shape (circle (r Float)) (dot)))";

function check(source: string, functions: string[] = [], allowInternal = true) {
  return analyzeProgram(parse(source), { profile, functions: functions.map((f) => parse(f, "fn.yao")), allowInternal });
}

/** [form, source, expected output type (accepted)] */
const accepted: [string, string, string][] = [
  ["literals", "(eval (list 1 2.5 -3 +4 007 1e3 .5))", "List(Float)"],
  ["nil/bool", "(eval (list nil))", "List(Nil)"],
  ["list empty", "(eval (list))", "List(Json)"],
  ["dict widening", "(eval (dict (a 1) (b 2.5)))", "Map(Float)"],
  ["dict empty", "(eval (dict))", "Map(Json)"],
  ["json-object", '(eval (json-object (a 1) ("b c" "x")))', "Map(Json)"],
  ["from-json", `(eval ${TYPES} (from-json Box (dict)))`, 'Named("Box")'],
  ["to-json", "(eval (to-json (list 1)))", "Json"],
  ["record + path", `(eval ${TYPES} (seq (bind b (record Box (n 1))) b.n))`, "Int"],
  [
    "variant + match",
    `(eval ${TYPES} (match (variant Shape.dot) ((case Shape.circle (r x)) x) ((case Shape.dot) 0)))`,
    "Float",
  ],
  ["some/none", "(eval (if true (some 1) (none Int)))", "Option(Int)"],
  ["ok/err", '(eval (if true (ok 1 String) (err "e" Int)))', "Result { ok: Int, error: String }"],
  ["get map", '(eval (get (dict (a 1)) "a"))', "Int"],
  ["decode", "(eval (decode (List Int) (list 1)))", "List(Int)"],
  ["is", "(eval (is Int 1))", "Bool"],
  ["comparison", '(eval (and (lt 1 2.5) (ge "a" "b") (not (eq 1 2)) (ne nil nil)))', "Bool"],
  ["arith", "(eval (sub (mul 2 3) 1))", "Int"],
  ["div is Float", "(eval (div 6 2))", "Float"],
  ["seq leak", "(eval (seq (seq (bind a 1)) a))", "Int"],
  ["fallback", '(eval (fallback (call read (path "x")) nil))', "Json"],
  ["map", "(eval (map (list 1 2) x (add x 1)))", "List(Int)"],
  ["call dynamic", '(eval (call search (anything 1 2) (else "x")))', "Json"],
  ["infer captures", "(eval (seq (bind base 40) (infer (captures base) (returns Int) (add base 2))))", "Int"],
  ["infer captures runtime", "(eval (infer (captures runtime) runtime.objective))", 'Ref("Objective")'],
  ["par", '(eval (par (branch a 1) (branch b "x")))', 'StructuralRecord({"a": Int, "b": String})'],
  ["host.view", "(eval (requires (objects Context)) (host.view runtime.context (returns Json)))", "Json"],
  ["host op", "(eval (objective.report (objective runtime.objective)))", "Nil"],
  [
    "context.propose sugar",
    "(eval (context.propose (context-transaction (context runtime.context) (transaction (context-tx (x 1))))))",
    "Json",
  ],
  ["root infer", '(infer (requires (tools)) (returns String) "hello")', "String"],
  ["evidence/outcome", "(eval (list (outcome (status failed))))", "List(OutcomeCandidate)"],
  ["evidence", '(eval (evidence (kind "k") (value 1)))', "EvidenceCandidate"],
];

/** [rule, source, code, message] */
const rejected: [string, string, string, string][] = [
  ["root not list", "x", "yao.type_mismatch", "program root must be (eval ...) or (infer ...)"],
  ["root owner", '("eval")', "yao.unknown_operator", "program root is missing an evaluation owner"],
  ["root head", "(run 1)", "yao.unknown_operator", "unknown program root 'run'; expected eval or infer"],
  [
    "eval arity",
    "(eval 1 2)",
    "yao.invalid_type",
    "eval requires exactly one body after declarations; use seq for multiple steps",
  ],
  ["infer empty", "(infer)", "yao.invalid_type", "infer requires one Yao body"],
  ["unknown op", "(eval (frobnicate 1))", "yao.unknown_operator", "unknown Yao operator 'frobnicate'"],
  ["non-symbol head", '(eval ("add" 2))', "yao.unknown_operator", "expression list must start with an operator symbol"],
  ["bad float", "(eval 1.5.2)", "yao.type_mismatch", "invalid Float literal '1.5.2'"],
  [
    "int range (D-Q2)",
    "(eval 99999999999999999999)",
    "yao.integer_out_of_range",
    "integer literal '99999999999999999999' is outside the Int range [-9223372036854775808, 9223372036854775807]",
  ],
  ["bare $", "(eval $)", "yao.unknown_name", "binding references do not use '$'; replace '$' with a bare binding name"],
  ["list common", '(eval (list 1 "a"))', "yao.type_mismatch", "types Int and String have no common type"],
  [
    "list purity",
    '(eval (list (call read (path "x"))))',
    "yao.effect_escape",
    'list elements must be pure; bind the effectful result first (found EffectSet({Tool("read")}))',
  ],
  ["dict dup", "(eval (dict (a 1) (a 2)))", "yao.duplicate_name", "duplicate dict key 'a'"],
  ["dict shape", "(eval (dict a))", "yao.type_mismatch", "dict entries must be (KEY EXPR)"],
  [
    "json-object crossable",
    "(eval (json-object (a runtime.context)))",
    "yao.invalid_type",
    'Ref("Context") cannot cross an ordinary JSON boundary; authority-bearing values require Runtime admission',
  ],
  ["from-json arity", "(eval (from-json Int))", "yao.type_mismatch", "from-json requires TYPE and JSON-EXPR"],
  ["to-json arity", "(eval (to-json))", "yao.type_mismatch", "to-json requires exactly one expression"],
  ["record undeclared", "(eval (record Nope))", "yao.invalid_type", "'Nope' is not a declared record type"],
  ["record count", `(eval ${TYPES} (record Box))`, "yao.type_mismatch", "constructor requires 1 fields, received 0"],
  ["record field type", `(eval ${TYPES} (record Box (n "x")))`, "yao.type_mismatch", "expected Int, found String"],
  ["record unknown field", `(eval ${TYPES} (record Box (m 1)))`, "yao.unknown_name", "unknown field 'm'"],
  ["variant no dot", `(eval ${TYPES} (variant Shape))`, "yao.invalid_type", "variant constructor must be TYPE.VARIANT"],
  [
    "variant unknown",
    `(eval ${TYPES} (variant Shape.square))`,
    "yao.invalid_type",
    "union 'Shape' has no variant 'square'",
  ],
  ["some arity", "(eval (some))", "yao.type_mismatch", "some requires exactly one value"],
  ["none unknown type", "(eval (none Nope))", "yao.invalid_type", "unknown type 'Nope'"],
  ["ok arity", "(eval (ok 1))", "yao.type_mismatch", "ok requires a value and the Result error type"],
  ["err arity", "(eval (err 1))", "yao.type_mismatch", "err requires a value and the Result success type"],
  ["evidence kind type", "(eval (evidence (kind 1) (value 1)))", "yao.type_mismatch", "expected String, found Int"],
  ["evidence missing value", '(eval (evidence (kind "k")))', "yao.type_mismatch", "evidence requires (value EXPR)"],
  [
    "evidence dup (Q10)",
    '(eval (evidence (kind "k") (kind "j") (value 1)))',
    "yao.duplicate_name",
    "duplicate requires.kind declaration",
  ],
  [
    "outcome status",
    "(eval (outcome (status done)))",
    "yao.invalid_type",
    "outcome status must be succeeded, failed, or blocked",
  ],
  [
    "context-tx shape",
    "(eval (context-transaction (context runtime.context) (transaction (tx))))",
    "yao.type_mismatch",
    "transaction must start with context-tx",
  ],
  ["get field", "(eval (get 1 a))", "yao.type_mismatch", "type Int has no readable field 'a'"],
  [
    "dotted on Json",
    "(eval (seq (bind j (call search)) j.a))",
    "yao.type_mismatch",
    "type Json has no readable field 'a'",
  ],
  [
    "decode forge",
    "(eval (decode (Ref Context) 1))",
    "yao.invalid_type",
    "decode cannot construct Ref or Program values; they require host injection or Runtime admission",
  ],
  ["is unknown type (D-Q7)", "(eval (is Nope 1))", "yao.invalid_type", "unknown type 'Nope'"],
  ["eq incompatible", '(eval (eq 1 "a"))', "yao.type_mismatch", "eq operands have incompatible types"],
  ["lt unordered", '(eval (lt 1 "a"))', "yao.type_mismatch", "types Int and String are not ordered"],
  ["and arity", "(eval (and true))", "yao.type_mismatch", "and requires at least two operands"],
  ["not arity", "(eval (not true false))", "yao.type_mismatch", "not requires 1 operands, found 2"],
  ["and operand", "(eval (and true 1))", "yao.type_mismatch", "expected Bool, found Int"],
  [
    "add Json",
    "(eval (add 1 (call search)))",
    "yao.effect_escape",
    'pure operator operands must be pure; bind the effectful result first (found EffectSet({Tool("search")}))',
  ],
  ["add non-numeric", '(eval (add 1 "a"))', "yao.type_mismatch", "numeric operator received String"],
  ["sub arity", "(eval (sub 1 2 3))", "yao.type_mismatch", "sub requires 2 operands, found 3"],
  ["seq empty", "(eval (seq))", "yao.type_mismatch", "seq requires at least one step"],
  ["bind twice", "(eval (seq (bind a 1) (bind a 2)))", "yao.duplicate_name", "binding 'a' cannot be overwritten"],
  [
    "bind inside value (D-Q12)",
    "(eval (seq (bind x (seq (bind x 1) 2)) x))",
    "yao.duplicate_name",
    "binding 'x' cannot be overwritten",
  ],
  ["bind runtime", "(eval (bind runtime 1))", "yao.duplicate_name", "binding 'runtime' cannot be overwritten"],
  ["bind name", '(eval (bind "a" 1))', "yao.unknown_name", "binding name must be a symbol without '$'"],
  ["if condition", "(eval (if 1 2 3))", "yao.type_mismatch", "expected Bool, found Int"],
  ["if common", '(eval (if true 1 "a"))', "yao.type_mismatch", "if branches have no common result type"],
  ["if scope", "(eval (seq (if true (bind a 1) (bind a 2)) a))", "yao.unknown_name", "unknown binding 'a'"],
  ["match non-union", "(eval (match 1))", "yao.type_mismatch", "match value must be a named union"],
  [
    "match exhaustive",
    `(eval ${TYPES} (match (variant Shape.dot) ((case Shape.dot) 1)))`,
    "yao.type_mismatch",
    "non-exhaustive match; missing circle",
  ],
  [
    "match dup",
    `(eval ${TYPES} (match (variant Shape.dot) ((case Shape.dot) 1) ((case Shape.dot) 2)))`,
    "yao.duplicate_name",
    "duplicate match case 'dot'",
  ],
  [
    "match bindings",
    `(eval ${TYPES} (match (variant Shape.dot) ((case Shape.circle) 1) ((case Shape.dot) 2)))`,
    "yao.type_mismatch",
    "match pattern must bind every variant field exactly once",
  ],
  ["fallback common", '(eval (fallback 1 "a"))', "yao.type_mismatch", "fallback branches have no common result type"],
  ["map collection", "(eval (map 1 x x))", "yao.type_mismatch", "map collection must be List<T>"],
  [
    "map shadow",
    "(eval (seq (bind x 1) (map (list 1) x x)))",
    "yao.duplicate_name",
    "map element 'x' shadows an existing binding",
  ],
  ["call unknown tool", "(eval (call nope))", "yao.unknown_name", "unknown tool 'nope'"],
  [
    "call outside requires",
    '(eval (requires (tools search)) (call read (path "x")))',
    "yao.effect_escape",
    "tool 'read' is outside the program requires.tools set",
  ],
  ["call missing arg", "(eval (call read))", "yao.type_mismatch", "missing required argument 'path'"],
  ["call unknown arg", '(eval (call read (path "x") (mode 1)))', "yao.unknown_name", "unknown argument 'mode'"],
  ["call arg type", "(eval (call read (path 1)))", "yao.type_mismatch", "expected String, found Int"],
  ["call dup arg", '(eval (call read (path "x") (path "y")))', "yao.duplicate_name", "duplicate argument 'path'"],
  [
    "infer body count",
    "(eval (infer 1 2))",
    "yao.invalid_type",
    "infer requires exactly one complete Yao body after optional captures/returns declarations; use seq for multiple steps",
  ],
  [
    "infer capture unbound",
    "(eval (infer (captures nope) 1))",
    "yao.unknown_name",
    "infer capture 'nope' is not bound in the parent scope",
  ],
  ["infer no runtime", "(eval (infer runtime))", "yao.unknown_name", "unknown binding 'runtime'"],
  ["par one branch", "(eval (par (branch a 1)))", "yao.type_mismatch", "par requires at least two branches"],
  ["par head", "(eval (par (b a 1) (branch c 2)))", "yao.unknown_operator", "par members must start with branch"],
  ["par dup", "(eval (par (branch a 1) (branch a 2)))", "yao.duplicate_name", "duplicate par branch 'a'"],
  ["run non-program", "(eval (run 1))", "yao.type_mismatch", "run operand must have Program<T, E> type"],
  [
    "host.view non-ref",
    "(eval (host.view 1 (returns Json)))",
    "yao.type_mismatch",
    "host.view first operand must be Ref<K>",
  ],
  [
    "host.view objects",
    "(eval (requires (objects Objective)) (host.view runtime.context (returns Json)))",
    "yao.effect_escape",
    'host.view Ref<Context> exceeds declared object upper bound {"Objective"}',
  ],
  [
    "host.view returns",
    "(eval (host.view runtime.context (returns Int)))",
    "yao.invalid_type",
    "host.view return type must be Json, a structural record, or a named record",
  ],
  ["unknown host op", "(eval (agent.spawn))", "yao.unknown_name", "unknown host operation 'agent.spawn'"],
  [
    "unary sugar arity",
    "(eval (context.propose))",
    "yao.type_mismatch",
    "context.propose requires exactly one operand",
  ],
  ["requires dup", "(eval (requires (tools) (tools)) 1)", "yao.duplicate_name", "duplicate requires.tools declaration"],
  ["requires unknown", "(eval (requires (models)) 1)", "yao.unknown_name", "unknown requires clause 'models'"],
  ["requires dup tool", "(eval (requires (tools a a)) 1)", "yao.duplicate_name", "duplicate tool 'a'"],
  ["types reserved", "(eval (types (record Int)) 1)", "yao.invalid_type", "invalid or reserved type name 'Int'"],
  ["types dup", "(eval (types (record A) (record A)) 1)", "yao.duplicate_name", "duplicate type 'A'"],
  ["types kind", "(eval (types (enum A)) 1)", "yao.invalid_type", "unknown type declaration kind 'enum'"],
  ["union empty", "(eval (types (union A)) 1)", "yao.invalid_type", "union 'A' must define at least one variant"],
  ["unknown type", "(eval (types (record A (b B))) 1)", "yao.invalid_type", "unknown type 'B'"],
  [
    "self recursive",
    "(eval (types (record A (a (List A)))) 1)",
    "yao.recursive_type",
    "recursive type 'A' is not supported in Yao v0.1",
  ],
  ["bad type ctor", "(eval (none (Set Int)))", "yao.invalid_type", "unknown type constructor 'Set'"],
  ["effect dup", "(eval (requires (effects infer infer)) 1)", "yao.duplicate_name", "duplicate effect declaration"],
  ["effect kind", "(eval (requires (effects (net x))) 1)", "yao.invalid_type", "unknown effect kind 'net'"],
];

describe("accepted forms", () => {
  it.each(accepted)("%s", (_name, source, output) => {
    const r = check(source);
    expect(r.diagnostics).toEqual([]);
    expect(debugType(r.outputType!)).toBe(output);
  });
});

describe("rejected forms", () => {
  it.each(rejected)("%s", (_name, source, code, message) => {
    const [d] = check(source).diagnostics;
    expect({ code: d?.code, message: d?.referenceMessage ?? d?.message }).toEqual({ code, message });
  });
});

const ADD_ONE =
  '(fn add-one (visibility exported) (description "Add one") (params (value Int)) (returns Int) (effects) (body (add value 1)))';
const HIDDEN = "(fn hidden (params) (returns Int) (body 1))";

describe("function module", () => {
  it("applies with named arguments and links the body", () => {
    const r = check("(eval (add-one (value 41)))", [ADD_ONE]);
    expect(r.diagnostics).toEqual([]);
    expect(r.program!.body.kind.op).toBe("function_application");
  });

  const fnRejected: [string, string, string[], boolean, string, string][] = [
    [
      "internal from model program",
      "(eval (hidden))",
      [HIDDEN],
      false,
      "yao.unknown_name",
      "HNS function 'hidden' is internal and cannot be called by this program",
    ],
    [
      "missing argument",
      "(eval (add-one))",
      [ADD_ONE],
      true,
      "yao.type_mismatch",
      "missing required fn argument 'value'",
    ],
    [
      "unknown argument",
      "(eval (add-one (value 1) (x 2)))",
      [ADD_ONE],
      true,
      "yao.unknown_name",
      "unknown fn argument 'x'",
    ],
    [
      "argument arity",
      "(eval (add-one (value 1 2)))",
      [ADD_ONE],
      true,
      "yao.type_mismatch",
      "fn argument 'value' requires exactly one value",
    ],
    [
      "argument type",
      '(eval (add-one (value "x")))',
      [ADD_ONE],
      true,
      "yao.type_mismatch",
      "expected Int, found String",
    ],
    [
      "argument purity",
      "(eval (add-one (value (call search))))",
      [ADD_ONE],
      true,
      "yao.effect_escape",
      'function arguments must be pure; bind the effectful result first (found EffectSet({Tool("search")}))',
    ],
    ["duplicate function", "(eval 1)", [HIDDEN, HIDDEN], true, "yao.duplicate_name", "duplicate HNS function 'hidden'"],
    [
      "reserved name",
      "(eval 1)",
      ["(fn seq (params) (returns Int) (body 1))"],
      true,
      "yao.duplicate_name",
      "invalid or reserved HNS function name 'seq'",
    ],
    [
      "reserved to-json (D-Q3)",
      "(eval 1)",
      ["(fn to-json (params) (returns Int) (body 1))"],
      true,
      "yao.duplicate_name",
      "invalid or reserved HNS function name 'to-json'",
    ],
    [
      "exported needs description",
      "(eval 1)",
      ["(fn f (visibility exported) (effects) (params) (returns Int) (body 1))"],
      true,
      "yao.missing_description",
      "exported fn 'f' requires a non-empty description",
    ],
    [
      "exported needs effects",
      "(eval 1)",
      ['(fn f (visibility exported) (description "d") (params) (returns Int) (body 1))'],
      true,
      "yao.invalid_type",
      "exported fn 'f' requires an explicit (effects ...) upper bound",
    ],
    [
      "blank description",
      "(eval 1)",
      ['(fn f (visibility exported) (description "\u3000") (effects) (params) (returns Int) (body 1))'],
      true,
      "yao.invalid_type",
      "fn description must be a non-empty string",
    ],
    [
      "runtime parameter",
      "(eval 1)",
      ["(fn f (params (runtime Int)) (returns Int) (body 1))"],
      true,
      "yao.duplicate_name",
      "invalid or duplicate fn parameter 'runtime'",
    ],
    [
      "missing body",
      "(eval 1)",
      ["(fn f (params) (returns Int))"],
      true,
      "yao.invalid_type",
      "fn 'f' is missing (body EXPR)",
    ],
    [
      "duplicate clause",
      "(eval 1)",
      ["(fn f (params) (params) (returns Int) (body 1))"],
      true,
      "yao.duplicate_name",
      "duplicate fn.params declaration",
    ],
    [
      "unknown clause",
      "(eval 1)",
      ["(fn f (params) (returns Int) (body 1) (cost 3))"],
      true,
      "yao.unknown_name",
      "unknown fn clause 'cost'",
    ],
    [
      "return type",
      "(eval 1)",
      ['(fn f (params) (returns Int) (body "x"))'],
      true,
      "yao.type_mismatch",
      "in fn 'f': expected Int, found String",
    ],
    [
      "declared effects",
      "(eval 1)",
      ["(fn f (params) (returns Json) (effects) (body (call search)))"],
      true,
      "yao.effect_escape",
      "in fn 'f': fn 'f' effects EffectSet({Tool(\"search\")}) exceed declared upper bound EffectSet({}); missing EffectSet({Tool(\"search\")})",
    ],
    [
      "self recursion",
      "(eval 1)",
      ["(fn f (params) (returns Int) (body (f)))"],
      true,
      "yao.recursive_function",
      "in fn 'f': recursive HNS function cycle is not supported: f -> f",
    ],
  ];
  it.each(fnRejected)("%s", (_n, source, fns, allowInternal, code, message) => {
    const [d] = check(source, fns, allowInternal).diagnostics;
    expect({ code: d?.code, message: d?.referenceMessage ?? d?.message }).toEqual({ code, message });
  });

  it("diagnostics inside a function carry its file, its name and a label with the expected and found types", () => {
    const r = check("(eval 1)", ['(fn wrong (params) (returns Int)\n  (body "x"))']);
    expect(r.diagnostics[0]?.file).toBe("fn.yao");
    expect(r.diagnostics[0]?.span?.start.line).toBe(2);
    expect(r.diagnostics[0]?.function).toBe("wrong");
    expect(r.diagnostics[0]?.label).toBe("expected Int, found String");
    expect(r.diagnostics[0]?.related?.[0]?.message).toBe("'wrong' is declared to return Int here");
    expect(r.failedFunction).toBe("wrong");
  });
});
