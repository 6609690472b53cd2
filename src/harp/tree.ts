/**
 * The file tree of a HARP package, walked through `PackageFs`, and its deterministic digest.
 *
 * HARP v1 has no cross-host identity (§7.3, §13); the digest only lets `yaoc check`/`yaoc hash`
 * name a package's content the way they do for other kinds. Algorithm (documented in docs/harp.md):
 * entries sorted by the UTF-8 bytes of their package-relative path; one line per entry,
 *   `d <path>\n` for a directory, `f <sha256(content) hex> <path>\n` for a regular file,
 *   `l <target relative to the root> <path>\n` for an internal symbolic link,
 * where paths and targets are written as JSON strings (so a newline in a name cannot forge a line);
 * the digest is `sha256:` + hex SHA-256 of the concatenated UTF-8 lines. File modes and times are
 * not part of it (PackageFs exposes neither), so copying a package never changes its digest.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { describeKind } from "../fs/contained.js";
import { FsError, type PackageFs } from "../fs/package-fs.js";
import { isWithin, joinPath } from "../fs/paths.js";
import { displayName, isUndecodableName, undecodableNameMessage } from "../fs/names.js";
import { compareCodePoints } from "../text/code-point-order.js";

export const MAX_FILES = 20_000;
export const MAX_FILE_BYTES = 256 * 1024 * 1024;
export const MAX_DEPTH = 64;

export type TreeEntry =
  | { readonly kind: "dir"; readonly path: string }
  | { readonly kind: "file"; readonly path: string; readonly size: number; readonly sha256: string }
  | { readonly kind: "symlink"; readonly path: string; readonly target: string };

export interface TreeProblem {
  readonly path: string;
  readonly reason: string;
  /** The diagnostic code when it is not the generic `harp.package_file_rejected`. */
  readonly code?: "harp.non_utf8_name";
}

export interface PackageTree {
  readonly entries: readonly TreeEntry[];
  readonly problems: readonly TreeProblem[];
}

const enc = new TextEncoder();

/**
 * Walk the package rooted at the canonical path `realRoot`. Special files, escaping or dangling
 * links, and limits become problems (never exceptions), so hostile packages get a clear report.
 */
export async function walkPackage(
  fs: PackageFs,
  realRoot: string,
  opts: { hash?: boolean } = {},
): Promise<PackageTree> {
  const entries: TreeEntry[] = [];
  const problems: TreeProblem[] = [];
  const hash = opts.hash ?? true;

  async function visit(rel: string, depth: number): Promise<void> {
    if (depth > MAX_DEPTH) {
      problems.push({ path: rel, reason: `directories nest more than ${MAX_DEPTH} levels deep` });
      return;
    }
    const abs = rel === "" ? realRoot : joinPath(realRoot, rel);
    let names: string[];
    try {
      names = await fs.readdir(abs);
    } catch (e) {
      problems.push({ path: rel || ".", reason: e instanceof Error ? e.message : String(e) });
      return;
    }
    names.sort(compareCodePoints);
    for (const name of names) {
      if (entries.length >= MAX_FILES) {
        problems.push({ path: rel || ".", reason: `the package has more than ${MAX_FILES} entries` });
        return;
      }
      const childRel = rel === "" ? name : `${rel}/${name}`;
      if (isUndecodableName(name)) {
        // The digest spells paths in UTF-8; a name without that spelling is never skipped.
        problems.push({
          path: displayName(childRel),
          reason: undecodableNameMessage(childRel),
          code: "harp.non_utf8_name",
        });
      }
      const childAbs = joinPath(realRoot, childRel);
      const st = await fs.lstat(childAbs);
      if (st === null) continue; // removed while walking
      if (st.kind === "directory") {
        entries.push({ kind: "dir", path: childRel });
        await visit(childRel, depth + 1);
      } else if (st.kind === "file") {
        if (st.size > MAX_FILE_BYTES) {
          problems.push({ path: childRel, reason: `the file is larger than ${MAX_FILE_BYTES} bytes` });
          continue;
        }
        let digest = "";
        if (hash) {
          try {
            digest = bytesToHex(sha256(await fs.readFile(childAbs, MAX_FILE_BYTES)));
          } catch (e) {
            problems.push({ path: childRel, reason: e instanceof FsError ? e.message : String(e) });
            continue;
          }
        }
        entries.push({ kind: "file", path: childRel, size: st.size, sha256: digest });
      } else if (st.kind === "symlink") {
        let real: string;
        try {
          real = await fs.realpath(childAbs);
        } catch {
          problems.push({ path: childRel, reason: "the symbolic link is dangling or loops" });
          continue;
        }
        if (!isWithin(realRoot, real)) {
          problems.push({ path: childRel, reason: `the symbolic link resolves to ${real}, outside the package` });
          continue;
        }
        const target = real === realRoot ? "." : real.slice(realRoot.length + (realRoot.endsWith("/") ? 0 : 1));
        entries.push({ kind: "symlink", path: childRel, target });
      } else {
        problems.push({
          path: childRel,
          reason: `the entry is a ${describeKind(st.kind)}; packages may hold only files, directories and internal links`,
        });
      }
    }
  }

  await visit("", 0);
  entries.sort((a, b) => compareCodePoints(a.path, b.path));
  return { entries, problems };
}

export function treeDigest(tree: PackageTree): string {
  let text = "";
  for (const e of tree.entries) {
    const path = JSON.stringify(e.path);
    if (e.kind === "dir") text += `d ${path}\n`;
    else if (e.kind === "file") text += `f ${e.sha256} ${path}\n`;
    else text += `l ${JSON.stringify(e.target)} ${path}\n`;
  }
  return `sha256:${bytesToHex(sha256(enc.encode(text)))}`;
}
