/**
 * An in-memory `PackageFs`: for tests, browsers and runtimes that hold packages as data.
 * Supports directories, files, symlinks and special files (so hostile layouts can be modelled).
 */
import { FsError, type FileKind, type FileStat, type PackageFs } from "./package-fs.js";
import { joinPath, normalizePath } from "./paths.js";

export type MemoryEntry =
  | { readonly kind: "file"; readonly data: Uint8Array; readonly executable?: boolean }
  | { readonly kind: "symlink"; readonly target: string }
  | { readonly kind: "directory" }
  | { readonly kind: Exclude<FileKind, "file" | "symlink" | "directory"> };

const MAX_LINK_HOPS = 40;
const encoder = new TextEncoder();

export class MemoryFs implements PackageFs {
  private readonly entries = new Map<string, MemoryEntry>([["/", { kind: "directory" }]]);

  /** Build from `{ "/pkg.hns/manifest.yao": "(manifest …)" }`; parents are created implicitly. */
  static from(files: Record<string, string | Uint8Array | MemoryEntry>): MemoryFs {
    const fs = new MemoryFs();
    for (const [path, value] of Object.entries(files)) {
      if (typeof value === "string") fs.writeFile(path, value);
      else if (value instanceof Uint8Array) fs.writeFile(path, value);
      else fs.put(path, value);
    }
    return fs;
  }

  writeFile(path: string, data: string | Uint8Array, options: { executable?: boolean } = {}): void {
    const bytes = typeof data === "string" ? encoder.encode(data) : data;
    this.put(path, { kind: "file", data: bytes, executable: options.executable ?? false });
  }

  mkdir(path: string): void {
    this.put(path, { kind: "directory" });
  }

  symlink(path: string, target: string): void {
    this.put(path, { kind: "symlink", target });
  }

  put(path: string, entry: MemoryEntry): void {
    const abs = absolute(path);
    let dir = abs;
    const parents: string[] = [];
    while ((dir = parentOf(dir)) !== "/") parents.push(dir);
    for (const p of parents.reverse()) if (!this.entries.has(p)) this.entries.set(p, { kind: "directory" });
    this.entries.set(abs, entry);
  }

  async lstat(path: string): Promise<FileStat | null> {
    const real = this.resolveParents(absolute(path));
    if (real === null) return null;
    const e = this.entries.get(real);
    return e ? statOf(e) : null;
  }

  async stat(path: string): Promise<FileStat | null> {
    try {
      const e = this.entries.get(this.resolve(absolute(path)));
      return e ? statOf(e) : null;
    } catch {
      return null;
    }
  }

  async realpath(path: string): Promise<string> {
    return this.resolve(absolute(path));
  }

  async readdir(path: string): Promise<string[]> {
    const dir = this.resolve(absolute(path));
    const e = this.entries.get(dir);
    if (e?.kind !== "directory") throw new FsError("not_directory", path, `${path} is not a directory`);
    const prefix = dir === "/" ? "/" : `${dir}/`;
    const names: string[] = [];
    for (const key of this.entries.keys()) {
      if (key !== dir && key.startsWith(prefix) && !key.slice(prefix.length).includes("/")) {
        names.push(key.slice(prefix.length));
      }
    }
    return names;
  }

  async readFile(path: string, maxBytes: number): Promise<Uint8Array> {
    const real = this.resolve(absolute(path));
    const e = this.entries.get(real);
    if (!e) throw new FsError("not_found", path, `${path}: no such file or directory`);
    if (e.kind !== "file") throw new FsError("not_regular_file", path, `${path} is not a regular file`);
    if (e.data.length > maxBytes) {
      throw new FsError("too_large", path, `${path} is larger than the limit of ${maxBytes} bytes`);
    }
    return e.data;
  }

  /** Resolve every symlink in `abs`, throwing FsError(not_found | loop). */
  private resolve(abs: string, hops = { n: 0 }): string {
    const parts = abs.split("/").filter((s) => s !== "");
    let current = "/";
    for (let i = 0; i < parts.length; i++) {
      const next = current === "/" ? `/${parts[i]}` : `${current}/${parts[i]}`;
      const e = this.entries.get(next);
      if (!e) throw new FsError("not_found", abs, `${abs}: no such file or directory`);
      if (e.kind === "symlink") {
        if (++hops.n > MAX_LINK_HOPS) throw new FsError("loop", abs, `${abs}: too many levels of symbolic links`);
        const target = e.target.startsWith("/") ? normalizePath(e.target) : joinPath(current, e.target);
        current = this.resolve(target, hops);
      } else {
        current = next;
      }
    }
    return current;
  }

  /** Resolve symlinks in every component but the last (lstat semantics); null if missing. */
  private resolveParents(abs: string): string | null {
    if (abs === "/") return "/";
    try {
      const dir = this.resolve(parentOf(abs));
      const name = abs.slice(abs.lastIndexOf("/") + 1);
      return dir === "/" ? `/${name}` : `${dir}/${name}`;
    } catch {
      return null;
    }
  }
}

function absolute(path: string): string {
  return normalizePath(path.startsWith("/") ? path : `/${path}`);
}

function parentOf(abs: string): string {
  const i = abs.lastIndexOf("/");
  return i <= 0 ? "/" : abs.slice(0, i);
}

function statOf(e: MemoryEntry): FileStat {
  if (e.kind === "file") return { kind: "file", size: e.data.length, executable: e.executable ?? false };
  return { kind: e.kind, size: 0 };
}
