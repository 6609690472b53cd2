/**
 * The language table: every expression form of the dispatch list (yao-v0.1.md §5.1) and every type
 * and type constructor (§3.1). It is the one list of Yao's operators (issue 33): the analyzer
 * dispatches on each row's `rule` (src/yao/expressions.ts), the language server's hover,
 * completion, signature help, semantic tokens and symbol index read its rows (src/lsp), and the
 * TextMate grammar and the playground's highlighting are compared with it entry by entry
 * (test/architecture/operator-table.test.ts), which also fails when another file lists operators
 * again. docs/language.md, `yaoc explain FORM|TYPE` and the analyzer's help for a wrong operand
 * count read the signatures, meanings and examples; test/yao/forms.test.ts checks every example
 * with the analyzer and that the guide lists every row. The analyzer is the authority on the rules;
 * this table says them in words. Browser-safe: one type-only import.
 */
import type { PureOperator } from "../../ir/yao-ir-0.1.js";

export type FormGroup =
  | "data"
  | "options and results"
  | "records and unions"
  | "json"
  | "comparison and logic"
  | "arithmetic"
  | "control"
  | "effects"
  | "sealed candidates"
  | "host operations";

/**
 * How the analyzer types a form. `own`: a typing rule of its own (a method of the analyzer, one per
 * row); `pure`: a pure operator of §5.13, typed by the shared operator rule, with its IR name;
 * `host`: unary host sugar, `(op E)` read as `(op (ARGUMENT E))` against the host signature.
 */
export type FormRule =
  | { readonly kind: "own" }
  | { readonly kind: "pure"; readonly operator: PureOperator }
  | { readonly kind: "host"; readonly argument: string };

export interface FormDoc {
  readonly name: string;
  readonly group: FormGroup;
  readonly rule: FormRule;
  /** How the form is written, in Yao notation: `(gt A B)`. */
  readonly signature: string;
  /** Its type rule, in Yao notation. */
  readonly type: string;
  /** What it means, in one or two sentences. */
  readonly meaning: string;
  /** A complete program using it; the analyzer accepts it (tools: `read`, dynamic). */
  readonly example: string;
}

export interface TypeDoc {
  readonly name: string;
  /** How a type is written: `(List T)`, `Int`. */
  readonly signature: string;
  readonly meaning: string;
  /** A complete program whose result has this type (or uses it), accepted by the analyzer. */
  readonly example: string;
}

const ORDERED =
  "both operands Int or Float (mixed is fine), or both String; the result is Bool. Anything else, Json included, is not ordered";

export const FORMS = [
  {
    name: "list",
    group: "data",
    rule: { kind: "own" },
    signature: "(list E...)",
    type: "(List T), T the common type of the elements; (List Json) when empty",
    meaning: "A list of values. The elements must be pure and share one type (Int widens to Float).",
    example: "(eval (list 1 2 3))",
  },
  {
    name: "dict",
    group: "data",
    rule: { kind: "own" },
    signature: "(dict (KEY E)...)",
    type: "(Map T), T the common type of the values; (Map Json) when empty",
    meaning:
      "A map from literal keys (symbols or strings) to values of one type. For fields of different types declare a record.",
    example: "(eval (dict (alice 3) (bob 5)))",
  },
  {
    name: "json-object",
    group: "json",
    rule: { kind: "own" },
    signature: "(json-object (KEY E)...)",
    type: "(Map Json)",
    meaning: "A JSON object: each value is turned into Json with to-json, so values may have different types.",
    example: '(eval (json-object (name "Ada") (age 36)))',
  },
  {
    name: "from-json",
    group: "json",
    rule: { kind: "own" },
    signature: "(from-json TYPE E)",
    type: "TYPE; E is Json, TYPE must be able to cross a JSON boundary",
    meaning: "Read a Json value as TYPE. The shape is checked when the program runs.",
    example: "(eval (from-json Int (to-json 7)))",
  },
  {
    name: "to-json",
    group: "json",
    rule: { kind: "own" },
    signature: "(to-json E)",
    type: "Json; E's type must be able to cross a JSON boundary (no Ref, Program or candidate)",
    meaning: "Turn a value into Json.",
    example: "(eval (to-json (list 1 2)))",
  },
  {
    name: "record",
    group: "records and unions",
    rule: { kind: "own" },
    signature: "(record TYPE (FIELD E)...)",
    type: "TYPE, a record declared in (types ...); every field given exactly once",
    meaning: "Build a value of a declared record type.",
    example: "(eval (types (record Point (x Int) (y Int))) (record Point (x 1) (y 2)))",
  },
  {
    name: "variant",
    group: "records and unions",
    rule: { kind: "own" },
    signature: "(variant TYPE.VARIANT (FIELD E)...)",
    type: "TYPE, a union declared in (types ...)",
    meaning: "Build one variant of a declared union type, with every field of that variant.",
    example: "(eval (types (union Shape (circle (r Float)) (square (side Float)))) (variant Shape.circle (r 1.5)))",
  },
  {
    name: "some",
    group: "options and results",
    rule: { kind: "own" },
    signature: "(some E)",
    type: "(Option T) for E of type T",
    meaning: "An Option that holds a value.",
    example: "(eval (some 5))",
  },
  {
    name: "none",
    group: "options and results",
    rule: { kind: "own" },
    signature: "(none TYPE)",
    type: "(Option TYPE)",
    meaning: "An empty Option; the element type is written out because there is no value to infer it from.",
    example: "(eval (none Int))",
  },
  {
    name: "ok",
    group: "options and results",
    rule: { kind: "own" },
    signature: "(ok E ERROR-TYPE)",
    type: "(Result T ERROR-TYPE) for E of type T",
    meaning: "A successful Result; the error type is written out.",
    example: "(eval (ok 1 String))",
  },
  {
    name: "err",
    group: "options and results",
    rule: { kind: "own" },
    signature: "(err E OK-TYPE)",
    type: "(Result OK-TYPE T) for E of type T",
    meaning: "A failed Result; the success type is written out.",
    example: '(eval (err "not found" Int))',
  },
  {
    name: "get",
    group: "records and unions",
    rule: { kind: "own" },
    signature: "(get E FIELD)",
    type: "the field's type: a record's declared field, a (Map T)'s T; Json has no readable field",
    meaning:
      "Read a field of a record or an entry of a map. `x.f` is the same as (get x f). A Json value has no fields: (decode TYPE E) it into a record first.",
    example: "(eval (types (record Point (x Int) (y Int))) (get (record Point (x 1) (y 2)) x))",
  },
  {
    name: "decode",
    group: "json",
    rule: { kind: "own" },
    signature: "(decode TYPE E)",
    type: "TYPE; E is Json; TYPE cannot hold a Ref or a Program",
    meaning:
      "Read a Json value (a tool's result, say) as TYPE, so that its fields can be read with get. Checked when the program runs.",
    example:
      '(eval (types (record Ticket (title String))) (get (decode Ticket (json-object (title "Printer on fire"))) title))',
  },
  {
    name: "is",
    group: "json",
    rule: { kind: "own" },
    signature: "(is TYPE E)",
    type: "Bool",
    meaning: "Test at run time whether a value has the shape of TYPE.",
    example: "(eval (is Int (to-json 3)))",
  },
  {
    name: "eq",
    group: "comparison and logic",
    rule: { kind: "pure", operator: "equal" },
    signature: "(eq A B)",
    type: "Bool; A and B must have a common type",
    meaning: "A equals B.",
    example: "(eval (eq 1 1))",
  },
  {
    name: "ne",
    group: "comparison and logic",
    rule: { kind: "pure", operator: "not_equal" },
    signature: "(ne A B)",
    type: "Bool; A and B must have a common type",
    meaning: "A differs from B.",
    example: '(eval (ne "a" "b"))',
  },
  {
    name: "lt",
    group: "comparison and logic",
    rule: { kind: "pure", operator: "less" },
    signature: "(lt A B)",
    type: ORDERED,
    meaning: "A is less than B.",
    example: "(eval (lt 1 2.5))",
  },
  {
    name: "le",
    group: "comparison and logic",
    rule: { kind: "pure", operator: "less_equal" },
    signature: "(le A B)",
    type: ORDERED,
    meaning: "A is less than or equal to B.",
    example: "(eval (le 2 2))",
  },
  {
    name: "gt",
    group: "comparison and logic",
    rule: { kind: "pure", operator: "greater" },
    signature: "(gt A B)",
    type: ORDERED,
    meaning: "A is greater than B.",
    example: "(eval (gt 3 2))",
  },
  {
    name: "ge",
    group: "comparison and logic",
    rule: { kind: "pure", operator: "greater_equal" },
    signature: "(ge A B)",
    type: ORDERED,
    meaning: "A is greater than or equal to B.",
    example: '(eval (ge "b" "a"))',
  },
  {
    name: "and",
    group: "comparison and logic",
    rule: { kind: "pure", operator: "and" },
    signature: "(and A B...)",
    type: "Bool; two or more Bool operands",
    meaning: "All operands are true. There is no truthiness: every operand must be a Bool.",
    example: "(eval (and true (lt 1 2)))",
  },
  {
    name: "or",
    group: "comparison and logic",
    rule: { kind: "pure", operator: "or" },
    signature: "(or A B...)",
    type: "Bool; two or more Bool operands",
    meaning: "At least one operand is true.",
    example: "(eval (or false true))",
  },
  {
    name: "not",
    group: "comparison and logic",
    rule: { kind: "pure", operator: "not" },
    signature: "(not A)",
    type: "Bool; one Bool operand",
    meaning: "A is false.",
    example: "(eval (not false))",
  },
  {
    name: "add",
    group: "arithmetic",
    rule: { kind: "pure", operator: "add" },
    signature: "(add A B...)",
    type: "Int, or Float when any operand is Float; two or more Int/Float operands",
    meaning: "The sum. Strings are not added: there is no string concatenation operator.",
    example: "(eval (add 1 2 3))",
  },
  {
    name: "sub",
    group: "arithmetic",
    rule: { kind: "pure", operator: "subtract" },
    signature: "(sub A B)",
    type: "Int, or Float when any operand is Float",
    meaning: "A minus B.",
    example: "(eval (sub 10 4))",
  },
  {
    name: "mul",
    group: "arithmetic",
    rule: { kind: "pure", operator: "multiply" },
    signature: "(mul A B...)",
    type: "Int, or Float when any operand is Float; two or more operands",
    meaning: "The product.",
    example: "(eval (mul 2 3.5))",
  },
  {
    name: "div",
    group: "arithmetic",
    rule: { kind: "pure", operator: "divide" },
    signature: "(div A B)",
    type: "Float (yaoc types every division as Float; see docs/divergences.md)",
    meaning: "A divided by B.",
    example: "(eval (div 7 2))",
  },
  {
    name: "seq",
    group: "control",
    rule: { kind: "own" },
    signature: "(seq STEP... LAST)",
    type: "the type of LAST",
    meaning:
      "Run steps in order; names bound by (bind …) in a step are visible in the later steps. The way to write a program of several steps.",
    example: "(eval (seq (bind n 2) (add n 1)))",
  },
  {
    name: "bind",
    group: "control",
    rule: { kind: "own" },
    signature: "(bind NAME E)",
    type: "Nil; NAME has E's type in the following steps",
    meaning: "Name a value for the rest of a seq. Names cannot be rebound, and references never start with $.",
    example: "(eval (seq (bind total (add 1 2)) (mul total 2)))",
  },
  {
    name: "if",
    group: "control",
    rule: { kind: "own" },
    signature: "(if CONDITION THEN ELSE)",
    type: "the common type of THEN and ELSE; CONDITION is Bool",
    meaning: "Choose one of two branches.",
    example: '(eval (if (gt 2 1) "yes" "no"))',
  },
  {
    name: "match",
    group: "control",
    rule: { kind: "own" },
    signature: "(match E ((case TYPE.VARIANT (FIELD NAME)...) BODY)...)",
    type: "the common type of the bodies; E is a declared union; every variant has one case",
    meaning: "Branch on the variant of a union value, binding its fields by name.",
    example:
      "(eval (types (union Shape (circle (r Float)) (square (side Float)))) (match (variant Shape.square (side 2.0)) ((case Shape.circle (r radius)) (mul radius radius 3.14)) ((case Shape.square (side s)) (mul s s))))",
  },
  {
    name: "fallback",
    group: "control",
    rule: { kind: "own" },
    signature: "(fallback PRIMARY BACKUP)",
    type: "the common type of PRIMARY and BACKUP",
    meaning: "Evaluate PRIMARY; if it fails when the program runs, evaluate BACKUP instead.",
    example: '(eval (fallback (call read (path "notes.md")) (to-json "no notes")))',
  },
  {
    name: "map",
    group: "control",
    rule: { kind: "own" },
    signature: "(map COLLECTION ELEMENT BODY)",
    type: "(List U) for a (List T) COLLECTION and a BODY of type U; ELEMENT has type T in BODY",
    meaning: "Apply BODY to every element of a list.",
    example: "(eval (map (list 1 2 3) n (mul n n)))",
  },
  {
    name: "call",
    group: "effects",
    rule: { kind: "own" },
    signature: "(call TOOL (ARG E...)...)",
    type: "the tool's result type (Json for a tool without a schema); effect (tool TOOL)",
    meaning:
      "Call a tool with named arguments. The tool must be in the manifest's (capabilities (tools …)) and, in the entry, in (requires (tools …)).",
    example: '(eval (requires (tools read)) (call read (path "README.md")))',
  },
  {
    name: "infer",
    group: "effects",
    rule: { kind: "own" },
    signature: "(infer (captures NAME...) (returns TYPE) BODY)",
    type: "TYPE when declared, else BODY's type; effect infer",
    meaning:
      "Ask the model to evaluate BODY. The body sees only the captured names; (captures …) and (returns …) are optional, in that order.",
    example: '(eval (seq (bind topic "tests") (infer (captures topic) (returns String) topic)))',
  },
  {
    name: "par",
    group: "control",
    rule: { kind: "own" },
    signature: "(par (branch NAME E) (branch NAME E)...)",
    type: "a record of the branch results by NAME; 2 to 32 branches",
    meaning: "Evaluate independent branches, possibly in parallel; read the results by branch name.",
    example: "(eval (get (par (branch a 1) (branch b 2)) b))",
  },
  {
    name: "run",
    group: "effects",
    rule: { kind: "own" },
    signature: "(run PROGRAM)",
    type: "T for a PROGRAM of type (Program T (effects E...)); effect (program E...)",
    meaning:
      "Run a Program value: one a function receives, or one the model writes (infer with (returns (Program …))); never one decoded from Json.",
    example:
      '(eval (seq (bind p (infer (returns (Program Int (effects))) "write a program that counts to 3")) (run p)))',
  },
  {
    name: "host.view",
    group: "host operations",
    rule: { kind: "own" },
    signature: "(host.view REF (returns TYPE))",
    type: "TYPE: Json or a declared record; REF is (Ref KIND); effect (host view.KIND)",
    meaning: "Read a host object through its reference, such as runtime.context.",
    example: "(eval (host.view runtime.context (returns Json)))",
  },
  {
    name: "evidence",
    group: "sealed candidates",
    rule: { kind: "own" },
    signature: "(evidence (kind E) (value E) (refs R...))",
    type: "EvidenceCandidate; kind is a String, refs are (Ref Evidence)",
    meaning: "A candidate piece of evidence, to be committed with evidence.commit.",
    example: '(eval (evidence (kind "test-run") (value (to-json "12 passed"))))',
  },
  {
    name: "outcome",
    group: "sealed candidates",
    rule: { kind: "own" },
    signature: "(outcome (status succeeded|failed|blocked) (value E) (evidence R...))",
    type: "OutcomeCandidate",
    meaning: "A candidate outcome of the objective, to be committed with outcome.commit.",
    example: '(eval (outcome (status succeeded) (value "done")))',
  },
  {
    name: "context-transaction",
    group: "sealed candidates",
    rule: { kind: "own" },
    signature: "(context-transaction (context REF) (transaction (context-tx ...)))",
    type: "ContextTransaction; REF is (Ref Context)",
    meaning:
      "A proposed change to the context, to be proposed with context.propose. The context-tx form is kept as text.",
    example: "(eval (context-transaction (context runtime.context) (transaction (context-tx (note hello)))))",
  },
  {
    name: "evidence.commit",
    group: "host operations",
    rule: { kind: "host", argument: "candidate" },
    signature: "(evidence.commit CANDIDATE)",
    type: "(Ref Evidence); effect (host evidence.commit)",
    meaning: "Commit an evidence candidate.",
    example: '(eval (evidence.commit (evidence (kind "note") (value (to-json 1)))))',
  },
  {
    name: "outcome.commit",
    group: "host operations",
    rule: { kind: "host", argument: "candidate" },
    signature: "(outcome.commit CANDIDATE)",
    type: "(Ref Outcome); effect (host outcome.commit)",
    meaning: "Commit an outcome candidate.",
    example: "(eval (outcome.commit (outcome (status succeeded))))",
  },
  {
    name: "context.propose",
    group: "host operations",
    rule: { kind: "host", argument: "transaction" },
    signature: "(context.propose TRANSACTION)",
    type: "a record with status, proposal_id and revisions; effect (host context.propose)",
    meaning: "Propose a context transaction.",
    example:
      "(eval (context.propose (context-transaction (context runtime.context) (transaction (context-tx (note hi))))))",
  },
] as const satisfies readonly FormDoc[];

/** One row of the table. */
export type Form = (typeof FORMS)[number];
/** The name of a form: a row of the table, so a misspelled or removed form does not compile. */
export type FormName = Form["name"];
/** The forms with a typing rule of their own; the analyzer has exactly one method for each. */
export type OwnRuleForm = Extract<Form, { readonly rule: { readonly kind: "own" } }>["name"];

/** Every form's name, in table order: what the playground and editors highlight as Yao's forms. */
export const FORM_NAMES: readonly FormName[] = FORMS.map((f) => f.name);

export const TYPES: readonly TypeDoc[] = [
  { name: "Nil", signature: "Nil", meaning: "The type of nil and of (bind …).", example: "(eval nil)" },
  { name: "Bool", signature: "Bool", meaning: "true or false.", example: "(eval true)" },
  {
    name: "Int",
    signature: "Int",
    meaning: "A signed 64-bit integer: 7, -3, +7. An Int is accepted wherever a Float is.",
    example: "(eval 42)",
  },
  { name: "Float", signature: "Float", meaning: "A 64-bit float: 1.5, 2e3, .5.", example: "(eval 2.5)" },
  {
    name: "String",
    signature: "String",
    meaning: 'Text: "…" with the escapes \\\\ \\" \\n \\r \\t, or a raw """…""" block.',
    example: '(eval "hello")',
  },
  {
    name: "Bytes",
    signature: "Bytes",
    meaning: "Binary data, from a tool or host; there is no literal.",
    example: "(eval (none Bytes))",
  },
  {
    name: "Json",
    signature: "Json",
    meaning:
      "Any JSON value; every type is accepted where Json is expected. A Json value has no readable fields: (decode TYPE E) it first.",
    example: "(eval (to-json 1))",
  },
  {
    name: "EvidenceCandidate",
    signature: "EvidenceCandidate",
    meaning: "What (evidence …) builds; it cannot be decoded from Json.",
    example: '(eval (evidence (kind "k") (value 1)))',
  },
  {
    name: "OutcomeCandidate",
    signature: "OutcomeCandidate",
    meaning: "What (outcome …) builds.",
    example: "(eval (outcome (status blocked)))",
  },
  {
    name: "ContextTransaction",
    signature: "ContextTransaction",
    meaning: "What (context-transaction …) builds.",
    example: "(eval (context-transaction (context runtime.context) (transaction (context-tx (x)))))",
  },
  {
    name: "List",
    signature: "(List T)",
    meaning: "A list of T; (List Int) is accepted where (List Float) is expected.",
    example: '(eval (list "a" "b"))',
  },
  { name: "Map", signature: "(Map T)", meaning: "A map from text keys to T.", example: "(eval (dict (a 1)))" },
  {
    name: "Option",
    signature: "(Option T)",
    meaning: "A T or nothing: (some E) or (none T).",
    example: "(eval (some 1))",
  },
  {
    name: "Result",
    signature: "(Result T E)",
    meaning: "A success of type T or an error of type E: (ok V E) or (err V T).",
    example: '(eval (ok "fine" Int))',
  },
  {
    name: "Ref",
    signature: "(Ref KIND)",
    meaning: "A reference to a host object such as (Ref Context); only the host makes them (runtime.context).",
    example: "(eval runtime.context)",
  },
  {
    name: "Program",
    signature: "(Program T (effects EFFECT...))",
    meaning: "A program value with output T and at most these effects; run it with (run …).",
    example: "(eval (none (Program String (effects (tool read)))))",
  },
];

export const FORM_DOCS: ReadonlyMap<string, Form> = new Map(FORMS.map((f) => [f.name, f]));

/** Is `name` a form of the table (and not a function, a host operation or a typo)? */
export function isFormName(name: string): name is FormName {
  return FORM_DOCS.has(name);
}
export const TYPE_DOCS: ReadonlyMap<string, TypeDoc> = new Map(TYPES.map((t) => [t.name, t]));

/** The help for a form used with the wrong operands: its signature and type rule. */
export function formHelp(name: string): string | undefined {
  const f = FORM_DOCS.get(name);
  return f === undefined ? undefined : `write it as ${f.signature}: ${f.type}`;
}

const GROUP_ORDER: readonly FormGroup[] = [
  "data",
  "records and unions",
  "options and results",
  "json",
  "comparison and logic",
  "arithmetic",
  "control",
  "effects",
  "sealed candidates",
  "host operations",
];

/**
 * The reference part of docs/language.md: one section per form (by group) and per type, each with
 * its signature, type rule, meaning and example. The guide embeds this text verbatim between its
 * markers (test/docs/language.test.ts compares), so the guide, `yaoc explain` and hover agree.
 */
export function renderFormsMarkdown(): string {
  const out: string[] = [];
  for (const group of GROUP_ORDER) {
    out.push(`### Forms: ${group}`, "");
    for (const f of FORMS.filter((x) => x.group === group)) {
      out.push(`#### ${f.name}`, "", "```", f.signature, "```", "", f.meaning, "", `Type: ${f.type}.`, "");
      out.push("```yao", f.example, "```", "");
    }
  }
  out.push("### Types", "");
  for (const t of TYPES) {
    out.push(`#### Type ${t.name}`, "", `\`${t.signature}\`: ${t.meaning}`, "", "```yao", t.example, "```", "");
  }
  return out.join("\n").trimEnd();
}
