/**
 * Package containment: every file a frontend reads from a package must be a regular file whose real
 * path stays inside the package root. Shared by all frontends so the rule is enforced one way.
 */
import { FsError, type FileStat, type PackageFs } from "./package-fs.js";
import { isWithin, joinPath } from "./paths.js";

/**
 * Lexical problems of a package-relative path, or `null` when it is acceptable:
 * relative, non-empty, `/`-separated, no `.`/`..`/empty components, no backslash, NUL or drive prefix.
 */
export function relativePathProblem(rel: string): string | null {
  if (rel === "") return "the path is empty";
  if (rel.includes("\0")) return "the path contains a NUL character";
  if (rel.startsWith("/")) return "the path is absolute";
  if (rel.includes("\\")) return "the path contains a backslash; use '/' as the separator";
  if (/^[A-Za-z]:/.test(rel)) return "the path starts with a drive prefix";
  for (const seg of rel.split("/")) {
    if (seg === "..") return "the path contains a '..' component";
    if (seg === ".") return "the path contains a '.' component";
    if (seg === "") return "the path contains an empty component";
  }
  return null;
}

export type ContainedResolution =
  | { readonly ok: true; readonly realPath: string; readonly stat: FileStat }
  | {
      readonly ok: false;
      readonly reason: "not_found" | "escape" | "not_regular_file" | "loop" | "io";
      readonly detail: string;
      /** For `not_regular_file`: what is there instead. */
      readonly kind?: FileStat["kind"];
    };

/**
 * Resolve `rel` under the canonical package root `realRoot` and require a regular file inside it.
 * Never opens the file: FIFOs and devices are rejected from their metadata alone.
 */
export async function resolveContainedFile(fs: PackageFs, realRoot: string, rel: string): Promise<ContainedResolution> {
  const joined = joinPath(realRoot, rel);
  let realPath: string;
  try {
    realPath = await fs.realpath(joined);
  } catch (e) {
    if (e instanceof FsError && e.code === "not_found") {
      return { ok: false, reason: "not_found", detail: `${joined} does not exist` };
    }
    if (e instanceof FsError && e.code === "loop") {
      return { ok: false, reason: "loop", detail: `${joined} is part of a symbolic link loop` };
    }
    return { ok: false, reason: "io", detail: e instanceof Error ? e.message : String(e) };
  }
  if (!isWithin(realRoot, realPath)) {
    return { ok: false, reason: "escape", detail: `${joined} resolves to ${realPath}, outside ${realRoot}` };
  }
  const stat = await fs.lstat(realPath);
  if (stat === null) return { ok: false, reason: "not_found", detail: `${joined} does not exist` };
  if (stat.kind !== "file") {
    return {
      ok: false,
      reason: "not_regular_file",
      kind: stat.kind,
      detail: `${joined} is a ${describeKind(stat.kind)}, not a regular file`,
    };
  }
  return { ok: true, realPath, stat };
}

export function describeKind(kind: FileStat["kind"]): string {
  switch (kind) {
    case "file":
      return "regular file";
    case "directory":
      return "directory";
    case "symlink":
      return "symbolic link";
    case "fifo":
      return "FIFO (named pipe)";
    case "socket":
      return "socket";
    case "block-device":
      return "block device";
    case "char-device":
      return "character device";
    default:
      return "special file";
  }
}
