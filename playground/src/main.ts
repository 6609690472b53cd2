/**
 * The yaoc playground: edit a package in the browser and see what `yaoc check` says, as you type.
 * Everything runs in the page on the browser bundle of the core (`check` over a `MemoryFs`); the
 * page needs nothing but a static file server.
 */
import { closeBrackets, closeBracketsKeymap, completionKeymap } from "@codemirror/autocomplete";
import { defaultKeymap, history as editHistory, historyKeymap } from "@codemirror/commands";
import { bracketMatching, defaultHighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { lintGutter, setDiagnostics, type Diagnostic as CmDiagnostic } from "@codemirror/lint";
import { EditorState, StateEffect, StateField, type Text } from "@codemirror/state";
import { Decoration, type DecorationSet, EditorView, keymap, lineNumbers } from "@codemirror/view";
import { examples } from "yaoc-playground:examples";
import { available as fmtAvailable, formatSource } from "yaoc-playground:fmt";
import {
  analyzeModule,
  check,
  evaluationProfile,
  loadPackage,
  MemoryFs,
  morphzProfile,
  programJson,
  sharedTypes,
  toolsFromManifest,
  type Diagnostic,
  type HnsPackage,
  type PackageCheckResult,
  type Span,
} from "../../src/index.js";
import type { YaoProgram } from "../../ir/yao-ir-0.1.js";
import { highlightFile } from "../../src/lsp/highlight.js";
import { editorFeatures } from "./editor-features.js";
import { showIr } from "./ir-view.js";
import { RunPanel } from "./run.js";
import { decodeFragment, encodeFragment, type PlaygroundPackage } from "./share.js";
import { yaoLanguage } from "./yao-language.js";

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

/** The package being edited; `files[""]` is the text of a single-file package. */
let pkg: PlaygroundPackage = { name: "", files: {} };
let current = "";
let checkGeneration = 0;
let lastResult: PackageCheckResult | undefined;
/** Bumped on every change of the package's text, so hover never answers from an older text. */
let revision = 0;
/** The typed IR of the last valid HNS check, what Run evaluates. */
let runnable: YaoProgram | undefined;
/** The package `runnable` is the entry of: a model-written program is admitted against it, as `yaoc run` does. */
let runnablePackage: HnsPackage | undefined;
const runPanel = new RunPanel($("tab-run"));

const isYao = (file: string): boolean => /\.(hns|yao)$/.test(file === "" ? pkg.name : file);
/** The path of a package file in packageFs (and the language server's workspace). */
const pathOf = (p: PlaygroundPackage, file: string): string => (file === "" ? `/${p.name}` : `/${p.name}/${file}`);

/**
 * Semantic highlighting: the language server's classification (src/lsp/semantic-tokens.ts, through
 * src/lsp/highlight.ts) as `cm-yao-TYPE` marks over the stream grammar's colours, recomputed after
 * each check and mapped through edits until the next one.
 */
const setSemantic = StateEffect.define<DecorationSet>();
const semanticField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, tr) {
    for (const e of tr.effects) if (e.is(setSemantic)) return e.value;
    return tr.docChanged ? marks.map(tr.changes) : marks;
  },
  provide: (f) => EditorView.decorations.from(f),
});

const view = new EditorView({
  parent: $("editor"),
  state: EditorState.create({ doc: "", extensions: editorExtensions() }),
});

async function showSemantic(snapshot: PlaygroundPackage, file: string, generation: number): Promise<void> {
  // Yao sources only: the other packages' files are JSON, ACL or Markdown.
  if (!/\.(hns|yao)$/.test(file === "" ? snapshot.name : file)) return;
  const path = pathOf(snapshot, file);
  const tokens = await highlightFile(packageFs(snapshot), path);
  // Only onto the text it was computed from.
  if (generation !== checkGeneration || file !== current || view.state.doc.toString() !== snapshot.files[file]) return;
  const marks = tokens
    .filter((t) => t.to > t.from)
    .map((t) =>
      Decoration.mark({
        class: `cm-yao-${t.type}${t.declaration ? " cm-yao-declaration" : ""}${t.builtin ? " cm-yao-builtin" : ""}`,
      }).range(t.from, t.to),
    );
  view.dispatch({ effects: setSemantic.of(Decoration.set(marks, true)) });
}

function editorExtensions() {
  return [
    semanticField,
    lineNumbers(),
    editHistory(),
    bracketMatching(),
    yaoLanguage,
    syntaxHighlighting(defaultHighlightStyle),
    lintGutter(),
    // Typed `(` and `"` get their closing partner (the language data of yao-language.ts).
    closeBrackets(),
    editorFeatures({
      currentPath: () => (isYao(current) ? pathOf(pkg, current) : undefined),
      otherTexts: () =>
        Object.entries(pkg.files)
          .filter(([name]) => name !== current && isYao(name))
          .map(([, text]) => text),
      packageFs: () => packageFs(pkg),
      revision: () => revision,
    }),
    keymap.of([...closeBracketsKeymap, ...completionKeymap, ...defaultKeymap, ...historyKeymap]),
    EditorView.updateListener.of((u) => {
      if (!u.docChanged) return;
      revision++;
      pkg = { ...pkg, files: { ...pkg.files, [current]: u.state.doc.toString() } };
      scheduleCheck();
    }),
  ];
}

let timer: ReturnType<typeof setTimeout> | undefined;
function scheduleCheck(): void {
  clearTimeout(timer);
  timer = setTimeout(() => void runCheck(), 150);
}

/** The in-memory file system `check` reads: the package at `/<name>`. */
function packageFs(p: PlaygroundPackage): MemoryFs {
  const entries: Record<string, string> = {};
  for (const [rel, text] of Object.entries(p.files)) entries[rel === "" ? `/${p.name}` : `/${p.name}/${rel}`] = text;
  return MemoryFs.from(entries);
}

/** The editor file a diagnostic points into ("" for a single file), or undefined. */
function fileOf(d: Diagnostic): string | undefined {
  const f = d.file;
  if (f === undefined) return undefined;
  for (const candidate of [f, f.replace(/^\//, "")]) {
    if (candidate === pkg.name && "" in pkg.files) return "";
    if (candidate.startsWith(`${pkg.name}/`)) return candidate.slice(pkg.name.length + 1);
    if (candidate in pkg.files) return candidate;
  }
  return undefined;
}

/** Offset in the editor of a (one-based line, one-based column in Unicode scalars) position. */
function offsetOf(doc: Text, line: number, column: number): number {
  const l = doc.line(Math.min(Math.max(line, 1), doc.lines));
  let offset = l.from;
  let scalars = 1;
  for (const ch of l.text) {
    if (scalars >= column) break;
    offset += ch.length;
    scalars++;
  }
  return offset;
}

async function runCheck(): Promise<void> {
  const generation = ++checkGeneration;
  const snapshot = pkg;
  const result = await check(packageFs(snapshot), snapshot.name);
  if (generation !== checkGeneration) return; // a newer edit has already been checked
  lastResult = result;
  void showSemantic(snapshot, current, generation);
  showDiagnostics(result);
  showOutputs(snapshot, result);
  const verdict = $("verdict");
  verdict.dataset["state"] = result.valid ? "valid" : "invalid";
  verdict.dataset["generation"] = String(generation);
  verdict.textContent = result.valid ? `valid (${result.kind})` : `invalid (${result.kind})`;
}

function showDiagnostics(result: PackageCheckResult): void {
  const list = $("diagnostics");
  list.replaceChildren();
  $("diagnostic-count").textContent = `(${result.diagnostics.length})`;
  const inline: CmDiagnostic[] = [];
  const doc = view.state.doc;
  for (const d of result.diagnostics) {
    const file = fileOf(d);
    const li = placeItem(file, d.span);
    li.className = d.severity;
    li.dataset["code"] = d.code;
    if (file !== undefined) li.dataset["file"] = file;
    li.innerHTML = `<code></code> <strong></strong>: <span></span>`;
    li.children[0]!.textContent = placeText(file, d.file, d.span);
    li.children[1]!.textContent = `${d.severity}[${d.code}]`;
    li.children[2]!.textContent = d.message;
    // Related notes ("declared Int here") under the diagnostic, each going to its place; then help.
    if (d.related !== undefined && d.related.length > 0) {
      const notes = document.createElement("ul");
      notes.className = "related";
      for (const r of d.related) {
        const noteFile = r.file === undefined ? file : fileOf({ ...d, file: r.file });
        const note = placeItem(noteFile, r.span);
        note.textContent = `note: ${r.span === undefined ? "" : `${placeText(noteFile, r.file, r.span)}: `}${r.message}`;
        notes.append(note);
      }
      li.append(notes);
    }
    if (d.hint) {
      const help = document.createElement("span");
      help.className = "help";
      help.textContent = `help: ${d.hint}`;
      li.append(help);
    }
    list.append(li);
    if (file === current) {
      const from = d.span ? offsetOf(doc, d.span.start.line, d.span.start.column) : 0;
      let to = d.span ? offsetOf(doc, d.span.end.line, d.span.end.column) : Math.min(doc.length, doc.line(1).to);
      if (to <= from) to = Math.min(doc.length, from + 1);
      inline.push({
        from,
        to,
        severity: d.severity === "info" ? "info" : d.severity,
        message: `${d.code}: ${d.message}`,
        source: "yaoc",
      });
    }
  }
  view.dispatch(setDiagnostics(view.state, inline));
}

/** `file:line:column` of a place (the name as the diagnostic gave it, or the package's, when it is in no open file). */
function placeText(file: string | undefined, named: string | undefined, span: Span | undefined): string {
  const name = file === undefined || file === "" ? (named ?? pkg.name) : file;
  return span === undefined ? name : `${name}:${span.start.line}:${span.start.column}`;
}

/**
 * A list item for a place in the package, the one markup of the diagnostics list and of each
 * diagnostic's related notes: it carries the place's line and, clicked, opens its file there.
 */
function placeItem(file: string | undefined, span: Span | undefined): HTMLLIElement {
  const li = document.createElement("li");
  if (span !== undefined) li.dataset["line"] = String(span.start.line);
  li.addEventListener("click", (e) => {
    // A note is inside its diagnostic's item: the innermost place wins.
    e.stopPropagation();
    if (file === undefined) return;
    openFile(file);
    if (span)
      view.dispatch({
        selection: { anchor: offsetOf(view.state.doc, span.start.line, span.start.column) },
        scrollIntoView: true,
      });
    view.focus();
  });
  return li;
}

function showOutputs(p: PlaygroundPackage, result: PackageCheckResult): void {
  $("tab-identity").textContent = [
    `kind:         ${result.kind}`,
    `valid:        ${result.valid}`,
    `identity:     ${result.identity ?? "(none: the package is invalid)"}`,
    ...(result.extra?.["program_hash"] !== undefined
      ? [`program_hash: ${String(result.extra["program_hash"] ?? "(none)")}`]
      : []),
  ].join("\n");
  void showHnsViews(p, result);
  const text = p.files[current] ?? "";
  if (!fmtAvailable) $("tab-fmt").textContent = "formatter not available (yaoc fmt has not landed in this build)";
  else if (!/\.(hns|yao)$/.test(current === "" ? p.name : current))
    $("tab-fmt").textContent = "yaoc fmt formats Yao sources (.hns, .yao) only";
  else {
    const f = formatSource(text);
    $("tab-fmt").textContent = f.ok ? f.text : `cannot format: ${f.diagnostic?.message ?? "invalid input"}`;
  }
}

/** Typed IR and evaluation profile, as `yaoc ir` and `yaoc profile` print them (HNS packages). */
async function showHnsViews(p: PlaygroundPackage, result: PackageCheckResult): Promise<void> {
  const ir = $("tab-ir");
  const profile = $("tab-profile");
  if (result.kind !== "hns" || !result.valid) {
    const why =
      result.kind !== "hns"
        ? `only HNS packages have a typed IR (this is ${result.kind})`
        : "the package is invalid; fix the diagnostics first";
    ir.textContent = why;
    profile.textContent = why;
    setRunnable(undefined, why);
    return;
  }
  const loaded = await loadPackage(packageFs(p), p.name);
  if (!loaded.ok) return;
  const h = loaded.package;
  const analysis = analyzeModule({
    entry: h.entry.form,
    functions: h.functions,
    allowInternal: true,
    profile: morphzProfile(toolsFromManifest(h.manifest.tools).tools),
  });
  if (analysis.program) showIr(ir, programJson(analysis.program));
  else ir.textContent = analysis.diagnostics.map((d) => d.message).join("\n");
  setRunnable(analysis.program, "the program has no typed IR", h);
  profile.textContent = evaluationProfile(
    sharedTypes(h)[0],
    h.functions.map((f) => f.form),
  );
}

/** Run is possible exactly when the last check gave a typed IR; a new one abandons an old run. */
function setRunnable(program: YaoProgram | undefined, why: string, pkg?: HnsPackage): void {
  if (program === runnable && program !== undefined) return;
  runnable = program;
  runnablePackage = pkg;
  $<HTMLButtonElement>("run").disabled = program === undefined;
  runPanel.unavailable(program === undefined ? `nothing to run: ${why}` : "press Run to evaluate the program");
}

function selectTab(name: string): void {
  for (const t of document.querySelectorAll<HTMLButtonElement>("#tabs [role=tab]"))
    t.setAttribute("aria-selected", String(t.dataset["tab"] === name));
  for (const panel of document.querySelectorAll<HTMLElement>(".tab")) panel.hidden = panel.dataset["tab"] !== name;
}

function setUpRun(): void {
  $("run").addEventListener("click", () => {
    if (runnable === undefined) return;
    runPanel.run(runnable, runnablePackage);
    selectTab("run");
  });
}

function renderTree(): void {
  const tree = $("file-tree");
  tree.replaceChildren();
  const names = Object.keys(pkg.files).sort();
  const root = document.createElement("li");
  root.className = "dir";
  root.textContent = "" in pkg.files ? "(single file)" : `${pkg.name}/`;
  tree.append(root);
  for (const name of names) {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = name === "" ? pkg.name : name;
    button.dataset["file"] = name;
    if (name === current) button.setAttribute("aria-current", "true");
    button.addEventListener("click", () => openFile(name));
    li.append(button);
    tree.append(li);
  }
}

function openFile(name: string): void {
  if (!(name in pkg.files)) return;
  current = name;
  view.setState(EditorState.create({ doc: pkg.files[name], extensions: editorExtensions() }));
  renderTree();
  if (lastResult) {
    showDiagnostics(lastResult);
    showOutputs(pkg, lastResult);
  }
}

function loadPackageIntoPage(p: PlaygroundPackage): void {
  pkg = p;
  revision++;
  const names = Object.keys(p.files).sort();
  current =
    "" in p.files
      ? ""
      : (names.find((n) => /manifest\.yao$|surface\.json$|harp\.json$|\.acl$/.test(n)) ?? names[0] ?? "");
  lastResult = undefined;
  openFile(current);
  void runCheck();
}

function setUpExamples(): void {
  const select = $<HTMLSelectElement>("examples");
  const placeholder = new Option("choose…", "");
  select.append(placeholder);
  for (const e of examples) select.append(new Option(e.label, e.name));
  select.addEventListener("change", () => {
    const e = examples.find((x) => x.name === select.value);
    if (e) {
      history.replaceState(null, "", location.pathname + location.search);
      loadPackageIntoPage({ name: e.name, files: { ...e.files } });
    }
  });
}

function setUpTabs(): void {
  for (const tab of document.querySelectorAll<HTMLButtonElement>("#tabs [role=tab]")) {
    tab.addEventListener("click", () => selectTab(tab.dataset["tab"] ?? "identity"));
  }
}

function setUpShare(): void {
  $("share").addEventListener("click", async () => {
    const fragment = await encodeFragment(pkg);
    history.replaceState(null, "", `#${fragment}`);
    $("share-status").textContent = "address updated: copy it to share this package";
  });
}

async function start(): Promise<void> {
  setUpExamples();
  setUpTabs();
  setUpShare();
  setUpRun();
  const fromFragment = location.hash.length > 1 ? await decodeFragment(location.hash.slice(1)) : undefined;
  if (location.hash.length > 1 && fromFragment === undefined)
    $("share-status").textContent = "the address holds no readable package; showing an example";
  loadPackageIntoPage(fromFragment ?? { name: examples[0]!.name, files: { ...examples[0]!.files } });
  (window as unknown as { yaocPlayground: unknown }).yaocPlayground = {
    view,
    examples,
    get package() {
      return pkg;
    },
  };
}

void start();
