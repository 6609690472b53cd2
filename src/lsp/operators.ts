/**
 * The built-in Yao expression operators (yao-v0.1.md §5.1 dispatch list) with their shapes and
 * types, for hover and completion. The type rules are those of §5; the analyzer is the authority,
 * this table only describes it. Browser-safe.
 */
import { RESERVED_TYPE_NAMES } from "../yao/types.js";
export interface OperatorInfo {
  readonly name: string;
  /** How the form is written. */
  readonly form: string;
  /** Its type, in the reference's notation. */
  readonly type: string;
}

const OPS: readonly OperatorInfo[] = [
  { name: "list", form: "(list E...)", type: "(List T) — every element ≤ one common type T" },
  { name: "dict", form: "(dict (KEY E)...)", type: "(Dict T) — every value ≤ one common type T" },
  { name: "json-object", form: "(json-object (KEY E)...)", type: "Json — sugar for a Json object" },
  { name: "from-json", form: "(from-json TYPE E)", type: "Json → (Result TYPE String)" },
  { name: "to-json", form: "(to-json E)", type: "T → Json (T must be JSON-crossable)" },
  { name: "record", form: "(record NAME (FIELD E)...)", type: "NAME — a declared record" },
  { name: "variant", form: "(variant NAME CASE (FIELD E)...)", type: "NAME — a declared union" },
  { name: "some", form: "(some E)", type: "T → (Option T)" },
  { name: "none", form: "(none TYPE)", type: "(Option TYPE)" },
  { name: "ok", form: "(ok E ERROR-TYPE)", type: "T → (Result T ERROR-TYPE)" },
  { name: "err", form: "(err E OK-TYPE)", type: "E → (Result OK-TYPE E)" },
  { name: "evidence", form: "(evidence KIND VALUE (refs ...))", type: "EvidenceCandidate — sealed candidate" },
  { name: "outcome", form: "(outcome STATUS VALUE (evidence ...))", type: "OutcomeCandidate — sealed candidate" },
  { name: "context-transaction", form: "(context-transaction CONTEXT)", type: "ContextTransaction — sealed candidate" },
  { name: "get", form: "(get E FIELD)", type: "record field type; Json → Json for a Json value" },
  { name: "decode", form: "(decode TYPE E)", type: "Json → (Result TYPE String)" },
  { name: "is", form: "(is TYPE E)", type: "Json → Bool" },
  { name: "eq", form: "(eq A B)", type: "(T, T) → Bool" },
  { name: "ne", form: "(ne A B)", type: "(T, T) → Bool" },
  { name: "lt", form: "(lt A B)", type: "(Int|Float, Int|Float) → Bool or (String, String) → Bool" },
  { name: "le", form: "(le A B)", type: "(Int|Float, Int|Float) → Bool or (String, String) → Bool" },
  { name: "gt", form: "(gt A B)", type: "(Int|Float, Int|Float) → Bool or (String, String) → Bool" },
  { name: "ge", form: "(ge A B)", type: "(Int|Float, Int|Float) → Bool or (String, String) → Bool" },
  { name: "and", form: "(and A B...)", type: "(Bool, Bool, ...) → Bool" },
  { name: "or", form: "(or A B...)", type: "(Bool, Bool, ...) → Bool" },
  { name: "not", form: "(not A)", type: "Bool → Bool" },
  { name: "add", form: "(add A B...)", type: "(Int|Float, ...) → Float if any Float, else Int" },
  { name: "sub", form: "(sub A B)", type: "(Int|Float, Int|Float) → Float if any Float, else Int" },
  { name: "mul", form: "(mul A B...)", type: "(Int|Float, ...) → Float if any Float, else Int" },
  { name: "div", form: "(div A B)", type: "(Int|Float, Int|Float) → Float if any Float, else Int (Int / Int is Int)" },
  { name: "seq", form: "(seq STEP... LAST)", type: "the type of LAST" },
  { name: "bind", form: "(bind NAME E)", type: "binds NAME to E's type for the following steps of a seq" },
  { name: "if", form: "(if COND THEN ELSE)", type: "(Bool, T, T) → T" },
  { name: "match", form: "(match E (CASE BODY)...)", type: "the common type of the case bodies" },
  { name: "fallback", form: "(fallback PRIMARY BACKUP)", type: "(Result T E) or (Option T), T → T" },
  { name: "map", form: "(map COLLECTION ELEMENT BODY)", type: "(List T) → (List U)" },
  {
    name: "call",
    form: "(call TOOL (ARG E)...)",
    type: "the tool's result type (Json for a dynamic tool); effect (tool TOOL)",
  },
  { name: "infer", form: "(infer (produces TYPE) ...)", type: "the produced type; effect infer" },
  { name: "par", form: "(par (NAME E)...)", type: "a record of the branch results" },
  { name: "run", form: "(run PROGRAM)", type: "the program's output type" },
  { name: "host.view", form: "(host.view ...)", type: "a host view (profile operation)" },
  {
    name: "evidence.commit",
    form: "(evidence.commit (candidate E))",
    type: "host operation: commits an evidence candidate",
  },
  {
    name: "outcome.commit",
    form: "(outcome.commit (candidate E))",
    type: "host operation: commits an outcome candidate",
  },
  {
    name: "context.propose",
    form: "(context.propose (transaction E))",
    type: "host operation: proposes a context transaction",
  },
];

export const OPERATORS: ReadonlyMap<string, OperatorInfo> = new Map(OPS.map((o) => [o.name, o]));

/** Artifact and clause keywords (not expressions), for completion and highlighting. */
export const ARTIFACT_KEYWORDS: readonly string[] = [
  "manifest",
  "contract",
  "mind",
  "fn",
  "eval",
  "infer",
  "requires",
  "types",
  "tools",
  "params",
  "returns",
  "effects",
  "body",
  "visibility",
  "description",
  "capabilities",
  "entry",
];

/** Every built-in type name: the simple types and the type constructors (§3.2). */
export const BUILTIN_TYPES: readonly string[] = [...RESERVED_TYPE_NAMES];
