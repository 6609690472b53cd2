/**
 * The VS Code client: starts the language server the extension ships (server/yaoc.mjs, the bundled
 * `yaoc` CLI, run as `yaoc lsp` with the editor's Node), or the executable the `yao.server.path`
 * setting names, and hands it Yao sources and the package manifests of the other frontends.
 * Bundled to dist/extension.js by scripts/bundle-extension.mjs.
 */
import { workspace, type ExtensionContext } from "vscode";
import {
  LanguageClient,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from "vscode-languageclient/node";

let client: LanguageClient | undefined;

export async function activate(context: ExtensionContext): Promise<void> {
  const command = workspace.getConfiguration("yao").get<string>("server.path", "");
  const server: ServerOptions =
    command !== ""
      ? { command, args: ["lsp"], transport: TransportKind.stdio }
      : { module: context.asAbsolutePath("server/yaoc.mjs"), args: ["lsp"], transport: TransportKind.stdio };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "yao" },
      { scheme: "file", pattern: "**/harp.json" },
      { scheme: "file", pattern: "**/{surface,policy}.json" },
      { scheme: "file", pattern: "**/a3s-use-extension.acl" },
    ],
  };
  client = new LanguageClient("yao", "Yao (yaoc)", server, clientOptions);
  context.subscriptions.push(client);
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
