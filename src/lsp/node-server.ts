/**
 * `yaoc lsp`: the language server over stdio (Node adapter). It wires the LSP transport
 * (vscode-languageserver) to the browser-safe Workspace: documents are mirrored into an overlay of
 * the file system, every change re-checks the document's whole package after a short debounce, and
 * diagnostics are published for every file of that package.
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  CompletionItemKind,
  createConnection,
  DiagnosticSeverity,
  DocumentSymbol,
  InsertTextFormat,
  ProposedFeatures,
  SymbolKind,
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
  type Diagnostic as LspDiagnostic,
} from "vscode-languageserver/node.js";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { NodeFs } from "../fs/node-fs.js";
import { TextLines } from "./yao-document.js";
import { Workspace, type CompletionInfo, type SymbolInfo } from "./workspace.js";

/** Re-check this long after the last keystroke (typing bursts cost one check). */
export const DEBOUNCE_MS = 150;

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

export function runLanguageServer(connection: Connection = createConnection(ProposedFeatures.all, process.stdin, process.stdout)): void {
  const documents = new TextDocuments(TextDocument);
  const workspace = new Workspace(new NodeFs());
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Files we published diagnostics for, per package root (so fixed files get cleared). */
  const published = new Map<string, Set<string>>();

  const publish = async (path: string): Promise<void> => {
    const check = await workspace.check(path);
    const previous = published.get(check.owner.root) ?? new Set<string>();
    const now = new Set<string>();
    for (const [file, diagnostics] of check.diagnostics) {
      const doc = await workspace.document(file);
      void connection.sendDiagnostics({ uri: toUri(file), diagnostics: diagnostics.map((d) => toLspDiagnostic(d, doc.lines)) });
      now.add(file);
    }
    for (const file of previous) if (!now.has(file)) void connection.sendDiagnostics({ uri: toUri(file), diagnostics: [] });
    published.set(check.owner.root, now);
  };

  const schedule = (uri: string, delay: number): void => {
    const path = toPath(uri);
    clearTimeout(timers.get(path));
    timers.set(
      path,
      setTimeout(() => {
        timers.delete(path);
        publish(path).catch((e: unknown) => connection.console.error(`yaoc lsp: check failed: ${e instanceof Error ? e.message : String(e)}`));
      }, delay),
    );
  };

  connection.onInitialize(() => ({
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      hoverProvider: true,
      definitionProvider: true,
      referencesProvider: true,
      documentSymbolProvider: true,
      foldingRangeProvider: true,
      documentFormattingProvider: true,
      completionProvider: { triggerCharacters: ["("] },
    },
    serverInfo: { name: "yaoc" },
  }));

  documents.onDidOpen((e) => {
    workspace.open(toPath(e.document.uri), e.document.getText());
    schedule(e.document.uri, 0);
  });
  documents.onDidChangeContent((e) => {
    workspace.open(toPath(e.document.uri), e.document.getText());
    schedule(e.document.uri, DEBOUNCE_MS);
  });
  documents.onDidClose((e) => {
    workspace.close(toPath(e.document.uri));
    schedule(e.document.uri, 0);
  });

  connection.onHover(async (p) => {
    const h = await workspace.hover(toPath(p.textDocument.uri), p.position);
    return h === undefined ? null : { contents: { kind: "markdown", value: h.markdown }, ...(h.range ? { range: h.range } : {}) };
  });
  connection.onDefinition(async (p) => (await workspace.definition(toPath(p.textDocument.uri), p.position)).map((l) => ({ uri: toUri(l.path), range: l.range })));
  connection.onReferences(async (p) =>
    (await workspace.references(toPath(p.textDocument.uri), p.position, p.context.includeDeclaration)).map((l) => ({ uri: toUri(l.path), range: l.range })),
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

  documents.listen(connection);
  connection.listen();
}

function toDocumentSymbol(s: SymbolInfo): DocumentSymbol {
  return DocumentSymbol.create(s.name, s.detail, SYMBOL_KINDS[s.kind], s.range, s.selectionRange, s.children.map(toDocumentSymbol));
}

export function toLspDiagnostic(d: Diagnostic, lines: TextLines): LspDiagnostic {
  const range = d.span ? lines.rangeOfSpan(d.span) : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const severity = d.severity === "error" ? DiagnosticSeverity.Error : d.severity === "warning" ? DiagnosticSeverity.Warning : DiagnosticSeverity.Information;
  const extra = [d.pointer !== undefined ? `at JSON pointer ${d.pointer}` : undefined, d.hint !== undefined ? `help: ${d.hint}` : undefined].filter((x) => x !== undefined);
  return {
    range,
    severity,
    code: d.code,
    codeDescription: { href: DOCS_URL },
    source: "yaoc",
    message: [d.message, ...extra].join("\n"),
    relatedInformation: (d.related ?? [])
      .filter((r) => r.file !== undefined || d.file !== undefined)
      .map((r) => ({
        location: { uri: toUri(r.file ?? d.file!), range: r.span ? lines.rangeOfSpan(r.span) : range },
        message: r.message,
      })),
  };
}
