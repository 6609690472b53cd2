/**
 * The semantic classification of one file of a package, for a page that is not an LSP client (the
 * playground): the same `classify` the server's semantic tokens encode, over a workspace of the
 * given file system. Browser-safe.
 */
import type { PackageFs } from "../fs/package-fs.js";
import { packageView } from "./package-index.js";
import { classify, type Token } from "./semantic-tokens.js";
import { Workspace } from "./workspace.js";

export type { Token, TokenType } from "./semantic-tokens.js";

export async function highlightFile(fs: PackageFs, file: string): Promise<Token[]> {
  const workspace = new Workspace(fs);
  const doc = await workspace.document(file);
  const { index } = await packageView(workspace, file);
  return classify(doc.text, file, index);
}
