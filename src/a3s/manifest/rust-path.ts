/**
 * Rust `std::path::Path` semantics on Unix, as far as A3S Use relies on them (reference §2.8,
 * `rust-unix-path-cases.json`): `/` is the only separator, empty and interior `.` components
 * vanish, a leading `.` stays as CurDir, backslashes are ordinary characters.
 */

export type Component = "root" | "cur" | "parent" | { readonly normal: string };

export function components(path: string): Component[] {
  const out: Component[] = [];
  if (path.startsWith("/")) out.push("root");
  const parts = path.split("/");
  parts.forEach((p, i) => {
    if (p === "") return;
    if (p === ".") {
      // Only a leading `.` survives normalisation.
      if (i === 0) out.push("cur");
      return;
    }
    out.push(p === ".." ? "parent" : { normal: p });
  });
  return out;
}

export function fileName(path: string): string | null {
  const last = components(path).at(-1);
  return last !== undefined && typeof last === "object" ? last.normal : null;
}

export function extension(path: string): string | null {
  const name = fileName(path);
  if (name === null || name === "..") return null;
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return null;
  return name.slice(dot + 1);
}

/** A3S Use's `validate_relative_path`: true when the path is rejected. */
export function rejectsRelativePath(path: string): boolean {
  if (path === "") return true;
  return components(path).some((c) => typeof c === "string");
}

/** Component-wise identity (`ui/a.css` = `ui//a.css` = `ui/./a.css` = `ui/a.css/`). */
export function componentKey(path: string): string {
  return JSON.stringify(components(path));
}
