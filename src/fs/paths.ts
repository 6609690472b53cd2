/** POSIX path helpers for the core (no `node:path`, so the core runs in any JS runtime). */

export function joinPath(base: string, rel: string): string {
  if (rel === "") return base;
  if (rel.startsWith("/")) return normalizePath(rel);
  return normalizePath(base.endsWith("/") ? base + rel : `${base}/${rel}`);
}

/** Collapse `//` and `.` segments; `..` is resolved lexically (callers reject it before joining). */
export function normalizePath(p: string): string {
  const absolute = p.startsWith("/");
  const out: string[] = [];
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!absolute) out.push("..");
      continue;
    }
    out.push(seg);
  }
  const body = out.join("/");
  return absolute ? `/${body}` : body === "" ? "." : body;
}

export function baseName(p: string): string {
  const trimmed = p.length > 1 && p.endsWith("/") ? p.slice(0, -1) : p;
  const i = trimmed.lastIndexOf("/");
  return i < 0 ? trimmed : trimmed.slice(i + 1);
}

export function dirName(p: string): string {
  const trimmed = p.length > 1 && p.endsWith("/") ? p.slice(0, -1) : p;
  const i = trimmed.lastIndexOf("/");
  if (i < 0) return ".";
  if (i === 0) return "/";
  return trimmed.slice(0, i);
}

/** Extension without the dot, Rust `Path::extension` style: `a.hns` → `hns`, `.hns` → none. */
export function extensionOf(p: string): string | null {
  const name = baseName(p);
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return null;
  return name.slice(dot + 1);
}

/** File stem, Rust `Path::file_stem` style: `programs/main.yao` → `main`, `a.b.yao` → `a.b`. */
export function fileStem(p: string): string {
  const name = baseName(p);
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return name;
  return name.slice(0, dot);
}

/** True when `child` equals `root` or lies below it; both must be canonical absolute paths. */
export function isWithin(root: string, child: string): boolean {
  if (child === root) return true;
  const prefix = root.endsWith("/") ? root : `${root}/`;
  return child.startsWith(prefix);
}
