/**
 * The Yao files of a `.hns` directory package found by listing it, not by loading it: while an
 * author types, the package usually does not load (an unclosed list in one file), and the loaded
 * package's file list then holds only the file being edited. Completion still needs the other
 * files' functions and types, so it reads them from the listing. The walk follows no links and is
 * bounded in depth and count, so a hostile tree cannot make it hang. Browser-safe.
 */
import type { PackageFs } from "../fs/package-fs.js";
import { joinPath } from "../fs/paths.js";

/** At most this many files, and this many directory levels below the package root. */
export const PACKAGE_LISTING_LIMITS = { files: 512, depth: 4 } as const;

/** Every `.yao` file under `root`, in name order per directory; an unreadable directory lists nothing. */
export async function listedYaoFiles(fs: PackageFs, root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > PACKAGE_LISTING_LIMITS.depth) return;
    let names: string[];
    try {
      names = [...(await fs.readdir(dir))].sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (out.length >= PACKAGE_LISTING_LIMITS.files) return;
      const p = joinPath(dir, name);
      const kind = (await fs.lstat(p))?.kind;
      if (kind === "file" && name.endsWith(".yao")) out.push(p);
      else if (kind === "directory") await walk(p, depth + 1);
    }
  };
  await walk(root, 0);
  return out;
}
