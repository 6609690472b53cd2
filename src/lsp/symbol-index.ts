/**
 * What every symbol of a package's Yao files is: a function, a parameter, a binding, a type, a
 * field, a variant, a tool, a built-in or a keyword, whether it declares or refers, and which symbol
 * it means (its `key`: equal keys are the same symbol, so a rename changes exactly those). Built in
 * one walk of the reader's trees per analysis, with the scope rules of yao-v0.1.md §5.3; the fields
 * a `get` or a dotted reference reads are resolved through the analyzer's typed IR (the receiver's
 * record type), which the syntax alone cannot know. Rename, semantic tokens, workspace symbols and
 * the code actions share it. Browser-safe.
 */
import type { HirExpr } from "../../ir/yao-ir-0.1.js";
import type { AnalysisResult } from "../yao/analyze.js";
import { hirChildren } from "../yao/hir-children.js";
import { isFormName } from "../yao/forms.js";
import { BUILTIN_TYPES } from "./operators.js";
import type { Pause } from "./pause.js";
import { headOf, symbolName, type YaoDocument, type YNode } from "./yao-document.js";

export type SymbolCategory =
  | "function"
  | "parameter"
  | "binding"
  | "type"
  | "field"
  | "variant"
  | "tool"
  | "builtin"
  | "keyword"
  | "number"
  | "constant";

export interface Occurrence {
  readonly file: string;
  /** UTF-16 offsets of the name in the file's text (for a dotted reference, the segment alone). */
  readonly from: number;
  readonly to: number;
  readonly name: string;
  readonly category: SymbolCategory;
  readonly declaration: boolean;
  /** The symbol meant (`fn:NAME`, `param:FN:NAME`, `bind:FILE:OFFSET`, `type:NAME`, `field:TYPE.NAME`, …); absent for built-ins, keywords and what does not resolve. */
  readonly key?: string;
  /** For a built-in type or an implicit binding: defined by the language, not by the package. */
  readonly builtin?: boolean;
}

/** A declared function of the package, with the document and form it is written in. */
export interface FunctionDecl {
  readonly name: string;
  readonly doc: YaoDocument;
  readonly form: YNode;
  readonly nameNode: YNode;
}

export interface TypeDecl {
  readonly name: string;
  readonly doc: YaoDocument;
  readonly decl: YNode;
  readonly nameNode: YNode;
}

const SIMPLE_FORMS = new Set(["manifest", "contract", "mind"]);
const BUILTIN_TYPE_SET: ReadonlySet<string> = new Set(BUILTIN_TYPES);
const INT = /^[+-]?[0-9]+$/;
const FLOAT = /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$/;

/** The record type each field read (`get` node, dotted segment) reads from, by `startByte:endByte` of its node's span (innermost first), by the file the typed IR names. */
type FieldReads = Map<string, Map<string, string[]>>;

/** The typed IR names a file as the loader did (package-relative or as given); match it to a workspace path. */
function readsOf(reads: FieldReads, path: string): Map<string, string[]> {
  for (const [file, m] of reads) if (file === path || path.endsWith(`/${file}`)) return m;
  return new Map();
}

export class SymbolIndex {
  /** Occurrences by file, in source order. */
  readonly byFile = new Map<string, Occurrence[]>();
  readonly byKey = new Map<string, Occurrence[]>();
  readonly functions = new Map<string, FunctionDecl>();
  readonly types = new Map<string, TypeDecl>();
  /** Record and union fields by type (record: field names; union: variant → field names). */
  readonly recordFields = new Map<string, string[]>();
  readonly variantFields = new Map<string, string[]>();

  constructor(
    docs: readonly YaoDocument[],
    readonly tools: readonly string[],
    analysis: AnalysisResult | undefined,
  ) {
    // Declarations first: a call may precede the function it applies, in any file.
    for (const doc of docs) this.collectDeclarations(doc);
    const reads = fieldReads(analysis);
    for (const doc of docs) new FileWalker(this, doc, readsOf(reads, doc.path)).walk();
  }

  /**
   * The same index built with a `pause` after each file's declarations and each file's walk, so
   * the language server answers other requests (and honours a cancellation) while a large
   * package's index is built; a pause that throws abandons the build.
   */
  static async build(
    docs: readonly YaoDocument[],
    tools: readonly string[],
    analysis: AnalysisResult | undefined,
    pause: Pause,
  ): Promise<SymbolIndex> {
    const index = new SymbolIndex([], tools, undefined);
    for (const doc of docs) {
      index.collectDeclarations(doc);
      await pause();
    }
    const reads = fieldReads(analysis);
    await pause();
    for (const doc of docs) {
      new FileWalker(index, doc, readsOf(reads, doc.path)).walk();
      await pause();
    }
    return index;
  }

  add(o: Occurrence): void {
    (this.byFile.get(o.file) ?? this.byFile.set(o.file, []).get(o.file)!).push(o);
    if (o.key !== undefined) (this.byKey.get(o.key) ?? this.byKey.set(o.key, []).get(o.key)!).push(o);
  }

  /** The occurrence under `offset` in `file` (its name touches the cursor). */
  at(file: string, offset: number): Occurrence | undefined {
    const list = this.byFile.get(file);
    if (list === undefined) return undefined;
    let lo = 0;
    let hi = list.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const o = list[mid]!;
      if (o.to < offset) lo = mid + 1;
      else if (o.from > offset) hi = mid - 1;
      else return o;
    }
    return undefined;
  }

  private collectDeclarations(doc: YaoDocument): void {
    for (const form of doc.forms) {
      if (headOf(form) === "fn") {
        const nameNode = form.items[1];
        const name = symbolName(nameNode);
        if (name !== undefined && !this.functions.has(name))
          this.functions.set(name, { name, doc, form, nameNode: nameNode! });
      }
    }
    for (const n of doc.walk()) {
      if (headOf(n) !== "types") continue;
      for (const decl of n.items.slice(1)) {
        const nameNode = decl.items[1];
        const name = symbolName(nameNode);
        if (name === undefined || this.types.has(name)) continue;
        this.types.set(name, { name, doc, decl, nameNode: nameNode! });
        if (headOf(decl) === "record")
          this.recordFields.set(
            name,
            decl.items.slice(2).flatMap((f) => symbolName(f.items[0]) ?? []),
          );
        else if (headOf(decl) === "union")
          for (const v of decl.items.slice(2)) {
            const vn = symbolName(v.items[0]);
            if (vn !== undefined)
              this.variantFields.set(
                `${name}.${vn}`,
                v.items.slice(1).flatMap((f) => symbolName(f.items[0]) ?? []),
              );
          }
      }
    }
  }
}

/** Names in scope: name → the key of its binder. */
type Scope = Map<string, string>;

class FileWalker {
  private readonly file: string;
  constructor(
    private readonly index: SymbolIndex,
    private readonly doc: YaoDocument,
    private readonly reads: Map<string, string[]>,
  ) {
    this.file = doc.path;
  }

  walk(): void {
    for (const form of this.doc.forms) this.topLevel(form);
    this.index.byFile.get(this.file)?.sort((a, b) => a.from - b.from);
  }

  private emit(
    n: YNode,
    category: SymbolCategory,
    declaration = false,
    key?: string,
    extra: { from?: number; to?: number; name?: string; builtin?: boolean } = {},
  ): void {
    const name = extra.name ?? symbolName(n);
    if (name === undefined) return;
    this.index.add({
      file: this.file,
      from: extra.from ?? n.from,
      to: extra.to ?? n.to,
      name,
      category,
      declaration,
      ...(key === undefined ? {} : { key }),
      ...(extra.builtin ? { builtin: true } : {}),
    });
  }

  private keyword(n: YNode | undefined): void {
    if (n !== undefined && n.node.kind === "symbol") this.emit(n, "keyword");
  }

  private topLevel(form: YNode): void {
    const head = headOf(form);
    if (head === undefined) return;
    if (head === "fn") return this.fn(form);
    if (head === "eval" || head === "infer") return this.program(form);
    if (head === "types") return this.typesForm(form);
    if (SIMPLE_FORMS.has(head)) return this.metadata(form);
  }

  /** manifest, contract, mind: clause heads are keywords; `(capabilities (tools …))` names tools. */
  private metadata(form: YNode): void {
    this.keyword(form.items[0]);
    for (const clause of form.items.slice(1)) {
      const h = headOf(clause);
      if (h === undefined) continue;
      this.keyword(clause.items[0]);
      if (h === "capabilities")
        for (const cat of clause.items.slice(1)) {
          this.keyword(cat.items[0]);
          if (headOf(cat) === "tools") for (const t of cat.items.slice(1)) this.tool(t);
        }
      else if (h === "frame" || h === "objects")
        for (const sub of clause.items.slice(1)) if (headOf(sub) !== undefined) this.keyword(sub.items[0]);
    }
  }

  private tool(n: YNode | undefined): void {
    const name = symbolName(n);
    if (name !== undefined) this.emit(n!, "tool", false, `tool:${name}`);
  }

  private fn(form: YNode): void {
    this.keyword(form.items[0]);
    const nameNode = form.items[1];
    const name = symbolName(nameNode);
    if (name !== undefined) this.emit(nameNode!, "function", true, `fn:${name}`);
    const scope: Scope = new Map([["runtime", "builtin:runtime"]]);
    let body: YNode | undefined;
    for (const clause of form.items.slice(2)) {
      const h = headOf(clause);
      if (h === undefined) continue;
      this.keyword(clause.items[0]);
      if (h === "visibility") this.keyword(clause.items[1]);
      else if (h === "params")
        for (const p of clause.items.slice(1)) {
          const pn = symbolName(p.items[0]);
          if (pn === undefined) continue;
          const key = `param:${name ?? ""}:${pn}`;
          this.emit(p.items[0]!, "parameter", true, key);
          if (!scope.has(pn)) scope.set(pn, key);
          if (p.items[1] !== undefined) this.type(p.items[1]);
        }
      else if (h === "returns") this.type(clause.items[1]);
      else if (h === "effects") for (const e of clause.items.slice(1)) this.effect(e);
      else if (h === "body") body = clause;
    }
    if (body !== undefined) for (const e of body.items.slice(1)) this.expr(e, scope);
  }

  private program(form: YNode): void {
    this.keyword(form.items[0]);
    const scope: Scope = new Map([["runtime", "builtin:runtime"]]);
    for (const item of form.items.slice(1)) {
      const h = headOf(item);
      if (h === "requires") {
        this.keyword(item.items[0]);
        for (const clause of item.items.slice(1)) {
          this.keyword(clause.items[0]);
          const ch = headOf(clause);
          if (ch === "tools") for (const t of clause.items.slice(1)) this.tool(t);
          else if (ch === "effects") for (const e of clause.items.slice(1)) this.effect(e);
          else if (ch === "types") this.typesForm(clause);
        }
      } else if (h === "types") this.typesForm(item);
      else if (h === "captures") {
        this.keyword(item.items[0]);
        for (const c of item.items.slice(1)) this.reference(c, scope);
      } else if (h === "returns" && form.items[0] !== undefined && symbolName(form.items[0]) === "infer") {
        this.keyword(item.items[0]);
        this.type(item.items[1]);
      } else this.expr(item, scope);
    }
  }

  private typesForm(form: YNode): void {
    this.keyword(form.items[0]);
    for (const decl of form.items.slice(1)) {
      const kind = headOf(decl);
      if (kind === undefined) continue;
      this.keyword(decl.items[0]);
      const nameNode = decl.items[1];
      const name = symbolName(nameNode);
      if (name === undefined) continue;
      this.emit(nameNode!, "type", true, `type:${name}`);
      if (kind === "record") for (const f of decl.items.slice(2)) this.fieldDef(f, name);
      else if (kind === "union")
        for (const v of decl.items.slice(2)) {
          const vn = symbolName(v.items[0]);
          if (vn === undefined) continue;
          this.emit(v.items[0]!, "variant", true, `variant:${name}.${vn}`);
          for (const f of v.items.slice(1)) this.fieldDef(f, `${name}.${vn}`);
        }
    }
  }

  private fieldDef(f: YNode, owner: string): void {
    const fname = symbolName(f.items[0]);
    if (fname === undefined) return;
    this.emit(f.items[0]!, "field", true, `field:${owner}.${fname}`);
    this.type(f.items[1]);
  }

  /** A type expression (§3.1). */
  private type(n: YNode | undefined): void {
    if (n === undefined) return;
    const name = symbolName(n);
    if (name !== undefined) {
      if (BUILTIN_TYPE_SET.has(name)) this.emit(n, "type", false, undefined, { builtin: true });
      else this.emit(n, "type", false, `type:${name}`);
      return;
    }
    const ctor = headOf(n);
    if (ctor === undefined) return;
    this.emit(n.items[0]!, "type", false, undefined, { builtin: true });
    if (ctor === "Ref") return;
    if (ctor === "Program") {
      this.type(n.items[1]);
      const effects = n.items[2];
      if (headOf(effects) === "effects") {
        this.keyword(effects!.items[0]);
        for (const e of effects!.items.slice(1)) this.effect(e);
      }
      return;
    }
    for (const t of n.items.slice(1)) this.type(t);
  }

  /** An effect (§3.1): `infer`, `(tool NAME)`, `(host NAME)`, `(program …)`. */
  private effect(n: YNode): void {
    if (n.node.kind === "symbol") return this.keyword(n);
    const h = headOf(n);
    if (h === undefined) return;
    this.keyword(n.items[0]);
    if (h === "tool") this.tool(n.items[1]);
    else if (h === "host") this.emit(n.items[1]!, "builtin");
    else if (h === "program") for (const e of n.items.slice(1)) this.effect(e);
  }

  /** A symbol in expression position: a literal, or a reference `root(.field)*`. */
  private reference(n: YNode, scope: Scope): void {
    const text = symbolName(n);
    if (text === undefined) return;
    if (text === "nil" || text === "true" || text === "false") return this.emit(n, "constant");
    if (INT.test(text) || FLOAT.test(text)) return this.emit(n, "number");
    const dot = text.indexOf(".");
    const root = dot < 0 ? text : text.slice(0, dot);
    const key = scope.get(root);
    const rootTo = n.from + root.length;
    if (key === "builtin:runtime") this.emit(n, "binding", false, undefined, { to: rootTo, name: root, builtin: true });
    else
      this.emit(n, key?.startsWith("param:") ? "parameter" : "binding", false, key, {
        to: rootTo,
        name: root,
      });
    if (dot < 0) return;
    // Each later segment reads a field; the typed IR says of which record.
    const receivers = this.reads.get(this.spanKey(n)) ?? [];
    let at = rootTo + 1;
    text
      .slice(dot + 1)
      .split(".")
      .forEach((seg, i) => {
        if (seg !== "") {
          const owner = receivers[i];
          this.emit(n, "field", false, owner === undefined ? undefined : `field:${owner}.${seg}`, {
            from: at,
            to: at + seg.length,
            name: seg,
          });
        }
        at += seg.length + 1;
      });
  }

  private spanKey(n: YNode): string {
    const s = n.node.span;
    return `${s.start.byte}:${s.end.byte}`;
  }

  private bindName(n: YNode | undefined, scope: Scope): void {
    const name = symbolName(n);
    if (name === undefined) return;
    const key = `bind:${this.file}:${n!.from}`;
    this.emit(n!, "binding", true, key);
    if (!scope.has(name)) scope.set(name, key);
  }

  /** Named arguments `(NAME E)…` of a call, host operation or function application. */
  private namedArguments(items: readonly YNode[], scope: Scope, keyOf?: (name: string) => string): void {
    for (const a of items) {
      if (a.node.kind !== "list") {
        this.expr(a, scope);
        continue;
      }
      const an = symbolName(a.items[0]);
      if (an !== undefined) this.emit(a.items[0]!, "parameter", false, keyOf?.(an));
      for (const v of a.items.slice(1)) this.expr(v, scope);
    }
  }

  private expr(n: YNode | undefined, scope: Scope): void {
    if (n === undefined) return;
    if (n.node.kind === "string") return;
    if (n.node.kind === "symbol") return this.reference(n, scope);
    const head = headOf(n);
    if (head === undefined) {
      for (const c of n.items) this.expr(c, scope);
      return;
    }
    const items = n.items;
    const headNode = items[0]!;
    // The forms of the language table (src/yao/forms.ts): a case below that is not a row does not compile.
    const form = isFormName(head) ? head : undefined;
    if (form !== undefined) this.emit(headNode, "keyword");
    switch (form) {
      case "seq":
        for (const s of items.slice(1)) this.expr(s, scope);
        return;
      case "bind":
        this.expr(items[2], scope);
        this.bindName(items[1], scope);
        return;
      case "if":
      case "fallback":
        this.expr(items[1], head === "if" ? scope : new Map(scope));
        for (const s of items.slice(2)) this.expr(s, new Map(scope));
        return;
      case "map": {
        this.expr(items[1], scope);
        const inner = new Map(scope);
        this.bindName(items[2], inner);
        this.expr(items[3], inner);
        return;
      }
      case "dict":
      case "json-object":
        for (const e of items.slice(1)) for (const v of e.items.slice(1)) this.expr(v, scope);
        return;
      case "from-json":
      case "decode":
      case "is":
        this.type(items[1]);
        this.expr(items[2], scope);
        return;
      case "none":
        this.type(items[1]);
        return;
      case "ok":
      case "err":
        this.expr(items[1], scope);
        this.type(items[2]);
        return;
      case "record": {
        const tn = symbolName(items[1]);
        if (tn !== undefined) this.type(items[1]);
        for (const f of items.slice(2)) this.fieldValue(f, tn, scope);
        return;
      }
      case "variant": {
        const tn = symbolName(items[1]);
        const vn = symbolName(items[2]);
        if (tn !== undefined) this.type(items[1]);
        if (vn !== undefined)
          this.emit(items[2]!, "variant", false, tn === undefined ? undefined : `variant:${tn}.${vn}`);
        for (const f of items.slice(3)) this.fieldValue(f, tn === undefined ? undefined : `${tn}.${vn}`, scope);
        return;
      }
      case "get": {
        this.expr(items[1], scope);
        const field = items[2];
        const fname = symbolName(field);
        if (fname !== undefined) {
          const owner = this.reads.get(this.spanKey(n))?.[0];
          this.emit(field!, "field", false, owner === undefined ? undefined : `field:${owner}.${fname}`);
        }
        return;
      }
      case "match":
        this.expr(items[1], scope);
        for (const c of items.slice(2)) this.matchCase(c, scope);
        return;
      case "call":
        this.tool(items[1]);
        this.namedArguments(items.slice(2), scope);
        return;
      case "evidence":
      case "outcome":
        if (head === "outcome") this.emit(items[1]!, "constant");
        else this.expr(items[1], scope);
        this.expr(items[2], scope);
        for (const r of items.slice(3)) {
          if (headOf(r) !== undefined) {
            this.keyword(r.items[0]);
            for (const v of r.items.slice(1)) this.expr(v, scope);
          } else this.expr(r, scope);
        }
        return;
      case "par":
        for (const b of items.slice(1)) {
          this.keyword(b.items[0]);
          if (symbolName(b.items[1]) !== undefined) this.emit(b.items[1]!, "field");
          for (const v of b.items.slice(2)) this.expr(v, new Map(scope));
        }
        return;
      case "infer": {
        // A fresh scope holding only the captures (§5.21).
        const inner: Scope = new Map();
        for (const item of items.slice(1)) {
          const h = headOf(item);
          if (h === "captures") {
            this.keyword(item.items[0]);
            for (const c of item.items.slice(1)) {
              this.reference(c, scope);
              const cn = symbolName(c);
              if (cn !== undefined && scope.has(cn)) inner.set(cn, scope.get(cn)!);
            }
          } else if (h === "returns") {
            this.keyword(item.items[0]);
            this.type(item.items[1]);
          } else this.expr(item, inner);
        }
        return;
      }
      default:
        break;
    }
    // Every other undotted form (the pure operators, list, to-json, some, run, context-transaction)
    // has expression operands in the same scope; dotted ones take named arguments, as below.
    if (form !== undefined && !form.includes(".")) {
      for (const s of items.slice(1)) this.expr(s, scope);
      return;
    }
    if (head.includes(".")) {
      this.emit(headNode, "builtin");
      this.namedArguments(items.slice(1), scope);
      return;
    }
    if (this.index.functions.has(head)) {
      this.emit(headNode, "function", false, `fn:${head}`);
      this.namedArguments(items.slice(1), scope, (p) => `param:${head}:${p}`);
      return;
    }
    for (const s of items.slice(1)) this.expr(s, scope);
  }

  private fieldValue(f: YNode, owner: string | undefined, scope: Scope): void {
    const fname = symbolName(f.items[0]);
    if (fname !== undefined)
      this.emit(f.items[0]!, "field", false, owner === undefined ? undefined : `field:${owner}.${fname}`);
    for (const v of f.items.slice(1)) this.expr(v, scope);
  }

  /** `((case T.V (FIELD NAME)…) BODY)`: the pattern binds NAME for BODY. */
  private matchCase(c: YNode, scope: Scope): void {
    const pattern = c.items[0];
    const inner = new Map(scope);
    if (headOf(pattern) === "case") {
      this.keyword(pattern!.items[0]);
      const ctor = pattern!.items[1];
      const text = symbolName(ctor);
      const dot = text?.lastIndexOf(".") ?? -1;
      if (text !== undefined && dot > 0) {
        const tn = text.slice(0, dot);
        const vn = text.slice(dot + 1);
        this.emit(ctor!, "type", false, `type:${tn}`, { to: ctor!.from + dot, name: tn });
        this.emit(ctor!, "variant", false, `variant:${tn}.${vn}`, { from: ctor!.from + dot + 1, name: vn });
        for (const b of pattern!.items.slice(2)) {
          const fname = symbolName(b.items[0]);
          if (fname !== undefined) this.emit(b.items[0]!, "field", false, `field:${tn}.${vn}.${fname}`);
          this.bindName(b.items[1], inner);
        }
      }
    }
    this.expr(c.items[1], inner);
  }
}

/**
 * The record each `get` of the typed IR reads from, by the span of its node: a `(get E f)` form has
 * one entry, a dotted `a.b.c` atom one per segment (its get nodes share the atom's span). Only the
 * bodies the package wrote are walked, not a callee's linked body inside an application.
 */
function fieldReads(analysis: AnalysisResult | undefined): FieldReads {
  const out: FieldReads = new Map();
  if (analysis === undefined) return out;
  const visit = (e: HirExpr): void => {
    const k = e.kind;
    if (k.op === "get") {
      const ty = k.value.ty;
      const owner = ty.kind === "named" ? ty.value : "";
      const key = `${e.span.start.byte}:${e.span.end.byte}`;
      const file = e.span.file ?? "";
      const m = out.get(file) ?? out.set(file, new Map()).get(file)!;
      // Outer gets are visited first; the first segment is the innermost.
      (m.get(key) ?? m.set(key, []).get(key)!).unshift(owner);
    }
    if (k.op === "function_application") {
      for (const a of k.arguments) for (const v of a.values) visit(v);
      return;
    }
    for (const c of hirChildren(e)) visit(c);
  };
  if (analysis.program) visit(analysis.program.body);
  for (const f of analysis.functions?.values() ?? []) visit(f.body);
  return out;
}
