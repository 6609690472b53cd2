/**
 * The two Yao headers, recognised in one place (yao-v0.1.md §4.1–4.2 and §7.1; HNS §9.1–9.4): the
 * entry envelope `(eval|infer [(requires …)] [(types …)] BODY…)` and the function form
 * `(fn NAME CLAUSE…)`.
 *
 * A recogniser returns a typed record or the first structural failure as a kind. It carries no
 * codes and no words: the loader (src/hns, the reference loader's `hns.*` codes and order) and the
 * analyzer (Yao error kinds) word the same failure differently, so each maps the kinds itself.
 * `(requires …)` clause problems do not stop recognition: each clause records its own, because the
 * loader only judges the `(tools …)` clause while the analyzer judges every clause, each in source
 * order. It lives in the reader's folder, below both stages, and imports only the syntax tree.
 */
import { headName, ReadList, type SList, type SNode, type SSymbol } from "./tree.js";

export type ProgramOwner = "runtime" | "model";

export type Recognised<T, F> = { readonly ok: true; readonly header: T } | { readonly ok: false; readonly failure: F };

export type EntryHeaderFailure =
  | { readonly kind: "not_list"; readonly node: SNode }
  /** No head, or a head that is not a symbol. */
  | { readonly kind: "no_owner"; readonly node: SList }
  | { readonly kind: "unknown_owner"; readonly node: SSymbol }
  /** `(version …)` right after the owner: Yao has no in-band version. */
  | { readonly kind: "in_band_version"; readonly node: SList };

export interface EntryHeader {
  readonly form: SList;
  readonly owner: ProgramOwner;
  /** The `(requires …)` form when it is the first item after the owner (the only place it is read). */
  readonly requires: RequiresHeader | undefined;
  /** The entry's `(types …)` module: the item after the owner and an optional `(requires …)`. */
  readonly types: SList | undefined;
  /** What follows the header: the program body (exactly one expression for `eval`). */
  readonly body: readonly SNode[];
}

export const NAME_LIST_CLAUSES = ["tools", "objects"] as const;
export type NameListClause = (typeof NAME_LIST_CLAUSES)[number];

export type RequiresClauseProblem =
  | { readonly kind: "not_list" }
  /** A list whose head is missing or not a symbol. */
  | { readonly kind: "unnamed" }
  /** The clause's name already appeared in an earlier clause. */
  | { readonly kind: "repeated" }
  /** In a `(tools …)`/`(objects …)` clause: an item that is not a name, or one named twice. */
  | { readonly kind: "item_not_symbol"; readonly node: SNode }
  | { readonly kind: "item_repeated"; readonly node: SSymbol };

export interface RequiresClause {
  readonly node: SNode;
  /** The head symbol when the clause is a list headed by one. */
  readonly name: string | undefined;
  readonly nameNode: SSymbol | undefined;
  readonly args: readonly SNode[];
  /** The clause's first problem, in the order both readers check it. */
  readonly problem: RequiresClauseProblem | undefined;
}

export interface RequiresHeader {
  readonly form: SList;
  /** Every clause, in source order. */
  readonly clauses: readonly RequiresClause[];
  /** The names of the first `(tools …)` clause in source order; `undefined` without one. */
  readonly tools: readonly SSymbol[] | undefined;
  /** The names of the first `(objects …)` clause in source order; `undefined` without one. */
  readonly objects: readonly SSymbol[] | undefined;
}

export function recogniseEntryHeader(form: SNode): Recognised<EntryHeader, EntryHeaderFailure> {
  if (form.kind !== "list") return { ok: false, failure: { kind: "not_list", node: form } };
  const head = form.items[0];
  if (head === undefined || head.kind !== "symbol") return { ok: false, failure: { kind: "no_owner", node: form } };
  if (head.name !== "eval" && head.name !== "infer")
    return { ok: false, failure: { kind: "unknown_owner", node: head } };
  const owner: ProgramOwner = head.name === "eval" ? "runtime" : "model";
  let i = 1;
  const second = form.items[1];
  if (headName(second) === "version") return { ok: false, failure: { kind: "in_band_version", node: second as SList } };
  let requires: RequiresHeader | undefined;
  if (headName(second) === "requires") {
    requires = recogniseRequires(second as SList);
    i++;
  }
  let types: SList | undefined;
  const candidate = form.items[i];
  if (headName(candidate) === "types") {
    types = candidate as SList;
    i++;
  }
  return { ok: true, header: { form, owner, requires, types, body: form.items.slice(i) } };
}

function recogniseRequires(form: SList): RequiresHeader {
  const clauses: RequiresClause[] = [];
  const seen = new Set<string>();
  const lists = new Map<NameListClause, SSymbol[]>();
  for (const node of form.items.slice(1)) {
    if (node.kind !== "list") {
      clauses.push({ node, name: undefined, nameNode: undefined, args: [], problem: { kind: "not_list" } });
      continue;
    }
    const head = node.items[0];
    const args = node.items.slice(1);
    if (head === undefined || head.kind !== "symbol") {
      clauses.push({ node, name: undefined, nameNode: undefined, args, problem: { kind: "unnamed" } });
      continue;
    }
    let problem: RequiresClauseProblem | undefined;
    if (seen.has(head.name)) problem = { kind: "repeated" };
    else if ((NAME_LIST_CLAUSES as readonly string[]).includes(head.name)) {
      const names = nameList(args);
      if ("problem" in names) problem = names.problem;
      else lists.set(head.name as NameListClause, names.symbols);
    }
    seen.add(head.name);
    clauses.push({ node, name: head.name, nameNode: head, args, problem });
  }
  return { form, clauses, tools: lists.get("tools"), objects: lists.get("objects") };
}

function nameList(items: readonly SNode[]): { symbols: SSymbol[] } | { problem: RequiresClauseProblem } {
  const symbols: SSymbol[] = [];
  const names = new Set<string>();
  for (const item of items) {
    if (item.kind !== "symbol") return { problem: { kind: "item_not_symbol", node: item } };
    if (names.has(item.name)) return { problem: { kind: "item_repeated", node: item } };
    names.add(item.name);
    symbols.push(item);
  }
  return { symbols };
}

export type FnHeaderFailure =
  | { readonly kind: "not_list"; readonly node: SNode }
  /** `node` is the head when there is one, else the form. */
  | { readonly kind: "not_fn"; readonly node: SNode; readonly form: SList }
  | { readonly kind: "missing_name"; readonly node: SList }
  | { readonly kind: "name_not_symbol"; readonly node: SNode; readonly form: SList };

export interface FnClause {
  readonly node: SNode;
  /** The head symbol when the clause is a list headed by one. */
  readonly name: string | undefined;
  readonly nameNode: SSymbol | undefined;
  readonly args: readonly SNode[];
}

export interface FnHeader {
  readonly form: SList;
  readonly name: string;
  readonly nameNode: SSymbol;
  /** Every item after the name, in source order. */
  readonly clauses: readonly FnClause[];
}

export function recogniseFnHeader(form: SNode): Recognised<FnHeader, FnHeaderFailure> {
  if (form.kind !== "list") return { ok: false, failure: { kind: "not_list", node: form } };
  const [head, nameNode] = form.items;
  if (head === undefined || head.kind !== "symbol" || head.name !== "fn")
    return { ok: false, failure: { kind: "not_fn", node: head ?? form, form } };
  if (nameNode === undefined) return { ok: false, failure: { kind: "missing_name", node: form } };
  if (nameNode.kind !== "symbol") return { ok: false, failure: { kind: "name_not_symbol", node: nameNode, form } };
  const clauses = form.items.slice(2).map((node): FnClause => {
    const h = node.kind === "list" ? node.items[0] : undefined;
    return h !== undefined && h.kind === "symbol"
      ? new Clause(node, h.name, h, (node as SList).items.slice(1))
      : new Clause(node, undefined, undefined, node.kind === "list" ? node.items.slice(1) : []);
  });
  return { ok: true, header: new Header(form, nameNode.name, nameNode, clauses) };
}

/*
 * A header and its clauses are class instances, not object literals: a literal's allocation site
 * is one V8 may decide to allocate in the old generation once most of its objects outlive a minor
 * collection, as every function's header does (it lives as long as the check). An old header then
 * points at the young tree, and every tree it points at stays alive through each minor collection
 * until the next full one, dead or not: in about a third of the bench's processes each check's
 * tree was promoted that way, and a warm check took a third longer (issue 29, figure n). An
 * instance made by `new` has no such site.
 */
class Clause implements FnClause {
  constructor(
    readonly node: SNode,
    readonly name: string | undefined,
    readonly nameNode: SSymbol | undefined,
    readonly args: readonly SNode[],
  ) {}
}

class Header implements FnHeader {
  constructor(
    readonly form: SList,
    readonly name: string,
    readonly nameNode: SSymbol,
    readonly clauses: readonly FnClause[],
  ) {}
}

/** The form without its `(body …)` clauses, other clauses in source order: the exported interface. */
/** Whether item `i` of a `(fn …)` form is a `(body …)` clause (the name and `fn` never are). */
export function isBodyClause(item: SNode, i: number): boolean {
  return i >= 2 && headName(item) === "body";
}

export function withoutBodyClauses(fn: SList): SList {
  const kept = fn.items.filter((c, i) => !isBodyClause(c, i));
  // A list the reader built stays one (same class, same offsets), so its span is computed only if
  // asked for (a valid package never asks) and the analyzer sees no new node shape; a plain object
  // with a span getter here made every node-handling call site slower.
  if (fn instanceof ReadList) return new ReadList(fn.source, fn.from, fn.to, kept);
  return { kind: "list", items: kept, span: fn.span };
}
