/**
 * File-system paths in a manifest (HARP §7.3, §13, §17 Author 5): which `start.argv[1..]` values
 * carry a path and whether it is relative and inside the package, and where a manifest value
 * names an absolute path or a home directory. Lexical only; check.ts resolves the relative argv
 * paths through links. Linear on any input (the scans are one regular expression each whose runs
 * end the pattern or start after a delimiter they cannot contain).
 */

/** A URL with an authority (`https://host/…`): not a file-system path. `file:` URLs are paths. */
const URL_WITH_AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]{0,31}:\/\/[^/\\]/;

/** `file:///etc/x`, `file://host/x`, `file:rel/x` → the path it names (percent escapes decoded). */
function fileUrlPath(arg: string): string | null {
  if (!/^file:/i.test(arg)) return null;
  let rest = arg.slice(5);
  if (rest.startsWith("//")) {
    // file://HOST/PATH: the path after the authority is absolute by definition (RFC 8089).
    const slash = rest.indexOf("/", 2);
    rest = slash < 0 ? "/" : rest.slice(slash);
  }
  try {
    return decodeURIComponent(rest);
  } catch {
    return rest;
  }
}

/**
 * The path-carrying parts of one argv value, outermost first: the value itself, the value of
 * `--name=V`/`--name:V`, `key=V`/`key:V`, `@V` (a response file), `-XV` (a short flag glued to its
 * value, `-I/usr/include`) and the path of a `file:` URL. Each part is split again, a few levels
 * deep (`-Dconf=@/etc/x`). A URL with an authority (`https://…`) carries no file path.
 */
export function argPathParts(arg: string): string[] {
  const out: string[] = [];
  const todo: [string, number][] = [[arg, 0]];
  while (todo.length > 0) {
    const [v, depth] = todo.pop()!;
    if (v === "") continue;
    const file = fileUrlPath(v);
    if (file !== null) {
      out.push(file);
      continue;
    }
    if (URL_WITH_AUTHORITY.test(v)) continue;
    out.push(v);
    if (depth >= 4) continue;
    const next = (x: string) => todo.push([x, depth + 1]);
    const flag = /^--?[A-Za-z0-9][A-Za-z0-9_.-]{0,63}[=:]/.exec(v);
    if (flag !== null) next(v.slice(flag[0].length));
    else if (/^-[A-Za-z]./.test(v) && !v.startsWith("--")) next(v.slice(2));
    const key = /^[A-Za-z_][A-Za-z0-9_.+-]{0,63}[=:]/.exec(v);
    // "C:\x" is a drive path, judged as a whole, not a key "C".
    if (key !== null && !/^[A-Za-z]:[\\/]/.test(v)) next(v.slice(key[0].length));
    if (v.startsWith("@")) next(v.slice(1));
  }
  return out;
}

/** Why one path-carrying part is not relative-and-inside, or null. */
function partProblem(v: string): string | null {
  if (v.startsWith("~")) return "refers to a home directory";
  if (v.startsWith("/") || v.startsWith("\\") || /^[A-Za-z]:[\\/]/.test(v)) return "is an absolute path";
  if (v.split(/[\\/]/).includes("..")) return "contains a '..' component that can leave the package root";
  return null;
}

/**
 * For argv[1..]: a value that carries a path (any of `argPathParts`) that is absolute, a home
 * directory or leaves the package. URLs with an authority are not paths.
 */
export function argPathProblem(arg: string): string | null {
  const parts = argPathParts(arg);
  for (const p of parts) {
    const problem = partProblem(p);
    if (problem === null) continue;
    return p === arg || !/^file:/i.test(arg) ? problem : `is a file: URL whose path ${problem}`;
  }
  return null;
}

/** The relative parts of an argv value that name something (for check.ts's link check). */
export function argRelativePaths(arg: string): string[] {
  return argPathParts(arg).filter(
    (p) =>
      partProblem(p) === null &&
      !p.startsWith("-") &&
      (p.includes("/") || p.startsWith(".") || /\.[A-Za-z0-9]+$/.test(p)),
  );
}

// ---------- absolute paths and home directories in any value ----------

/** Where a path can start inside free text: the start, whitespace, quotes, `=`, `:`, `,`, `(`, `[`, `@`, `;`. */
const HOME =
  /(^|[\s"'=:,([@;])(~[A-Za-z0-9_.-]*\/|\$HOME\b|\$\{HOME\}|%USERPROFILE%|\/home\/[^/\s]+|\/Users\/[^/\s]+|\/root(\/|$)|[A-Za-z]:\\Users\\)/;
/** Any absolute POSIX path (`/` then a name character), a drive path (`C:\`, `C:/`) or a UNC path (`\\host`). */
const ABSOLUTE = /(^|[\s"'=:,([@;])(\/[A-Za-z0-9_.~$-]|[A-Za-z]:[\\/]|\\\\[A-Za-z0-9])/;
/** URLs with an authority, blanked before the scan (their paths are URL paths); `file:` URLs are kept. */
const URLS = /(?<![A-Za-z0-9+.-])(?!file:)[A-Za-z][A-Za-z0-9+.-]{0,31}:\/\/[^\s"'<>]*/gi;

function withoutUrls(s: string): string {
  return s.includes("://") ? s.replace(URLS, " ") : s;
}

/** A file URL's path, absolute by definition (`file:///x`, `file://host/x`). */
const FILE_URL = /(?<![A-Za-z0-9+.-])file:\/\//i;

export type PathFinding = "home_directory" | "absolute_path";

/** Whether a manifest value names a home directory or an absolute path (outside URLs), or null. */
export function findPath(s: string): PathFinding | null {
  const t = withoutUrls(s);
  if (HOME.test(t)) return "home_directory";
  if (ABSOLUTE.test(t) || FILE_URL.test(s)) return "absolute_path";
  return null;
}
