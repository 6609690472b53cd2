/**
 * The LSP handlers of the editing features (rename, quick fixes, inlay hints, signature help,
 * semantic tokens, workspace symbols) over the browser-safe modules that compute them. Every
 * handler checks the shape of its parameters first: a malformed request gets an InvalidParams
 * error, never a crash, and a feature that fails answers with an error naming the feature.
 */
import {
  CodeActionKind,
  ErrorCodes,
  InlayHintKind,
  SymbolKind,
  type CancellationToken,
  type InitializeParams,
  LSPErrorCodes,
  ResponseError,
  type ClientCapabilities,
  type CodeAction,
  type Connection,
  type Diagnostic as LspDiagnostic,
  type ServerCapabilities,
  type TextDocumentEdit,
  type WorkspaceEdit,
} from "vscode-languageserver/node.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { quickFixes } from "./code-actions.js";
import { inlayHints } from "./inlay-hints.js";
import { pauseFor } from "./node-pause.js";
import { packageView } from "./package-index.js";
import type { Pause } from "./pause.js";
import { prepareRename, rename, type TextEdit } from "./rename.js";
import { classify, encodeTokens, TOKEN_MODIFIERS, TOKEN_TYPES, tokenDelta } from "./semantic-tokens.js";
import { signatureHelp } from "./signature-help.js";
import { workspaceSymbols } from "./workspace-symbols.js";
import type { Workspace } from "./workspace.js";
import type { LspPosition, LspRange, TextLines } from "./yao-document.js";

export interface EditorHost {
  readonly connection: Connection;
  readonly workspace: Workspace;
  toPath(uri: string): string;
  toUri(path: string): string;
  /** The version of an open document, or undefined when the file is not open. */
  versionOf(uri: string): number | undefined;
  toLspDiagnostic(d: Diagnostic, lines: TextLines): LspDiagnostic;
}

export const EDITOR_CAPABILITIES: ServerCapabilities = {
  renameProvider: { prepareProvider: true },
  codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
  inlayHintProvider: true,
  signatureHelpProvider: { triggerCharacters: ["(", " "] },
  semanticTokensProvider: {
    legend: { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [...TOKEN_MODIFIERS] },
    full: { delta: true },
  },
  workspaceSymbolProvider: true,
};

const SYMBOL_KINDS = { function: SymbolKind.Function, struct: SymbolKind.Struct, enum: SymbolKind.Enum } as const;

const IDENTITY_ANNOTATION = "yaoc.identity";

export function registerEditorFeatures(host: EditorHost, init: () => InitializeParams | undefined): void {
  const { connection, workspace } = host;
  const client = (): ClientCapabilities => init()?.capabilities ?? {};
  /** The workspace folders as paths (the root URI when the client names no folders). */
  const folders = (): string[] => {
    const p = init();
    const uris = p?.workspaceFolders?.map((f) => f.uri) ?? (p?.rootUri ? [p.rootUri] : []);
    return uris.flatMap((u) => {
      try {
        return [host.toPath(u)];
      } catch {
        return [];
      }
    });
  };
  /** The last semantic tokens sent per document, for deltas. */
  const lastTokens = new Map<string, { resultId: string; data: number[] }>();
  let tokenResults = 0;
  const tokensOf = async (uri: string, path: string, pause: Pause): Promise<{ resultId: string; data: number[] }> => {
    const doc = await workspace.document(path);
    // Often the first request after an edit (editors ask for tokens at once): it builds the index in slices.
    const { index } = await packageView(workspace, path, pause);
    const data = encodeTokens(classify(doc.text, path, index), doc.lines);
    const result = { resultId: String(++tokenResults), data };
    lastTokens.delete(uri);
    lastTokens.set(uri, result);
    // Kept for the documents edited last only (a closed document's entry ages out).
    if (lastTokens.size > 64) lastTokens.delete(lastTokens.keys().next().value!);
    return result;
  };

  connection.onPrepareRename(
    guarded("prepareRename", async (p, pause) => {
      const { path, position } = positionParams(host, p);
      const r = await prepareRename(workspace, path, position, pause);
      if ("refused" in r) return new ResponseError(LSPErrorCodes.RequestFailed, r.refused);
      return r;
    }),
  );

  connection.onRenameRequest(
    guarded("rename", async (p, pause) => {
      const { path, position } = positionParams(host, p);
      const newName = (p as { newName?: unknown }).newName;
      if (typeof newName !== "string") throw invalid("rename needs newName, a string");
      const r = await rename(workspace, path, position, newName, pause);
      if ("refused" in r) return new ResponseError(LSPErrorCodes.RequestFailed, r.refused);
      return workspaceEdit(host, client(), r.edits, r.note);
    }),
  );

  connection.onCodeAction(
    guarded("codeAction", async (p) => {
      const path = documentPath(host, p);
      const range = rangeOf((p as { range?: unknown }).range);
      const out: CodeAction[] = [];
      for (const fix of await quickFixes(workspace, path, range)) {
        const file = fix.diagnostic.file?.startsWith("/") ? fix.diagnostic.file : path;
        const lines = (await workspace.document(file)).lines;
        out.push({
          title: fix.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [host.toLspDiagnostic(fix.diagnostic, lines)],
          isPreferred: fix.preferred,
          edit: workspaceEdit(host, client(), fix.edits),
        });
      }
      return out;
    }),
  );

  connection.languages.inlayHint.on(
    guarded("inlayHint", async (p) => {
      const path = documentPath(host, p);
      const range = rangeOf((p as { range?: unknown }).range);
      return (await inlayHints(workspace, path, range)).map((h) => ({
        position: h.position,
        label: h.label,
        kind: InlayHintKind.Type,
        paddingLeft: h.kind === "effects",
      }));
    }),
  );

  connection.onSignatureHelp(
    guarded("signatureHelp", async (p) => {
      const { path, position } = positionParams(host, p);
      const s = await signatureHelp(workspace, path, position);
      if (s === undefined) return null;
      return {
        signatures: [
          {
            label: s.label,
            ...(s.documentation === undefined ? {} : { documentation: s.documentation }),
            parameters: s.parameters.map((q) => ({ label: [q.label[0], q.label[1]] as [number, number] })),
          },
        ],
        activeSignature: 0,
        activeParameter: s.activeParameter,
      };
    }),
  );

  connection.languages.semanticTokens.on(
    guarded("semanticTokens/full", async (p, pause) => {
      const path = documentPath(host, p);
      const uri = (p as { textDocument: { uri: string } }).textDocument.uri;
      return tokensOf(uri, path, pause);
    }),
  );
  connection.languages.semanticTokens.onDelta(
    guarded("semanticTokens/full/delta", async (p, pause) => {
      const path = documentPath(host, p);
      const uri = (p as { textDocument: { uri: string } }).textDocument.uri;
      const previous = (p as { previousResultId?: unknown }).previousResultId;
      const last = lastTokens.get(uri);
      const next = await tokensOf(uri, path, pause);
      if (last === undefined || last.resultId !== previous) return next;
      return { resultId: next.resultId, edits: tokenDelta(last.data, next.data) };
    }),
  );

  connection.onWorkspaceSymbol(
    guarded("workspace/symbol", async (p) => {
      const query = (p as { query?: unknown }).query;
      if (typeof query !== "string") throw invalid("workspace/symbol needs query, a string");
      return (await workspaceSymbols(workspace, folders(), query)).map((s) => ({
        name: s.name,
        kind: SYMBOL_KINDS[s.kind],
        containerName: s.container,
        location: { uri: host.toUri(s.path), range: s.range },
      }));
    }),
  );
}

/**
 * Edits as a WorkspaceEdit: versioned document changes when the client takes them (with the
 * identity note as a change annotation when it takes those), otherwise plain changes by URI.
 */
function workspaceEdit(
  host: EditorHost,
  caps: ClientCapabilities,
  edits: ReadonlyMap<string, readonly TextEdit[]>,
  note?: string,
): WorkspaceEdit {
  const weCaps = caps.workspace?.workspaceEdit;
  if (weCaps?.documentChanges !== true) {
    const changes: Record<string, TextEdit[]> = {};
    for (const [file, list] of edits) changes[host.toUri(file)] = [...list];
    return { changes };
  }
  const annotate = note !== undefined && weCaps.changeAnnotationSupport !== undefined;
  const documentChanges: TextDocumentEdit[] = [];
  for (const [file, list] of edits) {
    const uri = host.toUri(file);
    documentChanges.push({
      textDocument: { uri, version: host.versionOf(uri) ?? null },
      edits: list.map((e) => (annotate ? { ...e, annotationId: IDENTITY_ANNOTATION } : { ...e })),
    });
  }
  return annotate
    ? {
        documentChanges,
        changeAnnotations: {
          [IDENTITY_ANNOTATION]: { label: "The package identity changes", description: note, needsConfirmation: false },
        },
      }
    : { documentChanges };
}

// ---- parameter checks --------------------------------------------------------------------------

function invalid(message: string): ResponseError<void> {
  return new ResponseError(ErrorCodes.InvalidParams, message);
}

/** Wrap a handler: malformed parameters and failures become error responses naming the request. */
function guarded<P, R>(
  what: string,
  handler: (p: P, pause: Pause) => Promise<R | ResponseError<void>>,
): (p: P, token?: CancellationToken) => Promise<R | ResponseError<void>> {
  return async (p, token) => {
    try {
      if (p === null || typeof p !== "object") return invalid(`${what}: the parameters must be an object`);
      // A handler whose work grows with the package pauses between slices: other requests are
      // answered meanwhile, and a cancellation of this one ends it at the next pause.
      return await handler(p, pauseFor(token));
    } catch (e) {
      if (e instanceof ResponseError) return e as ResponseError<void>;
      return new ResponseError(
        LSPErrorCodes.RequestFailed,
        `yaoc lsp: ${what} failed: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  };
}

export function documentPath(host: EditorHost, p: unknown): string {
  const uri = (p as { textDocument?: { uri?: unknown } }).textDocument?.uri;
  if (typeof uri !== "string" || uri === "") throw invalid("textDocument.uri must be a non-empty string");
  try {
    return host.toPath(uri);
  } catch {
    throw invalid(`textDocument.uri is not a usable URI: ${JSON.stringify(uri.slice(0, 200))}`);
  }
}

export function positionOf(v: unknown, what = "position"): LspPosition {
  const p = v as { line?: unknown; character?: unknown } | null | undefined;
  const ok = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n) && n >= 0;
  if (p === null || typeof p !== "object" || !ok(p.line) || !ok(p.character))
    throw invalid(`${what} must be { line, character } with non-negative integers`);
  return { line: p.line, character: p.character };
}

export function rangeOf(v: unknown): LspRange {
  const r = v as { start?: unknown; end?: unknown } | null | undefined;
  if (r === null || typeof r !== "object") throw invalid("range must be { start, end }");
  return { start: positionOf(r.start, "range.start"), end: positionOf(r.end, "range.end") };
}

function positionParams(host: EditorHost, p: unknown): { path: string; position: LspPosition } {
  return { path: documentPath(host, p), position: positionOf((p as { position?: unknown }).position) };
}
