/**
 * Workspace symbols: the functions and declared types of every HNS package under the workspace
 * folders (single `.hns` files and `.hns` directories), matched against the query as a
 * case-insensitive subsequence (`lc` finds `load-change`). The walk stays inside the folders,
 * follows no links, skips dependency and VCS directories and is bounded, so a huge or hostile
 * tree cannot make it hang. Symbols come from each file's reader tree (no check). Browser-safe.
 */
import { joinPath } from "../fs/paths.js";
import type { Workspace } from "./workspace.js";
import { headOf, symbolName, type LspRange, type YaoDocument } from "./yao-document.js";

export interface WorkspaceSymbolInfo {
  readonly name: string;
  readonly kind: "function" | "struct" | "enum";
  /** The package (its root path's last component). */
  readonly container: string;
  readonly path: string;
  readonly range: LspRange;
}

/** Bounds of the walk: directories visited, and symbols returned. */
export const WALK_LIMITS = { directories: 4096, depth: 12, results: 1000 } as const;
const SKIPPED = new Set(["node_modules", ".git", ".hg", ".svn", "dist", "target"]);

export async function workspaceSymbols(
  workspace: Workspace,
  folders: readonly string[],
  query: string,
): Promise<WorkspaceSymbolInfo[]> {
  const out: WorkspaceSymbolInfo[] = [];
  const wanted = query.toLowerCase();
  let visited = 0;
  const collect = (doc: YaoDocument, container: string): void => {
    for (const form of doc.forms) {
      const name = headOf(form) === "fn" ? symbolName(form.items[1]) : undefined;
      if (name !== undefined && matches(name, wanted))
        out.push({ name, kind: "function", container, path: doc.path, range: doc.lines.range(form.from, form.to) });
    }
    for (const n of doc.walk()) {
      if (headOf(n) !== "types") continue;
      for (const decl of n.items.slice(1)) {
        const name = symbolName(decl.items[1]);
        if (name === undefined || !matches(name, wanted)) continue;
        const kind = headOf(decl) === "record" ? "struct" : "enum";
        out.push({ name, kind, container, path: doc.path, range: doc.lines.range(decl.from, decl.to) });
      }
    }
  };
  // One accumulator for the whole walk: no per-level arrays copied upward.
  const yaoFilesOf = async (dir: string, depth: number, files: string[] = []): Promise<string[]> => {
    if (depth > 3 || ++visited > WALK_LIMITS.directories) return files;
    for (const name of await safeReaddir(workspace, dir)) {
      const p = joinPath(dir, name);
      const kind = (await workspace.fs.lstat(p))?.kind;
      if (kind === "file" && name.endsWith(".yao")) files.push(p);
      else if (kind === "directory") await yaoFilesOf(p, depth + 1, files);
    }
    return files;
  };
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > WALK_LIMITS.depth || ++visited > WALK_LIMITS.directories || out.length >= WALK_LIMITS.results) return;
    for (const name of (await safeReaddir(workspace, dir)).sort()) {
      if (SKIPPED.has(name) || out.length >= WALK_LIMITS.results) continue;
      const p = joinPath(dir, name);
      const kind = (await workspace.fs.lstat(p))?.kind;
      if (name.endsWith(".hns") && kind === "file") collect(await workspace.document(p), name);
      else if (name.endsWith(".hns") && kind === "directory")
        for (const f of await yaoFilesOf(p, 0)) collect(await workspace.document(f), name);
      else if (kind === "directory") await walk(p, depth + 1);
    }
  };
  for (const folder of folders) await walk(folder, 0);
  return out.slice(0, WALK_LIMITS.results);
}

function matches(name: string, query: string): boolean {
  const lower = name.toLowerCase();
  let i = 0;
  for (const c of lower) if (i < query.length && c === query[i]) i++;
  return i === query.length;
}

async function safeReaddir(workspace: Workspace, dir: string): Promise<string[]> {
  try {
    return [...(await workspace.fs.readdir(dir))];
  } catch {
    return [];
  }
}
