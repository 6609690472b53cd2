/**
 * `yaoc lsp`: the language server over stdio (Node adapter). It wires the LSP transport
 * (vscode-languageserver) to the browser-safe Workspace: documents are mirrored into an overlay of
 * the (cached) file system, every change re-checks the document's whole package as soon as the
 * server is idle (CheckScheduler: no fixed delay, bursts coalesced, overtaken checks discarded),
 * and diagnostics are published for the files of that package whose diagnostics or text changed.
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  CompletionItemKind,
  createConnection,
  DiagnosticSeverity,
  DidChangeWatchedFilesNotification,
  DocumentSymbol,
  InsertTextFormat,
  ProposedFeatures,
  SymbolKind,
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
  type InitializeParams,
  type Diagnostic as LspDiagnostic,
  type PublishDiagnosticsParams,
} from "vscode-languageserver/node.js";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { NodeFs } from "../fs/node-fs.js";
import { isWithin } from "../fs/paths.js";
import { CheckScheduler, type ScheduledCheck } from "./check-scheduler.js";
import { EDITOR_CAPABILITIES, registerEditorFeatures } from "./node-editor-features.js";
import type { TextLines } from "./yao-document.js";
import { Workspace, type CompletionInfo, type SymbolInfo } from "./workspace.js";

const DOCS_URL = pathToFileURL(fileURLToPath(new URL("../../../docs/diagnostics.md", import.meta.url))).href;

const SYMBOL_KINDS: Record<SymbolInfo["kind"], SymbolKind> = {
  module: SymbolKind.Module,
  function: SymbolKind.Function,
  struct: SymbolKind.Struct,
  enum: SymbolKind.Enum,
  field: SymbolKind.Field,
  event: SymbolKind.Event,
  object: SymbolKind.Object,
};

const COMPLETION_KINDS: Record<CompletionInfo["kind"], CompletionItemKind> = {
  operator: CompletionItemKind.Operator,
  function: CompletionItemKind.Function,
  type: CompletionItemKind.Class,
  field: CompletionItemKind.Field,
  tool: CompletionItemKind.Interface,
  keyword: CompletionItemKind.Keyword,
};

function toPath(uri: string): string {
  return uri.startsWith("file:") ? fileURLToPath(uri) : uri;
}

function toUri(path: string): string {
  return path.startsWith("/") ? pathToFileURL(path).href : path;
}

export function runLanguageServer(
  connection: Connection = createConnection(ProposedFeatures.all, process.stdin, process.stdout),
): void {
  const documents = new TextDocuments(TextDocument);
  const workspace = new Workspace(new NodeFs());
  /** The editor's URI of each open document, by path (publishing uses the client's spelling). */
  const uris = new Map<string, string>();
  /**
   * Per package root: what was last published for each of its files (the diagnostics as JSON and
   * the document version), and the file whose change last checked it (to check it again when the
   * disk changes).
   */
  const published = new Map<
    string,
    { readonly trigger: string; readonly files: Map<string, { json: string; version: number | undefined }> }
  >();
  /** The client reports changes on disk; until then, everything read from disk is forgotten before each check. */
  let watching = false;
  let canWatch = false;
  let initializeParams: InitializeParams | undefined;

  /** Check the package of `path` and prepare (not send) what changed since the last publication. */
  const checkPackage = async (path: string): Promise<ScheduledCheck> => {
    if (!watching) workspace.forgetDisk();
    const check = await workspace.check(path);
    const root = check.owner.root;
    const previous = published.get(root)?.files ?? new Map<string, { json: string; version: number | undefined }>();
    const files = new Map<string, { json: string; version: number | undefined }>();
    const messages: PublishDiagnosticsParams[] = [];
    for (const [file, diagnostics] of check.diagnostics) {
      const uri = uris.get(file) ?? toUri(file);
      const version = documents.get(uri)?.version;
      // A file without diagnostics needs no line table (building one for 256 KiB costs a few ms).
      const lines = diagnostics.length === 0 ? undefined : (await workspace.document(file)).lines;
      const lsp = lines === undefined ? [] : diagnostics.map((d) => toLspDiagnostic(d, lines));
      const json = JSON.stringify(lsp);
      files.set(uri, { json, version });
      const last = previous.get(uri);
      // Files whose diagnostics and text are as last published are not sent again.
      if (last !== undefined && last.json === json && last.version === version) continue;
      messages.push(version === undefined ? { uri, diagnostics: lsp } : { uri, version, diagnostics: lsp });
    }
    for (const uri of previous.keys()) if (!files.has(uri)) messages.push({ uri, diagnostics: [] });
    return {
      root,
      covers: (file) => check.diagnostics.has(file),
      publish: () => {
        published.set(root, { trigger: path, files });
        for (const m of messages) void connection.sendDiagnostics(m);
      },
    };
  };

  const scheduler = new CheckScheduler(
    checkPackage,
    (run) => setImmediate(run),
    (path, e) =>
      connection.console.error(`yaoc lsp: check of ${path} failed: ${e instanceof Error ? e.message : String(e)}`),
  );

  connection.onInitialize((params) => {
    canWatch = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    initializeParams = params;
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        documentSymbolProvider: true,
        foldingRangeProvider: true,
        documentFormattingProvider: true,
        completionProvider: { triggerCharacters: ["("] },
        ...EDITOR_CAPABILITIES,
      },
      serverInfo: { name: "yaoc" },
    };
  });

  connection.onInitialized(() => {
    if (!canWatch) return;
    // Every file: a package may read any file below its root (HARP and HCP packages do).
    connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: "**/*" }] }).then(
      () => {
        watching = true;
      },
      (e: unknown) =>
        connection.console.warn(
          `yaoc lsp: could not watch files, re-reading the disk on every check: ${e instanceof Error ? e.message : String(e)}`,
        ),
    );
  });

  // onDidChangeContent fires for didOpen and every didChange.
  documents.onDidChangeContent((e) => {
    const path = toPath(e.document.uri);
    uris.set(path, e.document.uri);
    workspace.open(path, e.document.getText());
    scheduler.changed(path);
  });
  documents.onDidClose((e) => {
    const path = toPath(e.document.uri);
    uris.delete(path);
    workspace.close(path);
    // The file on disk may differ from what was cached before it was opened.
    workspace.diskChanged(path);
    scheduler.changed(path);
  });
  documents.onDidSave((e) => workspace.diskChanged(toPath(e.document.uri)));
  connection.onDidChangeWatchedFiles((p) => {
    const changed = p.changes.map((c) => toPath(c.uri));
    for (const path of changed) workspace.diskChanged(path);
    // Re-check every published package the change lies in (or that lies in a changed directory).
    const affected: string[] = [];
    for (const [root, { trigger }] of published)
      if (changed.some((c) => isWithin(root, c) || isWithin(c, root))) affected.push(trigger);
    scheduler.diskChanged(affected);
  });

  connection.onHover(async (p) => {
    const h = await workspace.hover(toPath(p.textDocument.uri), p.position);
    return h === undefined
      ? null
      : { contents: { kind: "markdown", value: h.markdown }, ...(h.range ? { range: h.range } : {}) };
  });
  connection.onDefinition(async (p) =>
    (await workspace.definition(toPath(p.textDocument.uri), p.position)).map((l) => ({
      uri: toUri(l.path),
      range: l.range,
    })),
  );
  connection.onReferences(async (p) =>
    (await workspace.references(toPath(p.textDocument.uri), p.position, p.context.includeDeclaration)).map((l) => ({
      uri: toUri(l.path),
      range: l.range,
    })),
  );
  connection.onDocumentSymbol(async (p) => (await workspace.symbols(toPath(p.textDocument.uri))).map(toDocumentSymbol));
  connection.onFoldingRanges(async (p) => workspace.foldingRanges(toPath(p.textDocument.uri)));
  connection.onCompletion(async (p) =>
    (await workspace.completion(toPath(p.textDocument.uri))).map((c) => ({
      label: c.label,
      kind: COMPLETION_KINDS[c.kind],
      detail: c.detail,
      ...(c.snippet ? { insertText: c.snippet, insertTextFormat: InsertTextFormat.Snippet } : {}),
    })),
  );
  connection.onDocumentFormatting(async (p) => {
    const path = toPath(p.textDocument.uri);
    const doc = await workspace.document(path);
    const formatted = await workspace.format(path);
    if (formatted === undefined || formatted === doc.text) return [];
    return [{ range: doc.lines.range(0, doc.text.length), newText: formatted }];
  });

  registerEditorFeatures(
    {
      connection,
      workspace,
      toPath,
      toUri: (path) => uris.get(path) ?? toUri(path),
      versionOf: (uri) => documents.get(uri)?.version,
      toLspDiagnostic,
    },
    () => initializeParams,
  );

  documents.listen(connection);
  connection.listen();
}

function toDocumentSymbol(s: SymbolInfo): DocumentSymbol {
  return DocumentSymbol.create(
    s.name,
    s.detail,
    SYMBOL_KINDS[s.kind],
    s.range,
    s.selectionRange,
    s.children.map(toDocumentSymbol),
  );
}

export function toLspDiagnostic(d: Diagnostic, lines: TextLines): LspDiagnostic {
  const range = d.span
    ? lines.rangeOfSpan(d.span)
    : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const severity =
    d.severity === "error"
      ? DiagnosticSeverity.Error
      : d.severity === "warning"
        ? DiagnosticSeverity.Warning
        : DiagnosticSeverity.Information;
  // The message is the diagnostic's own text; where it is (pointer) and how to fix it (help) are
  // notes at the primary range, as editors show them, and no absolute path is spelled out.
  const here = d.file === undefined ? undefined : { uri: toUri(d.file), range };
  const notes = [
    d.pointer !== undefined ? `at JSON pointer ${d.pointer}` : undefined,
    d.hint !== undefined ? `help: ${d.hint}` : undefined,
  ].filter((x) => x !== undefined);
  return {
    range,
    severity,
    code: d.code,
    codeDescription: { href: DOCS_URL },
    source: "yaoc",
    message: withoutAbsolutePaths(d.message, [d.file, ...(d.related ?? []).map((r) => r.file)]),
    relatedInformation: [
      ...(d.related ?? [])
        .filter((r) => r.file !== undefined || d.file !== undefined)
        .map((r) => ({
          location: { uri: toUri(r.file ?? d.file!), range: r.span ? lines.rangeOfSpan(r.span) : range },
          message: r.message,
        })),
      ...(here === undefined ? [] : notes.map((message) => ({ location: here, message }))),
    ],
  };
}

/**
 * A file path as a person reads it in a message: from the package (`pkg.hns/programs/main.yao`)
 * when one is on the path, else the file name; the editor already knows where the file is.
 */
export function shortPath(path: string): string {
  const parts = path.split("/");
  const pkg = parts.findLastIndex((p, i) => p.endsWith(".hns") && i < parts.length - 1);
  return pkg >= 0 ? parts.slice(pkg).join("/") : (parts.at(-1) ?? path);
}

function withoutAbsolutePaths(message: string, files: readonly (string | undefined)[]): string {
  let out = message;
  for (const f of files) if (f?.startsWith("/")) out = out.split(f).join(shortPath(f));
  return out;
}
