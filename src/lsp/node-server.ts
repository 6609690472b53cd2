/**
 * `yaoc lsp`: the language server over stdio (Node adapter). It wires the LSP transport
 * (vscode-languageserver) to the browser-safe Workspace: documents are mirrored into an overlay of
 * the (cached) file system, every change re-checks the document's whole package as soon as the
 * server is idle (CheckScheduler: no fixed delay, bursts coalesced, overtaken checks discarded),
 * and diagnostics are published for the files of that package whose diagnostics or text changed.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  type CancellationToken,
  CompletionItemKind,
  createConnection,
  ErrorCodes,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
  DiagnosticSeverity,
  DidChangeWatchedFilesNotification,
  DocumentSymbol,
  InsertTextFormat,
  ProposedFeatures,
  SymbolKind,
  TextDocuments,
  TextDocumentSyncKind,
  type CompletionParams,
  type Connection,
  type DefinitionParams,
  type DocumentFormattingParams,
  type DocumentSymbolParams,
  type FoldingRangeParams,
  type HoverParams,
  type InitializeParams,
  type ReferenceParams,
  type Diagnostic as LspDiagnostic,
  type PublishDiagnosticsParams,
} from "vscode-languageserver/node.js";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { formattedLimitError } from "../fmt/format.js";
import { NodeFs } from "../fs/node-fs.js";
import { dirName, isWithin } from "../fs/paths.js";
import { ConfinedFs } from "./confined-fs.js";
import { AFTER_SHUTDOWN_METHOD, FrameGuard } from "./node-frames.js";
import { cancelled, nextTurn, pauseFor } from "./node-pause.js";
import { packageView } from "./package-index.js";
import { REQUEST_SLICE } from "./pause.js";
import { CheckScheduler, type ScheduledCheck } from "./check-scheduler.js";
import { EDITOR_CAPABILITIES, registerEditorFeatures } from "./node-editor-features.js";
import type { TextLines, YaoDocument } from "./yao-document.js";
import type { SymbolIndex } from "./symbol-index.js";
import type { Pause } from "./pause.js";

/** Re-exported for the tests that size a long request by its slices. */
export { REQUEST_SLICE };

/** The locations of one symbol's occurrences, made for an index (src/lsp/node-server.ts, references). */
interface ReferenceList {
  readonly locations: { uri: string; range: ReturnType<TextLines["range"]> }[];
  /** Whether each location declares the symbol (left out when the client asks without declarations). */
  readonly declaration: boolean[];
  /** The URI each file was given, which must still be its URI for the list to be used again. */
  readonly uris: Map<string, string>;
}

/** Reference lists kept per symbol index, for the last symbols asked for (an index lives as long as its analysis). */
const referenceLists = new WeakMap<SymbolIndex, Map<string, ReferenceList>>();
const KEPT_REFERENCE_LISTS = 4;
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
  variable: CompletionItemKind.Variable,
};

/**
 * The local path a `file:` URI names, or an `InvalidParams` error for any other URI (another
 * scheme, a host, an encoded `/`, a NUL): never a thrown Node error with a stack trace.
 */
function toPath(uri: string): string {
  if (typeof uri !== "string" || !uri.startsWith("file:"))
    throw new ResponseError(ErrorCodes.InvalidParams, `only file: URIs are served, not ${String(uri).slice(0, 200)}`);
  try {
    const path = fileURLToPath(uri);
    if (path.includes("\0")) throw new Error("a NUL in the path");
    return path;
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));
    throw new ResponseError(ErrorCodes.InvalidParams, `${uri.slice(0, 200)} is not a local file URI (${why})`);
  }
}

/** The real path of `path`, or of its nearest existing parent joined with the rest; null when nothing resolves. */
function realPathOf(path: string): string | null {
  for (let at = path, rest = ""; ; ) {
    try {
      const real = realpathSync.native(at);
      return rest === "" ? real : `${real}/${rest}`;
    } catch {
      const parent = dirName(at);
      if (parent === at) return null;
      rest =
        rest === ""
          ? at.slice(parent.length + (parent.endsWith("/") ? 0 : 1))
          : `${at.slice(parent.length + 1)}/${rest}`;
      at = parent;
    }
  }
}

function toUri(path: string): string {
  return path.startsWith("/") ? pathToFileURL(path).href : path;
}

/** The stdio connection behind the frame guard; a broken pipe or a bad frame ends the process quietly. */
function stdioConnection(): Connection {
  const guard = new FrameGuard({
    malformed: (reason) => {
      process.stderr.write(
        `yaoc lsp: malformed message frame (${reason}); exiting so the editor can restart the server\n`,
      );
      process.exit(1);
    },
    exit: (afterShutdown) => process.exit(afterShutdown ? 0 : 1),
  });
  process.stdin.pipe(guard);
  // A client that went away (closed stdout) ends the server without a word on stdout or a stack trace.
  process.stdout.on("error", () => process.exit(0));
  process.on("uncaughtException", (e) => {
    process.stderr.write(`yaoc lsp: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
  return createConnection(
    ProposedFeatures.all,
    new StreamMessageReader(guard),
    new StreamMessageWriter(process.stdout),
  );
}

export function runLanguageServer(connection: Connection = stdioConnection()): void {
  const documents = new TextDocuments(TextDocument);
  const disk = new ConfinedFs(new NodeFs());
  const workspace = new Workspace(disk);
  /** Real paths of the workspace folders: the only part of the disk requests may read. */
  let folderRoots: string[] = [];
  /** Without workspace folders, each open document's package directory is its workspace. */
  let noFolders = true;
  const documentRoots = new Set<string>();
  const isInside = (path: string): boolean => {
    const real = realPathOf(path);
    if (real === null) return false;
    return folderRoots.some((r) => isWithin(r, real)) || [...documentRoots].some((r) => isWithin(r, real));
  };
  /**
   * The path of a request's document: an open document, or a file under a workspace folder after
   * every link is resolved. Anything else gets an error response, never its contents.
   */
  const requestPath = (uri: string): string => {
    const path = toPath(uri);
    if (documents.get(uri) !== undefined || uris.has(path) || isInside(path)) return path;
    throw new ResponseError(
      ErrorCodes.InvalidParams,
      `${path} is neither an open document nor under a workspace folder; the server does not read it`,
    );
  };
  /**
   * Let a queued `$/cancelRequest` arrive before the work starts, then honour it; a handler whose
   * work grows with the package (references) also gets the token, to stop between slices.
   */
  const cancellable =
    <P, R>(handler: (params: P, token: CancellationToken) => Promise<R>) =>
    async (params: P, token: CancellationToken): Promise<R> => {
      await nextTurn();
      if (token.isCancellationRequested) throw cancelled();
      return handler(params, token);
    };
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

  connection.onInitialize(async (params) => {
    canWatch = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    initializeParams = params;
    const folderUris = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
    const folders = folderUris.flatMap((u) => {
      try {
        return [toPath(u)];
      } catch {
        return [];
      }
    });
    noFolders = folders.length === 0;
    folderRoots = folders.flatMap((f) => {
      const real = realPathOf(f);
      return real === null ? [] : [real];
    });
    await disk.setRoots(folderRoots);
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

  /** The path of a document notification's URI, or undefined (logged) for a URI that names no local file. */
  const notifiedPath = (uri: string): string | undefined => {
    try {
      return toPath(uri);
    } catch (e) {
      connection.console.warn(`yaoc lsp: ignored a document: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
  };
  /** Without workspace folders, an open document's package (its `.hns` directory, else its directory) may be read. */
  const allowDocumentRoot = (path: string): void => {
    if (!noFolders) return;
    let root = dirName(path);
    for (let dir = root; dir !== "/" && dir !== "."; dir = dirName(dir))
      if (dir.endsWith(".hns")) {
        root = dir;
        break;
      }
    const real = realPathOf(root);
    if (real === null || documentRoots.has(real)) return;
    documentRoots.add(real);
    void disk.setRoots([...folderRoots, ...documentRoots]);
  };

  // onDidChangeContent fires for didOpen and every didChange.
  documents.onDidChangeContent((e) => {
    const path = notifiedPath(e.document.uri);
    if (path === undefined) return;
    uris.set(path, e.document.uri);
    allowDocumentRoot(path);
    workspace.open(path, e.document.getText());
    scheduler.changed(path);
  });
  documents.onDidClose((e) => {
    const path = notifiedPath(e.document.uri);
    if (path === undefined) return;
    uris.delete(path);
    workspace.close(path);
    // The file on disk may differ from what was cached before it was opened.
    workspace.diskChanged(path);
    scheduler.changed(path);
  });
  documents.onDidSave((e) => {
    const path = notifiedPath(e.document.uri);
    if (path !== undefined) workspace.diskChanged(path);
  });
  connection.onDidChangeWatchedFiles((p) => {
    const changed = p.changes.flatMap((c) => {
      const path = notifiedPath(c.uri);
      return path === undefined ? [] : [path];
    });
    for (const path of changed) workspace.diskChanged(path);
    // Re-check every published package the change lies in (or that lies in a changed directory).
    const affected: string[] = [];
    for (const [root, { trigger }] of published)
      if (changed.some((c) => isWithin(root, c) || isWithin(c, root))) affected.push(trigger);
    scheduler.diskChanged(affected);
  });
  connection.onRequest(AFTER_SHUTDOWN_METHOD, () => {
    throw new ResponseError(ErrorCodes.InvalidRequest, "the server is shut down: only exit is accepted");
  });

  connection.onHover(
    cancellable(async (p: HoverParams) => {
      const h = await workspace.hover(requestPath(p.textDocument.uri), p.position);
      return h === undefined
        ? null
        : { contents: { kind: "markdown" as const, value: h.markdown }, ...(h.range ? { range: h.range } : {}) };
    }),
  );
  connection.onDefinition(
    cancellable(async (p: DefinitionParams) =>
      (await workspace.definition(requestPath(p.textDocument.uri), p.position)).map((l) => ({
        uri: toUri(l.path),
        range: l.range,
      })),
    ),
  );
  // From the package's symbol index, built once per analysis: linear in the uses, never a walk per use.
  // The locations are made in slices with a turn of the event loop between them, so a cheap request
  // (a hover) sent meanwhile is answered between two slices, and a `$/cancelRequest` for this one
  // is honoured at the next slice instead of after the last. They are kept with the index for the
  // few symbols last asked for (`referenceLists`), so asking again — an editor does on every rest
  // of the cursor or code lens — makes no object per use: at 64,000 uses, making and collecting a
  // quarter of a million objects per request cost more than the answer's JSON.
  connection.onReferences(
    cancellable(async (p: ReferenceParams, token) => {
      const path = requestPath(p.textDocument.uri);
      const doc = await workspace.document(path);
      const pause = pauseFor(token);
      // The first request after an edit builds the index: in slices too, between its files.
      const { index, docs } = await packageView(workspace, path, pause);
      const at = index.at(path, doc.lines.offsetAt(p.position));
      if (at?.key === undefined) return [];
      if (token.isCancellationRequested) throw cancelled();
      const list = await referenceList(index, at.key, docs, pause);
      if (p.context.includeDeclaration) return list.locations;
      return list.locations.filter((_, i) => !list.declaration[i]);
    }),
  );
  /** The locations of `key`'s occurrences, made once per index and key while their files keep their URIs. */
  const referenceList = async (
    index: SymbolIndex,
    key: string,
    docs: readonly YaoDocument[],
    pause: Pause,
  ): Promise<ReferenceList> => {
    const kept = referenceLists.get(index) ?? referenceLists.set(index, new Map()).get(index)!;
    const last = kept.get(key);
    if (last !== undefined && [...last.uris].every(([file, uri]) => (uris.get(file) ?? toUri(file)) === uri)) {
      // Most recently used last, so the oldest is the first dropped.
      kept.delete(key);
      kept.set(key, last);
      return last;
    }
    const files = new Map(docs.map((d) => [d.path, { lines: d.lines, uri: uris.get(d.path) ?? toUri(d.path) }]));
    const found = index.byKey.get(key) ?? [];
    const list: ReferenceList = { locations: [], declaration: [], uris: new Map() };
    for (let i = 0; i < found.length; i++) {
      if (i > 0 && i % REQUEST_SLICE === 0) await pause();
      const o = found[i]!;
      const f = files.get(o.file);
      if (f === undefined) continue;
      list.locations.push({ uri: f.uri, range: f.lines.range(o.from, o.to) });
      list.declaration.push(o.declaration);
      list.uris.set(o.file, f.uri);
    }
    kept.delete(key);
    kept.set(key, list);
    while (kept.size > KEPT_REFERENCE_LISTS) kept.delete(kept.keys().next().value!);
    return list;
  };
  connection.onDocumentSymbol(
    cancellable(async (p: DocumentSymbolParams) =>
      (await workspace.symbols(requestPath(p.textDocument.uri))).map(toDocumentSymbol),
    ),
  );
  connection.onFoldingRanges(
    cancellable(async (p: FoldingRangeParams) => workspace.foldingRanges(requestPath(p.textDocument.uri))),
  );
  connection.onCompletion(
    cancellable(async (p: CompletionParams) =>
      (await workspace.completion(requestPath(p.textDocument.uri), p.position)).map((c) => ({
        label: c.label,
        kind: COMPLETION_KINDS[c.kind],
        detail: c.detail,
        ...(c.sortText !== undefined ? { sortText: c.sortText } : {}),
        ...(c.snippet ? { insertText: c.snippet, insertTextFormat: InsertTextFormat.Snippet } : {}),
      })),
    ),
  );
  connection.onDocumentFormatting(
    cancellable(async (p: DocumentFormattingParams) => {
      const path = requestPath(p.textDocument.uri);
      const doc = await workspace.document(path);
      const formatted = await workspace.format(path);
      if (formatted === undefined || formatted === doc.text) return [];
      // Formatting never changes a verdict: no edit that would push the file over the source limit.
      // Nor one that would push its directory package over the package's total, as `yaoc fmt` refuses it.
      const over = formattedLimitError(formatted, path) ?? (await workspace.formattedPackageLimit(path, formatted));
      if (over !== null) {
        connection.window.showWarningMessage(`yaoc: ${over.message}`);
        return [];
      }
      return [{ range: doc.lines.range(0, doc.text.length), newText: formatted }];
    }),
  );

  registerEditorFeatures(
    {
      connection,
      workspace,
      toPath: requestPath,
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
  const files = [d.file, ...(d.related ?? []).map((r) => r.file)];
  const readable = (text: string): string => withoutAbsolutePaths(text, files);
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
    message: readable(d.message),
    relatedInformation: [
      ...(d.related ?? [])
        .filter((r) => r.file !== undefined || d.file !== undefined)
        .map((r) => ({
          location: { uri: toUri(r.file ?? d.file!), range: r.span ? lines.rangeOfSpan(r.span) : range },
          message: readable(r.message),
        })),
      ...(here === undefined ? [] : notes.map((message) => ({ location: here, message: readable(message) }))),
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

/**
 * The message with every absolute path of its files, and of the folders holding them (an HCP pack
 * or HARP app is named by its folder), spelled as a person reads it: from the package, or the name.
 */
function withoutAbsolutePaths(message: string, files: readonly (string | undefined)[]): string {
  let out = message;
  for (const f of files) {
    if (!f?.startsWith("/")) continue;
    // The file first, then each folder above it, down to a folder of two levels (/home/x).
    for (let p = f; p.split("/").length > 2; p = p.slice(0, p.lastIndexOf("/")))
      out = out.replace(new RegExp(`${escapeRegExp(p)}(?![\\w.-])`, "g"), shortPath(p));
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
