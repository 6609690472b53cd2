/**
 * JSON encoding of the typed IR (yao-v0.1.md §9): the direct serialisation with the reference's key
 * order, and `program_hash` (§9.10) over the identity serialisation. The encoder writes statically
 * linked bodies once per application, exactly as the reference's fully inlined tree.
 */
import type {
  Effect,
  HirExpr,
  HirKind,
  Literal,
  NamedArgument,
  TypeDefinition,
  YaoProgram,
  YaoType,
} from "../../ir/yao-ir-0.1.js";
import type { Span } from "../diagnostics/diagnostic.js";
import { sha256Hex } from "../canonical/hash.js";
import { JObject, jobj, jobjOf, writeJson, type JValue } from "./json-text.js";
import { sortByCodePoints } from "./text.js";

const n = (x: number): bigint => BigInt(x);

/**
 * `entries` as an object, with `at`'s span appended as its last key when `spans` is set. Every
 * `span` key is an object's last, so leaving them out changes nothing else: `programHash` encodes
 * without them, since the identity serialisation strips them (§9.10) and HIR spans are computed
 * only when read (expressions.ts).
 */
function spanned(entries: [string, JValue][], at: { readonly span: Span }, spans: boolean): JObject {
  if (spans) entries.push(["span", encodeSpan(at.span)]);
  return new JObject(entries);
}

export function encodeSpan(s: Span): JObject {
  const loc = (p: Span["start"]): JObject => jobj(["byte", n(p.byte)], ["line", n(p.line)], ["column", n(p.column)]);
  return jobj(["start", loc(s.start)], ["end", loc(s.end)]);
}

export function encodeType(t: YaoType): JObject {
  switch (t.kind) {
    case "list":
    case "map":
    case "option":
      return jobj(["kind", t.kind], ["value", encodeType(t.value)]);
    case "structural_record":
      return jobj(
        ["kind", t.kind],
        [
          "value",
          jobjOf(sortByCodePoints(t.value.keys()).map((k): [string, JValue] => [k, encodeType(t.value.get(k)!)])),
        ],
      );
    case "result":
      return jobj(
        ["kind", t.kind],
        ["value", jobj(["ok", encodeType(t.value.ok)], ["error", encodeType(t.value.error)])],
      );
    case "ref":
    case "named":
      return jobj(["kind", t.kind], ["value", t.value]);
    case "program":
      return jobj(
        ["kind", t.kind],
        ["value", jobj(["output", encodeType(t.value.output)], ["effects", encodeEffects(t.value.effects)])],
      );
    default:
      return jobj(["kind", t.kind]);
  }
}

export function encodeEffect(e: Effect): JObject {
  switch (e.kind) {
    case "infer":
      return jobj(["kind", "infer"]);
    case "tool":
    case "host":
      return jobj(["kind", e.kind], ["name", e.name]);
    case "program":
      return jobj(["kind", "program"], ["name", encodeEffects(e.name)]);
  }
}

export function encodeEffects(set: readonly Effect[]): JValue[] {
  return set.map(encodeEffect);
}

function encodeLiteral(l: Literal): JObject {
  return l.kind === "nil" ? jobj(["kind", "nil"]) : jobj(["kind", l.kind], ["value", l.value]);
}

function encodeArguments(args: readonly NamedArgument[], spans: boolean): JValue[] {
  return args.map((a) =>
    spanned(
      [
        ["name", a.name],
        ["values", a.values.map((v) => encodeExpr(v, spans))],
      ],
      a,
      spans,
    ),
  );
}

function encodePairs(pairs: readonly (readonly [string, HirExpr])[], spans: boolean): JValue[] {
  return pairs.map(([k, v]) => [k, encodeExpr(v, spans)]);
}

function encodeKind(k: HirKind, spans: boolean): JObject {
  const e = (x: HirExpr): JObject => encodeExpr(x, spans);
  switch (k.op) {
    case "literal":
      return jobj(["op", k.op], ["value", encodeLiteral(k.value)]);
    case "reference":
      return k.path === undefined
        ? jobj(["op", k.op], ["root", k.root])
        : jobj(["op", k.op], ["root", k.root], ["path", [...k.path]]);
    case "list":
      return jobj(["op", k.op], ["elements", k.elements.map(e)]);
    case "dict":
      return jobj(["op", k.op], ["entries", encodePairs(k.entries, spans)]);
    case "from_json":
    case "decode":
    case "is":
      return jobj(["op", k.op], ["target", encodeType(k.target)], ["value", e(k.value)]);
    case "to_json":
    case "option_some":
      return jobj(["op", k.op], ["value", e(k.value)]);
    case "record":
      return jobj(["op", k.op], ["type_name", k.type_name], ["fields", encodePairs(k.fields, spans)]);
    case "variant":
      return jobj(
        ["op", k.op],
        ["type_name", k.type_name],
        ["variant", k.variant],
        ["fields", encodePairs(k.fields, spans)],
      );
    case "option_none":
      return jobj(["op", k.op], ["inner", encodeType(k.inner)]);
    case "result_ok":
      return jobj(["op", k.op], ["value", e(k.value)], ["error", encodeType(k.error)]);
    case "result_err":
      return jobj(["op", k.op], ["value", e(k.value)], ["ok", encodeType(k.ok)]);
    case "evidence_candidate":
      return jobj(["op", k.op], ["kind", e(k.kind)], ["value", e(k.value)], ["refs", k.refs.map(e)]);
    case "outcome_candidate":
      return jobj(["op", k.op], ["status", k.status], ["value", e(k.value)], ["evidence", k.evidence.map(e)]);
    case "context_transaction":
      return jobj(["op", k.op], ["context", e(k.context)], ["canonical_source", k.canonical_source]);
    case "get":
      return jobj(["op", k.op], ["value", e(k.value)], ["field", k.field]);
    case "pure":
      return jobj(["op", k.op], ["operator", k.operator], ["operands", k.operands.map(e)]);
    case "seq":
      return jobj(["op", k.op], ["steps", k.steps.map(e)]);
    case "bind":
      return jobj(["op", k.op], ["name", k.name], ["value", e(k.value)]);
    case "if":
      return jobj(
        ["op", k.op],
        ["condition", e(k.condition)],
        ["when_true", e(k.when_true)],
        ["when_false", e(k.when_false)],
      );
    case "match":
      return jobj(
        ["op", k.op],
        ["value", e(k.value)],
        [
          "cases",
          k.cases.map((c) =>
            spanned(
              [
                ["variant", c.variant],
                ["bindings", c.bindings.map((b) => jobj(["field", b.field], ["binding", b.binding]))],
                ["body", e(c.body)],
              ],
              c,
              spans,
            ),
          ),
        ],
      );
    case "fallback":
      return jobj(["op", k.op], ["primary", e(k.primary)], ["backup", e(k.backup)]);
    case "map":
      return jobj(["op", k.op], ["collection", e(k.collection)], ["element", k.element], ["body", e(k.body)]);
    case "call":
      return jobj(["op", k.op], ["tool", k.tool], ["arguments", encodeArguments(k.arguments, spans)]);
    case "function_application":
      return jobj(
        ["op", k.op],
        ["function", k.function],
        ["arguments", encodeArguments(k.arguments, spans)],
        ["parameters", [...k.parameters]],
        ["body", e(k.body)],
      );
    case "infer_body":
      return jobj(
        ["op", k.op],
        ["body", e(k.body)],
        ["captures", [...k.captures]],
        ["result", encodeType(k.result)],
        ["source", k.source],
      );
    case "par":
      return jobj(
        ["op", k.op],
        [
          "branches",
          k.branches.map((b) =>
            spanned(
              [
                ["name", b.name],
                ["body", e(b.body)],
              ],
              b,
              spans,
            ),
          ),
        ],
      );
    case "run":
      return jobj(["op", k.op], ["program", e(k.program)]);
    case "host":
      return jobj(["op", k.op], ["operation", k.operation], ["arguments", encodeArguments(k.arguments, spans)]);
  }
}

export function encodeExpr(x: HirExpr, spans = true): JObject {
  return spanned(
    [
      ["kind", encodeKind(x.kind, spans)],
      ["ty", encodeType(x.ty)],
      ["effects", encodeEffects(x.effects)],
    ],
    x,
    spans,
  );
}

function encodeFields(fields: readonly { name: string; ty: YaoType; span: Span }[], spans: boolean): JValue[] {
  return fields.map((f) =>
    spanned(
      [
        ["name", f.name],
        ["ty", encodeType(f.ty)],
      ],
      f,
      spans,
    ),
  );
}

export function encodeTypeDefinition(d: TypeDefinition, spans = true): JObject {
  return d.kind === "record"
    ? spanned(
        [
          ["kind", "record"],
          ["name", d.name],
          ["fields", encodeFields(d.fields, spans)],
        ],
        d,
        spans,
      )
    : spanned(
        [
          ["kind", "union"],
          ["name", d.name],
          [
            "variants",
            d.variants.map((v) =>
              spanned(
                [
                  ["name", v.name],
                  ["fields", encodeFields(v.fields, spans)],
                ],
                v,
                spans,
              ),
            ),
          ],
        ],
        d,
        spans,
      );
}

/** The program as JSON values (§9.1); `spans: false` leaves out every `span` key (see `spanned`). */
export function encodeProgram(p: YaoProgram, options: { readonly spans?: boolean } = {}): JObject {
  const spans = options.spans ?? true;
  const names = (xs: readonly string[] | null): JValue => (xs === null ? null : [...xs]);
  return jobj(
    ["language_version", p.language_version],
    ["owner", p.owner],
    [
      "requirements",
      jobj(
        ["tools", names(p.requirements.tools)],
        ["effects", p.requirements.effects === null ? null : encodeEffects(p.requirements.effects)],
        ["objects", names(p.requirements.objects)],
      ),
    ],
    [
      "types",
      jobjOf(
        sortByCodePoints(p.types.keys()).map((k): [string, JValue] => [
          k,
          encodeTypeDefinition(p.types.get(k)!, spans),
        ]),
      ),
    ],
    ["body", encodeExpr(p.body, spans)],
    ["output", encodeType(p.output)],
    ["effects", encodeEffects(p.effects)],
    ["canonical_source", p.canonical_source],
    ["source_hash", p.source_hash],
  );
}

/** The direct serialisation (§9.1): what is stored or shipped. */
export function programJson(p: YaoProgram): string {
  return writeJson(encodeProgram(p));
}

/** The identity text hashed by `program_hash` (§9.10). */
export function identityText(program: JValue): string {
  return writeJson(program, true);
}

/** `program_hash` (§9.10) of a program record; `source_hash` is ignored, as it is stripped. */
export function programHash(p: YaoProgram): string {
  return `sha256:${sha256Hex(identityText(encodeProgram(p, { spans: false })))}`;
}
