/**
 * What `yaoc check` is asked to check, expanded into package paths before any package is checked:
 *
 * - no path: the working directory, walked;
 * - a path that is a package (`NAME.hns`, or a directory holding a marker file the check facade
 *   routes by: `harp.json`, `a3s-use-extension.acl`, `surface.json`/`policy.json`/`HARNESS.md`, or
 *   `manifest.yao` of a misnamed HNS directory package): itself;
 * - any other directory: walked for packages. Hidden entries, `node_modules` and `.git` are skipped,
 *   a package directory is never descended into (its `functions/x.yao` are not loose files), and
 *   symbolic links to directories are not followed (no loops). A walk that finds no package keeps
 *   the directory itself, so the per-path check explains what a package must look like;
 * - a glob (`'pkgs/**\/*.hns'`, quoted so the shell leaves it alone) that names no existing path:
 *   its matches, expanded by tinyglobby with the same skips; no match is a usage error;
 * - `-`: one single-file package read from standard input (see check-command.ts).
 *
 * Expansion is linear in the entries visited; each package path appears once, in input order (walk
 * and glob results sorted by code point).
 */
import { readdirSync } from "node:fs";
import { isAbsolute } from "node:path";
import type { FileStat, PackageFs } from "../fs/package-fs.js";
import { NodeFs } from "../fs/node-fs.js";
import { decodeName } from "../fs/names.js";
import { kindOf } from "../fs/file-kind.js";
import { pathArg } from "../fs/node-snapshot.js";
import { extensionOf, joinPath } from "../fs/paths.js";
import { routeDirectory } from "../check/frontends.js";

/** Directory names the walk and globs never enter. */
export const SKIPPED_DIRECTORIES: readonly string[] = ["node_modules", ".git"];

export type ExpandedInput =
  | { readonly kind: "path"; readonly path: string }
  | { readonly kind: "stdin" }
  | { readonly kind: "no_match"; readonly pattern: string };

function skipped(name: string): boolean {
  return name.startsWith(".") || SKIPPED_DIRECTORIES.includes(name);
}

/**
 * A directory that is itself a package: `.hns` suffix, or a marker file the check facade routes by
 * (a frontend's marker, or `manifest.yao` of a misnamed HNS directory package).
 */
export async function isPackageDirectory(fs: PackageFs, dir: string): Promise<boolean> {
  if (extensionOf(dir) === "hns") return true;
  return (await routeDirectory(fs, dir)) !== undefined;
}

/** Entries of one directory whose metadata the walk asks for at once. */
const WALK_BATCH = 64;

/** What the walk does with an entry: take it as a package, descend into it, or pass it by. */
async function classify(
  fs: PackageFs,
  name: string,
  path: string,
  st: Pick<FileStat, "kind"> | null,
): Promise<"package" | "directory" | "skip"> {
  if (st === null) return "skip";
  if (st.kind === "file" || st.kind === "symlink") return extensionOf(name) === "hns" ? "package" : "skip";
  if (st.kind !== "directory") return "skip";
  return (await isPackageDirectory(fs, path)) ? "package" : "directory";
}

/**
 * The entries of a folder on the disk with their kinds, from one `readdir` with file types (the
 * kind a directory listing gives is the one `lstat` gives: Node asks `lstat` itself where the file
 * system does not say). A walk of 5,000 packages spent about a tenth of a warm `--cache` run on one
 * asynchronous `lstat` per entry. Undefined for another file system; null when the folder cannot
 * be listed.
 */
function typedEntries(fs: PackageFs, dir: string): { name: string; kind: FileStat["kind"] }[] | null | undefined {
  if (!(fs instanceof NodeFs)) return undefined;
  try {
    return readdirSync(pathArg(dir), { withFileTypes: true, encoding: "buffer" }).map((e) => ({
      // Raw bytes, surrogate-escaped, exactly as NodeFs.readdir names them.
      name: decodeName(e.name),
      kind: kindOf(e),
    }));
  } catch {
    return null;
  }
}

/** Package paths under `dir` (not `dir` itself), sorted, depth first. */
export async function walkPackages(fs: PackageFs, dir: string): Promise<string[]> {
  const out: string[] = [];
  const visit = async (d: string): Promise<void> => {
    let entries: { name: string; kind: FileStat["kind"] | undefined }[];
    const typed = typedEntries(fs, d);
    if (typed === null) return; // an unreadable folder inside a walk holds no package we can check
    if (typed !== undefined) entries = typed.filter((e) => !skipped(e.name));
    else {
      try {
        entries = (await fs.readdir(d)).filter((name) => !skipped(name)).map((name) => ({ name, kind: undefined }));
      } catch {
        return; // likewise
      }
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    // The lstats (where the listing gave no kinds) and a directory's marker lstats of a batch of
    // entries are asked at once: one at a time, each waited for the thread pool, and a tree of
    // 5,000 packages took a second to walk.
    for (let at = 0; at < entries.length; at += WALK_BATCH) {
      const batch = entries.slice(at, at + WALK_BATCH).map(({ name, kind: known }) => {
        const path = d === "." ? name : joinPath(d, name);
        const kind =
          known !== undefined
            ? classify(fs, name, path, { kind: known })
            : fs.lstat(path).then(async (st) => classify(fs, name, path, st));
        kind.catch(() => {}); // awaited below in order; a failure surfaces there, as before
        return { path, kind };
      });
      for (const entry of batch) {
        const kind = await entry.kind;
        if (kind === "package") out.push(entry.path);
        else if (kind === "directory") await visit(entry.path);
      }
    }
  };
  await visit(dir);
  return out;
}

async function expandGlob(pattern: string): Promise<string[]> {
  const { glob } = await import("tinyglobby");
  const matches = await glob(pattern, {
    onlyFiles: false,
    dot: false,
    absolute: isAbsolute(pattern),
    expandDirectories: false,
    followSymbolicLinks: false,
    ignore: SKIPPED_DIRECTORIES.map((d) => `**/${d}/**`),
  });
  return matches
    .map((m) => (m.length > 1 && m.endsWith("/") ? m.slice(0, -1) : m))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** One input: a path as is, a walked directory, a glob's matches. */
async function expandOne(fs: PackageFs, input: string): Promise<ExpandedInput[]> {
  if (input === "-") return [{ kind: "stdin" }];
  // A path that cannot even be inspected (a name too long, no permission) is reported by the check.
  const st = await fs.stat(input).catch(() => undefined);
  if (st === undefined) return [{ kind: "path", path: input }];
  if (st === null) {
    // Loaded only for an input that is not a path on disk: most runs name paths, and the glob
    // library (with picomatch, loaded through require) is a tenth of a cold `yaoc check`'s start-up.
    const { isDynamicPattern } = await import("tinyglobby");
    if (!isDynamicPattern(input)) return [{ kind: "path", path: input }]; // reported as not found
    const matches = await expandGlob(input);
    if (matches.length === 0) return [{ kind: "no_match", pattern: input }];
    const out: ExpandedInput[] = [];
    for (const m of matches) for (const e of await expandOne(fs, m)) out.push(e);
    return out;
  }
  if (st.kind !== "directory" || (await isPackageDirectory(fs, input))) return [{ kind: "path", path: input }];
  const found = await walkPackages(fs, input);
  // Nothing found: the per-path check says what a package must look like.
  if (found.length === 0) return [{ kind: "path", path: input }];
  return found.map((path) => ({ kind: "path", path }));
}

/** Every input expanded, duplicates removed (first occurrence kept). No inputs means ".". */
export async function expandInputs(fs: PackageFs, inputs: readonly string[]): Promise<ExpandedInput[]> {
  const out: ExpandedInput[] = [];
  const seen = new Set<string>();
  for (const input of inputs.length === 0 ? ["."] : inputs) {
    for (const e of await expandOne(fs, input)) {
      const key = e.kind === "path" ? `p:${e.path}` : e.kind === "stdin" ? "stdin" : `g:${e.pattern}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(e);
    }
  }
  return out;
}
