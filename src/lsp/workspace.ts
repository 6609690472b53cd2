/**
 * The language server's model of the author's packages: open documents over the file system, the
 * package each file belongs to, the last check of each package, and the language features (hover,
 * definition, references, symbols, folding, completion, formatting) computed from the reader's tree
 * and the analyzer's typed IR. Browser-safe: the Node adapter (node-server.ts) supplies the file
 * system and the LSP transport.
 *
 * Diagnostics come from the one `check` facade `yaoc check` runs (for HNS keeping the loaded
 * package and typed IR for the features), run on the overlay of unsaved texts.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { orderDiagnostics } from "../diagnostics/order.js";
import type { CheckResult } from "../diagnostics/result.js";
import { check } from "../check/check.js";
import { packageOfFile } from "../check/frontends.js";
import { formatSource } from "../fmt/format.js";
import type { PackageFs } from "../fs/package-fs.js";
import { dirName, isWithin, joinPath } from "../fs/paths.js";
import { HNS_METADATA_FILES, type HnsPackage } from "../hns/model.js";
import { readAll } from "../syntax/reader.js";
import { headName } from "../syntax/tree.js";
import type { HirExpr } from "../../ir/yao-ir-0.1.js";
import type { AnalysisResult } from "../yao/analyze.js";
import { analyzeProgram } from "../yao/analyze.js";
import { displayEffects, displayType } from "../yao/type-display.js";
import { morphzProfile } from "../yao/profile.js";
import { interfaceSource } from "../yao/interface.js";
import { completeAt } from "./completion.js";
import { listedYaoFiles } from "./package-files.js";
import { ARTIFACT_KEYWORDS, BUILTIN_TYPES, OPERATORS, operatorMarkdown } from "./operators.js";
import { CachingFs } from "./caching-fs.js";
import { OverlayFs } from "../fs/overlay-fs.js";
import { headOf, symbolName, YaoDocument, type LspPosition, type LspRange, type YNode } from "./yao-document.js";

export interface Location {
  readonly path: string;
  readonly range: LspRange;
}

/** What a file belongs to: an HNS package (single file or directory), another frontend's package, or a lone Yao source. */
export type Owner =
  | { readonly kind: "hns"; readonly root: string }
  | { readonly kind: "other"; readonly root: string }
  | { readonly kind: "yao"; readonly root: string };

export interface PackageCheck {
  readonly owner: Owner;
  /** Diagnostics by file path; every file of the package that was checked has an entry (maybe empty). */
  readonly diagnostics: ReadonlyMap<string, Diagnostic[]>;
}

export interface PackageState {
  readonly pkg?: HnsPackage;
  readonly analysis?: AnalysisResult;
  /** Every Yao file of the package (entry, metadata, functions). */
  readonly files: readonly string[];
  /** The check's diagnostics by file (for the quick fixes). */
  readonly diagnostics?: ReadonlyMap<string, Diagnostic[]>;
}

export interface HoverResult {
  readonly markdown: string;
  readonly range?: LspRange;
}

export interface SymbolInfo {
  readonly name: string;
  readonly detail: string;
  readonly kind: "module" | "function" | "struct" | "enum" | "field" | "event" | "object";
  readonly range: LspRange;
  readonly selectionRange: LspRange;
  readonly children: SymbolInfo[];
}

export interface CompletionInfo {
  readonly label: string;
  readonly kind: "operator" | "function" | "type" | "field" | "tool" | "keyword" | "variable";
  readonly detail: string;
  /** Orders the list (best first); set by the context-aware completion of completion.ts. */
  readonly sortText?: string;
  /** Snippet text (LSP snippet syntax) when it differs from the label. */
  readonly snippet?: string;
}

/** Packages whose last check (tree, typed IR, diagnostics) is kept; older ones are checked again when asked. */
export const MAX_PACKAGE_STATES = 32;
/** Documents read from disk that are kept parsed (open documents are always kept). */
export const MAX_DOCUMENTS = 256;

export class Workspace {
  /** The editor's unsaved texts over the cached disk: what every check and feature reads. */
  readonly fs: OverlayFs;
  /** What was read from disk; kept across checks until the disk is reported changed. */
  private readonly disk: CachingFs;
  /** Parsed documents, least recently used first; open documents are never evicted. */
  private readonly docs = new Map<string, YaoDocument>();
  /** The last check of each package, least recently used first, at most MAX_PACKAGE_STATES. */
  private readonly states = new Map<string, PackageState>();

  constructor(base: PackageFs) {
    this.disk = new CachingFs(base);
    this.fs = new OverlayFs(this.disk);
  }

  open(path: string, text: string): void {
    this.fs.set(path, text);
    this.docs.delete(path);
  }

  close(path: string): void {
    this.fs.delete(path);
    this.docs.delete(path);
  }

  /** The editor reported `path` (a file or a directory) created, changed or deleted on disk. */
  diskChanged(path: string): void {
    this.disk.invalidate(path);
    for (const doc of this.docs.keys()) if (isWithin(path, doc) && !this.fs.has(doc)) this.docs.delete(doc);
  }

  /** Forget everything read from disk (when the editor cannot report changes, before each check). */
  forgetDisk(): void {
    this.disk.clear();
    for (const doc of this.docs.keys()) if (!this.fs.has(doc)) this.docs.delete(doc);
  }

  /** Whether the document at `path` is held already (asking for it then costs no read or parse). */
  hasDocument(path: string): boolean {
    return this.docs.has(path);
  }

  /** The document at `path`: the editor's text when open, else the file's text ("" when unreadable). */
  async document(path: string): Promise<YaoDocument> {
    const cached = this.docs.get(path);
    if (cached !== undefined) {
      this.docs.delete(path);
      this.docs.set(path, cached);
      return cached;
    }
    let text = "";
    const open = this.fs.bytes(path);
    if (open !== undefined) {
      // The editor's text whatever its size: a check of it reports one over the limit (yao.source_limit).
      text = new TextDecoder().decode(open);
    } else {
      try {
        text = new TextDecoder().decode(await this.fs.readFile(path, 4 * 262_144));
      } catch {
        // unreadable (or outside the workspace): an empty document
      }
    }
    const doc = new YaoDocument(path, text);
    this.docs.set(path, doc);
    if (this.docs.size > MAX_DOCUMENTS)
      for (const key of this.docs.keys()) {
        if (this.docs.size <= MAX_DOCUMENTS) break;
        if (!this.fs.has(key) && key !== path) this.docs.delete(key);
      }
    return doc;
  }

  /** Remember a package's check, forgetting the least recently used past the bound (RSS stays flat over many packages). */
  private keepState(root: string, state: PackageState): void {
    this.states.delete(root);
    this.states.set(root, state);
    while (this.states.size > MAX_PACKAGE_STATES) this.states.delete(this.states.keys().next().value!);
  }

  /** The package a file belongs to (HNS §4: the entry, metadata and functions/ files of a `.hns` directory). */
  async ownerOf(path: string): Promise<Owner> {
    // The frontend table says which package a file is part of (src/check/frontends.ts).
    const pkg = await packageOfFile(this.fs, path);
    if (pkg === undefined) return { kind: "yao", root: path };
    return { kind: pkg.frontend.kind === "hns" ? "hns" : "other", root: pkg.root };
  }

  /** Check the package `path` belongs to, as a whole, with the unsaved texts. */
  async check(path: string): Promise<PackageCheck> {
    const owner = await this.ownerOf(path);
    const byFile = new Map<string, Diagnostic[]>();
    const add = (file: string | undefined, d: Diagnostic): void => {
      const key =
        file === undefined
          ? path
          : file.startsWith("/")
            ? file
            : joinPath(owner.kind === "other" ? owner.root : dirName(owner.root), file);
      (byFile.get(key) ?? byFile.set(key, []).get(key)!).push(d);
    };
    if (owner.kind === "hns") {
      const result = await check(this.fs, owner.root, { kind: "hns", keepAnalysis: true });
      const { analysis } = result;
      const files = result.package ? packageFiles(result.package, owner.root) : [path];
      for (const f of files) byFile.set(f, []);
      byFile.set(path, byFile.get(path) ?? []);
      for (const d of result.diagnostics) add(d.file, d);
      this.keepState(owner.root, { pkg: result.package, analysis, files, diagnostics: byFile });
    } else if (owner.kind === "other") {
      byFile.set(path, []);
      // HARP, HCP or A3S: detected from the root like \`yaoc check DIR\`, so the same frontend judges it.
      const result = await check(this.fs, owner.root);
      for (const d of result.diagnostics) add(d.file, d);
    } else {
      byFile.set(path, []);
      const doc = await this.document(path);
      const read = readAll(doc.text, { file: path });
      if (!read.ok) add(path, read.diagnostic);
      else if (read.forms.length === 1 && ["eval", "infer"].includes(headName(read.forms[0]) ?? "")) {
        // A lone program: analysed against the default profile, like `yaoc ir`.
        const analysis = analyzeProgram(read.forms[0]!, { profile: morphzProfile() });
        // In position order, as `yaoc check` shows an HNS package's (diagnostics/order.ts).
        for (const d of orderDiagnostics(analysis.diagnostics)) add(d.file ?? path, d);
        this.keepState(path, { analysis, files: [path], diagnostics: byFile });
      }
    }
    return { owner, diagnostics: byFile };
  }

  /** The last check of the package `path` belongs to, for the language features of their own modules. */
  packageState(path: string): Promise<PackageState> {
    return this.state(path);
  }

  /** The last check of the package `path` belongs to (run one if there is none). */
  private async state(path: string): Promise<PackageState> {
    const owner = await this.ownerOf(path);
    if (!this.states.has(owner.root)) await this.check(path);
    const state = this.states.get(owner.root);
    if (state === undefined) return { files: [path] };
    this.states.delete(owner.root);
    this.states.set(owner.root, state);
    return state;
  }

  // ---- formatting ---------------------------------------------------------------------------

  /** The whole document formatted, or undefined when it does not read (nothing to change then). */
  async format(path: string): Promise<string | undefined> {
    const doc = await this.document(path);
    const r = formatSource(doc.text, { file: path });
    return r.ok ? r.text : undefined;
  }

  /**
   * Why writing `formatted` in place of the text of `path` would change its package's verdict by
   * size: a directory package that passes its total (4 MiB, `hns.package_limit`) now, with the
   * editor's unsaved texts, and would fail it with this file formatted — as `yaoc fmt` refuses it.
   * Null when the package stays within its total, or when the file is not in a directory package.
   */
  async formattedPackageLimit(path: string, formatted: string): Promise<Diagnostic | null> {
    const owner = await this.ownerOf(path);
    if (owner.kind !== "hns" || owner.root === path) return null;
    const doc = await this.document(path);
    // Shorter or equal text never makes any prefix of the loader's reads longer.
    if (utf8Bytes(formatted) <= utf8Bytes(doc.text)) return null;
    const limited = (r: CheckResult) => r.diagnostics.find((d) => d.code === "hns.package_limit");
    if (limited(await check(this.fs, owner.root, { kind: "hns", analyze: false })) !== undefined) return null;
    const withFormatted = new OverlayFs(this.fs);
    withFormatted.set(path, formatted);
    try {
      const real = await this.fs.realpath(path);
      if (real !== path) withFormatted.set(real, formatted);
    } catch {
      // an unsaved document that is not on disk: known by its own path only
    }
    const after = limited(await check(withFormatted, owner.root, { kind: "hns", analyze: false }));
    if (after === undefined) return null;
    const { span: _span, ...rest } = after;
    return {
      ...rest,
      file: path,
      message: `formatting ${path} would make its package fail its size limit (${after.message}); the formatted package would fail \`yaoc check\` where it passes now`,
      hint: "split large functions or move stray large sources out of the package before formatting it",
    };
  }

  // ---- symbols and folding ------------------------------------------------------------------

  async symbols(path: string): Promise<SymbolInfo[]> {
    const doc = await this.document(path);
    const range = (n: YNode): LspRange => doc.lines.range(n.from, n.to);
    const out: SymbolInfo[] = [];
    for (const form of doc.forms) {
      const head = headOf(form);
      if (head === undefined) continue;
      const nameNode = form.items[1];
      if (head === "fn" && symbolName(nameNode) !== undefined) {
        const params = form.items.find((i) => headOf(i) === "params");
        const children: SymbolInfo[] = (params?.items.slice(1) ?? []).flatMap((p) => {
          const n = p.items[0];
          return symbolName(n) === undefined
            ? []
            : [
                {
                  name: symbolName(n)!,
                  detail: "parameter",
                  kind: "field" as const,
                  range: range(p),
                  selectionRange: range(n!),
                  children: [],
                },
              ];
        });
        out.push({
          name: symbolName(nameNode)!,
          detail: "fn",
          kind: "function",
          range: range(form),
          selectionRange: range(nameNode!),
          children,
        });
      } else if (head === "eval" || head === "infer") {
        const children = form.items.filter((i) => headOf(i) === "types").flatMap((t) => typeSymbols(t, range));
        out.push({
          name: head,
          detail: "entry",
          kind: "event",
          range: range(form),
          selectionRange: range(form.items[0]!),
          children,
        });
      } else if (head === "types") {
        for (const s of typeSymbols(form, range)) out.push(s);
      } else {
        const id = form.items.find((i) => headOf(i) === "id" || headOf(i) === "identity");
        const detail = id?.items[1] !== undefined ? doc.text.slice(id.items[1].from, id.items[1].to) : head;
        out.push({
          name: head,
          detail,
          kind: head === "manifest" ? "module" : "object",
          range: range(form),
          selectionRange: range(form.items[0]!),
          children: [],
        });
      }
    }
    return out;
  }

  /** Every list that spans more than one line folds. */
  async foldingRanges(path: string): Promise<{ startLine: number; endLine: number }[]> {
    const doc = await this.document(path);
    const out: { startLine: number; endLine: number }[] = [];
    for (const n of doc.walk()) {
      if (n.node.kind !== "list") continue;
      const startLine = n.node.span.start.line - 1;
      const endLine = n.node.span.end.line - 1;
      if (endLine > startLine) out.push({ startLine, endLine });
    }
    return out;
  }

  // ---- definitions and references -----------------------------------------------------------

  /** Function definitions of the package: name → the `fn` form's name node location. */
  private async functionDefinitions(
    path: string,
  ): Promise<Map<string, { loc: Location; form: YNode; doc: YaoDocument }>> {
    const state = await this.state(path);
    const files = state.files.includes(path) ? state.files : [...state.files, path];
    const out = new Map<string, { loc: Location; form: YNode; doc: YaoDocument }>();
    for (const file of files) {
      const doc = await this.document(file);
      for (const form of doc.forms) {
        const name = headOf(form) === "fn" ? symbolName(form.items[1]) : undefined;
        if (name !== undefined && !out.has(name))
          out.set(name, {
            loc: { path: file, range: doc.lines.range(form.items[1]!.from, form.items[1]!.to) },
            form,
            doc,
          });
      }
    }
    return out;
  }

  /** Declared type names of the package (record/union/alias in any `(types ...)`). */
  private async typeDefinitions(path: string): Promise<Map<string, { loc: Location; decl: YNode; doc: YaoDocument }>> {
    const state = await this.state(path);
    const files = state.files.includes(path) ? state.files : [...state.files, path];
    const out = new Map<string, { loc: Location; decl: YNode; doc: YaoDocument }>();
    for (const file of files) {
      const doc = await this.document(file);
      for (const n of doc.walk()) {
        if (headOf(n) !== "types") continue;
        for (const decl of n.items.slice(1)) {
          const nameNode = decl.items[1];
          const name = symbolName(nameNode);
          if (name !== undefined && !out.has(name))
            out.set(name, { loc: { path: file, range: doc.lines.range(nameNode!.from, nameNode!.to) }, decl, doc });
        }
      }
    }
    return out;
  }

  async definition(path: string, position: LspPosition): Promise<Location[]> {
    const doc = await this.document(path);
    const node = doc.nodeAt(doc.lines.offsetAt(position));
    const name = symbolName(node);
    if (node === undefined || name === undefined) return [];
    const binder = bindingOf(node, name);
    if (binder !== undefined) return [{ path, range: doc.lines.range(binder.from, binder.to) }];
    const fn = (await this.functionDefinitions(path)).get(name);
    if (fn !== undefined) return [fn.loc];
    const ty = (await this.typeDefinitions(path)).get(name);
    if (ty !== undefined) return [ty.loc];
    return [];
  }

  async references(path: string, position: LspPosition, includeDeclaration: boolean): Promise<Location[]> {
    const doc = await this.document(path);
    const node = doc.nodeAt(doc.lines.offsetAt(position));
    const name = symbolName(node);
    if (node === undefined || name === undefined) return [];
    const out: Location[] = [];
    const binder = bindingOf(node, name) ?? (isBinderSite(node) ? node : undefined);
    if (binder !== undefined) {
      for (const n of doc.walk()) {
        if (symbolName(n) !== name) continue;
        if (n === binder ? includeDeclaration : bindingOf(n, name) === binder)
          out.push({ path, range: doc.lines.range(n.from, n.to) });
      }
      return out;
    }
    const global = (await this.functionDefinitions(path)).has(name) || (await this.typeDefinitions(path)).has(name);
    if (!global) return [];
    const state = await this.state(path);
    const files = state.files.includes(path) ? state.files : [...state.files, path];
    for (const file of files) {
      const d = await this.document(file);
      for (const n of d.walk()) {
        if (symbolName(n) !== name || bindingOf(n, name) !== undefined) continue;
        const isDeclaration = (headOf(n.parent) === "fn" || headOf(n.parent?.parent) === "types") && n.index === 1;
        if (isDeclaration && !includeDeclaration) continue;
        out.push({ path: file, range: d.lines.range(n.from, n.to) });
      }
    }
    return out;
  }

  // ---- hover --------------------------------------------------------------------------------

  async hover(path: string, position: LspPosition): Promise<HoverResult | undefined> {
    const doc = await this.document(path);
    const offset = doc.lines.offsetAt(position);
    const node = doc.nodeAt(offset);
    if (node === undefined) return undefined;
    const range = doc.lines.range(node.from, node.to);
    const name = symbolName(node);
    const state = await this.state(path);

    if (name !== undefined) {
      const fn = (await this.functionDefinitions(path)).get(name);
      if (fn !== undefined && bindingOf(node, name) === undefined)
        return { markdown: functionHover(fn.form, fn.doc, state.analysis, name), range };
      if (node.index === 0 && node.parent !== undefined) {
        const op = OPERATORS.get(name);
        if (op !== undefined) return { markdown: operatorMarkdown(op), range };
      }
      if ((headOf(node.parent) === "call" && node.index === 1) || headOf(node.parent) === "tools") {
        if (state.pkg?.manifest.tools.includes(name)) return { markdown: toolHover(name), range };
      }
      const ty = (await this.typeDefinitions(path)).get(name);
      if (ty !== undefined)
        return { markdown: `\`\`\`yao\n${ty.doc.text.slice(ty.decl.from, ty.decl.to)}\n\`\`\``, range };
      if (BUILTIN_TYPES.includes(name)) return { markdown: `built-in type \`${name}\``, range };
      const param = parameterType(node, name);
      if (param !== undefined) return { markdown: `\`\`\`yao\n${name} : ${param}\n\`\`\`\nparameter`, range };
    }
    const typed = innermostTyped(state.analysis, path, doc, offset);
    if (typed !== undefined) {
      const what =
        typed.kind.op === "bind"
          ? `${typed.kind.name} : ${displayType(typed.kind.value.ty)}`
          : `${displayType(typed.ty)}`;
      const effects = typed.effects.length > 0 ? `\n\neffects: ${displayEffects(typed.effects)}` : "";
      return { markdown: `\`\`\`yao\n${what}\n\`\`\`${effects}`, range };
    }
    return undefined;
  }

  // ---- completion ---------------------------------------------------------------------------

  async completion(path: string, position?: LspPosition): Promise<CompletionInfo[]> {
    if (position !== undefined) {
      // What fits at the cursor, from a tolerant read (src/lsp/completion.ts), so an unclosed list
      // while typing keeps the package's own names.
      const doc = await this.document(path);
      const state = await this.state(path);
      // A directory package is listed too: it does not load while a list is unclosed, and then
      // state.files holds only this file, not the other files' functions.
      const owner = await this.ownerOf(path);
      const listed = owner.kind === "hns" && owner.root !== path ? await listedYaoFiles(this.fs, owner.root) : [];
      const others: string[] = [];
      for (const f of new Set([...state.files, ...listed])) if (f !== path) others.push((await this.document(f)).text);
      return completeAt(doc.text, doc.lines.offsetAt(position), others);
    }
    const out: CompletionInfo[] = [];
    for (const op of OPERATORS.values())
      out.push({ label: op.name, kind: "operator", detail: `${op.form} — ${op.type}` });
    for (const k of ARTIFACT_KEYWORDS) out.push({ label: k, kind: "keyword", detail: "artifact or clause keyword" });
    for (const [name, fn] of await this.functionDefinitions(path)) {
      const params = (fn.form.items.find((i) => headOf(i) === "params")?.items.slice(1) ?? [])
        .map((p) => symbolName(p.items[0]))
        .filter((p) => p !== undefined);
      out.push({
        label: name,
        kind: "function",
        detail: interfaceText(fn.form, fn.doc),
        snippet: `${name}${params.map((p, i) => ` (${p} $${i + 1})`).join("")}`,
      });
    }
    for (const t of BUILTIN_TYPES) out.push({ label: t, kind: "type", detail: "built-in type" });
    for (const [name, ty] of await this.typeDefinitions(path)) {
      out.push({ label: name, kind: "type", detail: ty.doc.text.slice(ty.decl.from, ty.decl.to) });
      if (headOf(ty.decl) === "record") {
        for (const field of ty.decl.items.slice(2)) {
          const f = symbolName(field.items[0]);
          if (f !== undefined) out.push({ label: f, kind: "field", detail: `field of record ${name}` });
        }
      }
    }
    const state = await this.state(path);
    for (const tool of state.pkg?.manifest.tools ?? [])
      out.push({ label: tool, kind: "tool", detail: "tool declared in the manifest" });
    return out;
  }
}

/** Every Yao file of a loaded package (the single file, or the directory's metadata, entry and functions). */
function packageFiles(pkg: HnsPackage, root: string): string[] {
  if (pkg.entry.file === root) return [root];
  const files = new Set<string>();
  for (const name of HNS_METADATA_FILES) files.add(joinPath(root, name));
  files.add(pkg.entry.file);
  for (const f of pkg.functions) files.add(f.file);
  return [...files];
}

function typeSymbols(types: YNode, range: (n: YNode) => LspRange): SymbolInfo[] {
  return types.items.slice(1).flatMap((decl) => {
    const nameNode = decl.items[1];
    const name = symbolName(nameNode);
    if (name === undefined) return [];
    const kind = headOf(decl) === "record" ? ("struct" as const) : ("enum" as const);
    return [
      {
        name,
        detail: headOf(decl) ?? "type",
        kind,
        range: range(decl),
        selectionRange: range(nameNode!),
        children: [],
      },
    ];
  });
}

/** Is this symbol the name a binder introduces (a bind name, a parameter, a map element)? */
function isBinderSite(n: YNode): boolean {
  const p = n.parent;
  if (p === undefined) return false;
  if (headOf(p) === "bind" && n.index === 1) return true;
  if (headOf(p) === "map" && n.index === 2) return true;
  return n.index === 0 && headOf(p.parent) === "params";
}

/**
 * The binder node (the name symbol in `(bind NAME …)`, `(params (NAME T))`, `(map C NAME …)`) a
 * use of `name` refers to, by the scope rules of §5.3: a bind is visible to the later steps of its
 * seq, a map element inside the map's body, a parameter inside its function.
 */
function bindingOf(use: YNode, name: string): YNode | undefined {
  if (isBinderSite(use)) return undefined;
  let child = use;
  for (let p = use.parent; p !== undefined; child = p, p = p.parent) {
    const head = headOf(p);
    if (head === "seq") {
      for (let i = child.index - 1; i >= 1; i--) {
        const step = p.items[i]!;
        if (headOf(step) === "bind" && symbolName(step.items[1]) === name) return step.items[1];
      }
    } else if (head === "map" && child.index === 3 && symbolName(p.items[2]) === name) {
      return p.items[2];
    } else if (head === "fn") {
      const params = p.items.find((i) => headOf(i) === "params");
      for (const param of params?.items.slice(1) ?? []) if (symbolName(param.items[0]) === name) return param.items[0];
    }
  }
  return undefined;
}

/** The declared type of a parameter (as written), for hover on a parameter or its use. */
function parameterType(node: YNode, name: string): string | undefined {
  const binder = isBinderSite(node) ? node : bindingOf(node, name);
  if (binder === undefined || headOf(binder.parent?.parent) !== "params") return undefined;
  const ty = binder.parent!.items[1];
  return ty === undefined ? undefined : ty.node.kind === "symbol" ? ty.node.name : canonical(ty);
}

function canonical(n: YNode): string {
  if (n.node.kind === "symbol") return n.node.name;
  if (n.node.kind === "string") return JSON.stringify(n.node.value);
  return `(${n.items.map(canonical).join(" ")})`;
}

function interfaceText(form: YNode, doc: YaoDocument): string {
  try {
    return interfaceSource(form.node);
  } catch {
    return doc.text.slice(form.from, form.to);
  }
}

function functionHover(form: YNode, doc: YaoDocument, analysis: AnalysisResult | undefined, name: string): string {
  const parts = [`\`\`\`yao\n${interfaceText(form, doc)}\n\`\`\``];
  const description = form.items.find((i) => headOf(i) === "description")?.items[1];
  if (description?.node.kind === "string") parts.push(description.node.value);
  const compiled = analysis?.functions?.get(name);
  if (compiled !== undefined) {
    parts.push(
      `\`${name}\` : (${compiled.params.map((p) => `${p.name}: ${displayType(p.ty)}`).join(", ")}) → ${displayType(compiled.returns)}`,
    );
    parts.push(`effects: ${displayEffects(compiled.body.effects)}; ${compiled.visibility}`);
  }
  return parts.join("\n\n");
}

function toolHover(name: string): string {
  // `yaoc check` binds manifest tools without input schemas, so each is dynamic (HNS §9.4).
  return `tool \`${name}\` (declared in the manifest)\n\ninput schema: none bound — a dynamic tool: named arguments of any type, result \`Json\`; effect \`(tool ${name})\``;
}

/** The innermost typed-IR node of this file whose span holds `offset` (function bodies and the entry). */
function innermostTyped(
  analysis: AnalysisResult | undefined,
  path: string,
  doc: YaoDocument,
  offset: number,
): HirExpr | undefined {
  if (analysis === undefined) return undefined;
  const roots: HirExpr[] = [];
  if (analysis.program) roots.push(analysis.program.body);
  for (const f of analysis.functions?.values() ?? []) roots.push(f.body);
  const bytes = byteOffset(doc.text, offset);
  let best: HirExpr | undefined;
  const visit = (e: HirExpr): void => {
    const file = (e.span as { file?: string }).file;
    if ((file === undefined || file === path) && e.span.start.byte <= bytes && bytes <= e.span.end.byte) {
      if (best === undefined || e.span.end.byte - e.span.start.byte <= best.span.end.byte - best.span.start.byte)
        best = e;
    }
    for (const c of typedChildren(e)) visit(c);
  };
  roots.forEach(visit);
  return best;
}

/** Children of a typed-IR node, not descending into a callee's linked body (it belongs to the callee). */
function typedChildren(e: HirExpr): HirExpr[] {
  const k = e.kind;
  switch (k.op) {
    case "function_application":
      return k.arguments.flatMap((a) => [...a.values]);
    case "list":
    case "seq":
      return [...(k.op === "list" ? k.elements : k.steps)];
    case "dict":
    case "record":
    case "variant":
      return k.op === "dict" ? k.entries.map((e2) => e2[1]) : k.fields.map((f) => f[1]);
    default: {
      const out: HirExpr[] = [];
      for (const v of Object.values(k)) {
        if (isHir(v)) out.push(v);
        else if (Array.isArray(v))
          for (const x of v) {
            if (isHir(x)) out.push(x);
            else if (x !== null && typeof x === "object")
              for (const y of Object.values(x)) {
                if (isHir(y)) out.push(y);
                else if (Array.isArray(y)) for (const z of y) if (isHir(z)) out.push(z);
              }
          }
      }
      return out;
    }
  }
}

function isHir(v: unknown): v is HirExpr {
  return v !== null && typeof v === "object" && "kind" in v && "ty" in v && "span" in v;
}

function byteOffset(text: string, index: number): number {
  let b = 0;
  for (let i = 0; i < index; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) b += 1;
    else if (c < 0x800) b += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      b += 4;
      i++;
    } else b += 3;
  }
  return b;
}

function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}
