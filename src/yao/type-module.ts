/**
 * `(types ...)` declarations (yao-v0.1.md §3.3): parsing, merging external and local sources,
 * name validation and recursion rejection, plus the two whole-type predicates of §3.5.
 *
 * Named types can chain arbitrarily long (A1 -> A2 -> ... -> An), so every walk through named
 * definitions here is iterative.
 */
import type { FieldDefinition, TypeDefinition, VariantDefinition, YaoType } from "../../ir/yao-ir-0.1.js";
import type { SList, SNode, SourceSpan } from "../syntax/tree.js";
import { typePart, worded } from "./message.js";
import { didYouMean } from "../diagnostics/suggest.js";
import { fail, type ErrorSink } from "./error.js";
import { isIdentifier, sortByCodePoints } from "./text.js";
import { parseType } from "./type-syntax.js";
import { ERROR_TYPE, isErrorType, RESERVED_TYPE_NAMES, SIMPLE_TYPE_NAMES } from "./types.js";

export const MAX_FIELDS = 256;

export type TypeTable = Map<string, TypeDefinition>;

/** Parse one `(types ...)` form into `into`; `duplicateMessage` differs between local and external sources. */
export function parseTypesForm(form: SList, into: TypeTable, duplicateMessage?: (name: string) => string): void {
  const local = new Set<string>();
  for (const decl of form.items.slice(1)) {
    const def = parseTypeDeclaration(decl, local);
    if (into.has(def.name) && duplicateMessage !== undefined)
      fail("duplicate_name", duplicateMessage(def.name), decl.span);
    into.set(def.name, def);
  }
}

function parseTypeDeclaration(decl: SNode, seen: Set<string>): TypeDefinition {
  if (decl.kind !== "list") fail("type_mismatch", "type declaration must be a list", decl.span);
  const [kind, name, ...rest] = decl.items;
  if (kind === undefined || kind.kind !== "symbol") fail("invalid_type", "type declaration has no kind", decl.span);
  if (name === undefined) fail("invalid_type", "type declaration has no name", decl.span);
  if (name.kind !== "symbol") fail("unknown_name", "type name must be a symbol", name.span);
  if (RESERVED_TYPE_NAMES.has(name.name) || !isIdentifier(name.name)) {
    fail("invalid_type", `invalid or reserved type name '${name.name}'`, name.span);
  }
  if (seen.has(name.name))
    fail("duplicate_name", `duplicate type '${name.name}'`, name.span, {
      label: "declared a second time",
      hint: "rename or remove one of the two declarations",
    });
  seen.add(name.name);
  if (kind.name === "record") {
    return { kind: "record", name: name.name, fields: parseFields(rest), span: decl.span };
  }
  if (kind.name === "union") {
    const variants: VariantDefinition[] = [];
    const names = new Set<string>();
    for (const v of rest) {
      if (v.kind !== "list") fail("type_mismatch", "union variant must be a list", v.span);
      const [vname, ...fields] = v.items;
      if (vname === undefined) fail("invalid_type", "union variant has no name", v.span);
      if (vname.kind !== "symbol") fail("unknown_name", "union variant name must be a symbol", vname.span);
      if (!isIdentifier(vname.name) || names.has(vname.name)) {
        fail("duplicate_name", `invalid or duplicate union variant '${vname.name}'`, vname.span);
      }
      names.add(vname.name);
      variants.push({ name: vname.name, fields: parseFields(fields), span: v.span });
    }
    if (variants.length === 0) fail("invalid_type", `union '${name.name}' must define at least one variant`, decl.span);
    return { kind: "union", name: name.name, variants, span: decl.span };
  }
  fail("invalid_type", `unknown type declaration kind '${kind.name}'`, kind.span);
}

/**
 * The field limit, reported at the first field past it (the construct that crosses it), with the
 * limit's name, its value and the count (issue 34, item 5); the message is the reference's.
 */
export function fieldLimit(items: readonly SNode[], what: string): never {
  fail("resource_limit", `field count ${items.length} exceeds ${MAX_FIELDS}`, items[MAX_FIELDS]!.span, {
    label: `field ${MAX_FIELDS + 1} of ${items.length}, over the limit of ${MAX_FIELDS}`,
    hint: `a ${what} holds at most ${MAX_FIELDS} fields or entries (the field limit); this one has ${items.length}: group fields into nested records, or use a (List …)`,
  });
}

function parseFields(items: readonly SNode[]): FieldDefinition[] {
  if (items.length > MAX_FIELDS) fieldLimit(items, "record or variant");
  const fields: FieldDefinition[] = [];
  const names = new Set<string>();
  for (const f of items) {
    if (f.kind !== "list") fail("type_mismatch", "field definition must be (NAME TYPE)", f.span);
    if (f.items.length !== 2) fail("invalid_type", "field definition must contain NAME and TYPE", f.span);
    const [fname, ftype] = f.items as [SNode, SNode];
    if (fname.kind !== "symbol") fail("unknown_name", "field name must be a symbol", fname.span);
    if (!isIdentifier(fname.name) || names.has(fname.name)) {
      fail("duplicate_name", `invalid or duplicate field '${fname.name}'`, fname.span);
    }
    names.add(fname.name);
    fields.push({ name: fname.name, ty: parseType(ftype), span: f.span });
  }
  return fields;
}

/** Every field type of a definition, in declaration order. */
export function fieldTypesOf(def: TypeDefinition): YaoType[] {
  return def.kind === "record" ? def.fields.map((f) => f.ty) : def.variants.flatMap((v) => v.fields.map((f) => f.ty));
}

/**
 * Push the element types of a structural type (List, Map, Option, Result, structural record) so
 * that popping visits them in source order; other types have none here.
 */
function pushComponentTypes(u: YaoType, stack: YaoType[]): void {
  switch (u.kind) {
    case "list":
    case "map":
    case "option":
      stack.push(u.value);
      break;
    case "result":
      stack.push(u.value.error, u.value.ok);
      break;
    case "structural_record":
      for (const k of sortByCodePoints(u.value.keys()).reverse()) stack.push(u.value.get(k)!);
      break;
    default:
      break;
  }
}

/** Named types mentioned by `t` (not inside Program effects), in order of appearance. */
export function namedTypesIn(t: YaoType): string[] {
  const out: string[] = [];
  const stack: YaoType[] = [t];
  while (stack.length > 0) {
    const u = stack.pop()!;
    if (u.kind === "named") out.push(u.value);
    else if (u.kind === "program") stack.push(u.value.output);
    else pushComponentTypes(u, stack);
  }
  return out;
}

/**
 * `unknown type '{n}'` unless every named type in `t` is declared. When the type's syntax is given,
 * the caret goes on the misspelled name itself rather than the whole clause.
 */
export function validateTypeNames(
  t: YaoType,
  types: TypeTable,
  /** Where to point when `syntax` does not hold the unknown name (called only on an error). */
  span: () => SourceSpan | undefined,
  syntax?: SNode,
): void {
  for (const n of namedTypesIn(t)) {
    if (!types.has(n) && !isErrorType({ kind: "named", value: n })) {
      fail(
        "invalid_type",
        `unknown type '${n}'`,
        (syntax && symbolSpan(syntax, n)) ?? span(),
        unknownTypeTeaching(n, types),
      );
    }
  }
}

function unknownTypeTeaching(name: string, types: TypeTable): { label: string; hint: string } {
  const known = [...SIMPLE_TYPE_NAMES.keys(), ...types.keys()];
  const suggestion = didYouMean(name, known);
  return {
    label: "no type of this name",
    hint:
      suggestion ??
      `declare it in the entry's (types (record ${name} …)), or use a built-in type such as String, Int or Json`,
  };
}

/** The span of the first symbol spelled `name` inside `node` (iterative: type syntax can nest). */
function symbolSpan(node: SNode, name: string): SourceSpan | undefined {
  const stack: SNode[] = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.kind === "symbol" && n.name === name) return n.span;
    if (n.kind === "list") for (let i = n.items.length - 1; i >= 0; i--) stack.push(n.items[i]!);
  }
  return undefined;
}

/**
 * `validateTypeNames` that records instead of stopping: each unknown name is reported once to the
 * sink and replaced by the recovery type, so uses of the value add no further errors.
 */
export function recoverTypeNames(
  t: YaoType,
  types: TypeTable,
  /** Where to point when `syntax` does not hold the unknown name (called only then, so a span is computed only for an error). */
  span: () => SourceSpan | undefined,
  syntax: SNode | undefined,
  sink: ErrorSink,
): YaoType {
  let bad = false;
  for (const n of namedTypesIn(t)) {
    if (types.has(n) || isErrorType({ kind: "named", value: n })) continue;
    sink.attempt(
      () =>
        fail(
          "invalid_type",
          `unknown type '${n}'`,
          (syntax && symbolSpan(syntax, n)) ?? span(),
          unknownTypeTeaching(n, types),
        ),
      () => undefined,
    );
    bad = true;
  }
  return bad ? withoutUnknownNames(t, types) : t;
}

function withoutUnknownNames(t: YaoType, types: TypeTable): YaoType {
  switch (t.kind) {
    case "named":
      return types.has(t.value) ? t : ERROR_TYPE;
    case "list":
    case "map":
    case "option":
      return { kind: t.kind, value: withoutUnknownNames(t.value, types) };
    case "result":
      return {
        kind: "result",
        value: { ok: withoutUnknownNames(t.value.ok, types), error: withoutUnknownNames(t.value.error, types) },
      };
    case "structural_record":
      return {
        kind: "structural_record",
        value: new Map([...t.value].map(([k, v]) => [k, withoutUnknownNames(v, types)])),
      };
    case "program":
      return {
        kind: "program",
        value: { output: withoutUnknownNames(t.value.output, types), effects: t.value.effects },
      };
    default:
      return t;
  }
}

/** Name validation then recursion rejection over the merged table (§3.3, after merging). */
export function validateTypeTable(types: TypeTable, sink?: ErrorSink): void {
  const names = sortByCodePoints(types.keys());
  for (const n of names) {
    const def = types.get(n)!;
    if (sink === undefined) {
      for (const t of fieldTypesOf(def)) validateTypeNames(t, types, () => spanOf(def));
      continue;
    }
    // Each unknown field type is reported once and the field takes the recovery type.
    const fields = def.kind === "record" ? def.fields : def.variants.flatMap((v) => v.fields);
    for (const f of fields) {
      const fixed = recoverTypeNames(f.ty, types, () => spanOf(def), undefined, sink);
      if (fixed !== f.ty) (f as { ty: YaoType }).ty = fixed;
    }
  }
  const cyclic = cyclicNames(types);
  const first = names.find((n) => cyclic.has(n));
  if (first !== undefined) {
    fail("recursive_type", `recursive type '${first}' is not supported in Yao v0.1`, spanOf(types.get(first)!), {
      label: "this type reaches itself",
      hint: "Yao v0.1 values are finite trees: break the cycle, for example with a (List …) of ids or a Json field",
    });
  }
}

function spanOf(def: TypeDefinition): SourceSpan {
  return def.span;
}

/** Names that reach themselves: members of a non-trivial SCC or with a self edge (iterative Tarjan). */
function cyclicNames(types: TypeTable): Set<string> {
  const edges = new Map<string, string[]>();
  for (const [n, def] of types)
    edges.set(
      n,
      fieldTypesOf(def)
        .flatMap(namedTypesIn)
        .filter((m) => types.has(m)),
    );
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cyclic = new Set<string>();
  let counter = 0;
  for (const start of types.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const succ = edges.get(frame.node)!;
      if (frame.next < succ.length) {
        const m = succ[frame.next++]!;
        if (!index.has(m)) {
          index.set(m, counter);
          low.set(m, counter++);
          stack.push(m);
          onStack.add(m);
          work.push({ node: m, next: 0 });
        } else if (onStack.has(m)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(m)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let m: string;
        do {
          m = stack.pop()!;
          onStack.delete(m);
          component.push(m);
        } while (m !== frame.node);
        const selfEdge = edges.get(frame.node)!.includes(frame.node);
        if (component.length > 1 || selfEdge) for (const c of component) cyclic.add(c);
      }
    }
  }
  return cyclic;
}

/**
 * Walk `t` and every named definition it reaches (each once), depth-first in source order, and
 * return the first type for which `bad` holds.
 */
function findInType(t: YaoType, types: TypeTable, bad: (u: YaoType) => boolean): YaoType | undefined {
  const visited = new Set<string>();
  const stack: YaoType[] = [t];
  while (stack.length > 0) {
    const u = stack.pop()!;
    if (bad(u)) return u;
    if (u.kind === "named") {
      if (visited.has(u.value)) continue;
      visited.add(u.value);
      const def = types.get(u.value);
      if (def !== undefined) for (const t of fieldTypesOf(def).reverse()) stack.push(t);
    } else pushComponentTypes(u, stack);
  }
  return undefined;
}

/** §3.5: `decode` may not build values that need host injection or Runtime admission. */
export function isNonForgeable(t: YaoType, types: TypeTable): boolean {
  return findInType(t, types, isAuthorityBearing) !== undefined;
}

/** Values that need host injection or Runtime admission: sealed candidates, refs and programs. */
function isAuthorityBearing(u: YaoType): boolean {
  return (
    u.kind === "evidence_candidate" ||
    u.kind === "outcome_candidate" ||
    u.kind === "context_transaction" ||
    u.kind === "ref" ||
    u.kind === "program"
  );
}

/** §3.5: `from-json`, `to-json` and `json-object` accept only JSON-crossable types. */
export function checkJsonCrossable(t: YaoType, types: TypeTable, span: SourceSpan): void {
  const unknown = findInType(t, types, (u) => u.kind === "named" && !types.has(u.value));
  if (unknown !== undefined && unknown.kind === "named")
    fail("invalid_type", `unknown JSON type '${unknown.value}'`, span);
  const bad = findInType(t, types, isAuthorityBearing);
  if (bad !== undefined) {
    fail(
      "invalid_type",
      worded`${typePart(bad)} cannot cross an ordinary JSON boundary; authority-bearing values require Runtime admission`,
      span,
    );
  }
}
