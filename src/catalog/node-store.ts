/**
 * The Node.js CatalogStore (the only catalog file that imports `node:`), the default catalog
 * directory, and `openCatalog(dir)` for runtimes.
 *
 * Durability and atomicity (docs/catalog.md): every write goes to a fresh temp file in `tmp/`
 * (O_CREAT|O_EXCL), is fsynced and closed, then renamed (replace) or hard-linked (exclusive) into
 * place, and the target directory is fsynced. Readers therefore see a file either absent or whole.
 */
import { constants, promises as fsp } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { Catalog, type CatalogOptions } from "./catalog.js";
import { nonce } from "./layout.js";
import { StoreError, TEMP_DIR, type CatalogStore, type StoreEntry } from "./store.js";

const RETRIES = 5;

export class NodeCatalogStore implements CatalogStore {
  readonly location: string;

  constructor(dir: string) {
    this.location = resolve(dir);
  }

  async read(path: string, maxBytes?: number): Promise<Uint8Array | null> {
    const abs = this.abs(path);
    let handle: fsp.FileHandle;
    try {
      // O_NOFOLLOW: a link in place of a stored file is damage, never followed; O_NONBLOCK: a FIFO never blocks.
      handle = await fsp.open(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (e) {
      if (errno(e) === "ENOENT") return null;
      if (errno(e) === "ELOOP")
        throw new StoreError("not_regular_file", abs, `${abs} is a symbolic link, not a regular file`);
      throw toStoreError(e, abs);
    }
    try {
      const st = await handle.stat();
      if (!st.isFile())
        throw new StoreError("not_regular_file", abs, `${abs} is a ${kindName(st)}, not a regular file`);
      // Size first: a huge (or sparse) file is refused before a byte of it is read.
      if (maxBytes !== undefined && st.size > maxBytes)
        throw new StoreError("too_large", abs, `${abs} has ${st.size} bytes; at most ${maxBytes} are expected`);
      const limit = maxBytes ?? st.size;
      const buf = new Uint8Array(Math.min(st.size, limit) + 1);
      let filled = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buf, filled, buf.length - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
        if (filled === buf.length) {
          if (maxBytes !== undefined && filled > maxBytes)
            throw new StoreError("too_large", abs, `${abs} grew past ${maxBytes} bytes while being read`);
          if (maxBytes === undefined) return new Uint8Array(await readAllFrom(handle, buf, filled));
          break;
        }
      }
      return buf.slice(0, filled);
    } catch (e) {
      throw toStoreError(e, abs);
    } finally {
      await handle.close().catch(() => undefined);
    }
  }

  async writeAtomic(path: string, data: Uint8Array): Promise<void> {
    const target = this.abs(path);
    await this.mkdirs(dirname(target));
    for (let attempt = 1; ; attempt++) {
      const tmp = await this.writeTemp(data);
      try {
        await fsp.rename(tmp, target);
      } catch (e) {
        await unlinkQuietly(tmp);
        // A gc with a zero grace period may have removed our temp file: write it again.
        if (errno(e) === "ENOENT" && attempt < RETRIES) continue;
        // A directory where a stored file belongs is damage: remove it (never following links) and retry.
        if (["EISDIR", "ENOTEMPTY", "EEXIST", "ENOTDIR"].includes(errno(e) ?? "") && attempt < RETRIES) {
          await fsp.rm(target, { recursive: true, force: true }).catch(() => undefined);
          continue;
        }
        throw toStoreError(e, target);
      }
      await fsyncDir(dirname(target));
      return;
    }
  }

  async createExclusive(path: string, data: Uint8Array): Promise<boolean> {
    const target = this.abs(path);
    await this.mkdirs(dirname(target));
    for (let attempt = 1; ; attempt++) {
      const tmp = await this.writeTemp(data);
      try {
        // link(2) fails with EEXIST if anything is at target: the atomic "create if absent" that
        // publishes a file already complete and durable. No lock file is involved.
        await fsp.link(tmp, target);
      } catch (e) {
        await unlinkQuietly(tmp);
        if (errno(e) === "EEXIST") return false;
        if (errno(e) === "ENOENT" && attempt < RETRIES) continue;
        throw await this.writeError(e, target);
      }
      await unlinkQuietly(tmp);
      await fsyncDir(dirname(target));
      return true;
    }
  }

  async list(dir: string): Promise<StoreEntry[]> {
    const abs = this.abs(dir);
    let names: string[];
    try {
      names = await fsp.readdir(abs);
    } catch (e) {
      if (errno(e) === "ENOENT") return [];
      throw toStoreError(e, abs);
    }
    const out: StoreEntry[] = [];
    for (const name of names) {
      try {
        const st = await fsp.lstat(join(abs, name));
        if (st.isFile()) out.push({ name, mtimeMs: st.mtimeMs });
      } catch (e) {
        if (errno(e) !== "ENOENT") throw toStoreError(e, join(abs, name));
      }
    }
    return out;
  }

  async listRoot(): Promise<string[]> {
    try {
      return await fsp.readdir(this.location);
    } catch (e) {
      if (errno(e) === "ENOENT") return [];
      throw toStoreError(e, this.location);
    }
  }

  async remove(path: string): Promise<boolean> {
    const abs = this.abs(path);
    try {
      await fsp.unlink(abs);
      return true;
    } catch (e) {
      if (errno(e) === "ENOENT") return false;
      throw await this.writeError(e, abs);
    }
  }

  async rename(from: string, to: string): Promise<boolean> {
    const src = this.abs(from);
    const dst = this.abs(to);
    await this.mkdirs(dirname(dst));
    try {
      await fsp.rename(src, dst);
    } catch (e) {
      if (errno(e) === "ENOENT") return false;
      throw await this.writeError(e, src);
    }
    await fsyncDir(dirname(dst));
    if (dirname(src) !== dirname(dst)) await fsyncDir(dirname(src));
    return true;
  }

  /**
   * A failed write: when the catalog directory itself cannot be written (read-only mount, no write
   * permission) say exactly that, whatever errno the first failing call happened to report.
   */
  private async writeError(e: unknown, path: string): Promise<StoreError> {
    const code = errno(e);
    let readOnly = code === "EROFS";
    if (!readOnly && code !== "ENOSPC" && code !== "EDQUOT") {
      readOnly = await fsp.access(this.location, constants.W_OK).then(
        () => false,
        (a: unknown) => errno(a) === "EACCES" || errno(a) === "EROFS" || errno(a) === "EPERM",
      );
    }
    if (readOnly)
      return new StoreError(
        "read_only",
        this.location,
        `the catalog ${this.location} is read-only (${code ?? "error"} writing ${path})`,
      );
    return toStoreError(e, path);
  }

  private abs(path: string): string {
    // One joined string rather than a spread of the segments (join normalises either way).
    return join(
      this.location,
      path
        .split("/")
        .filter((s) => s !== "")
        .join("/"),
    );
  }

  private async writeTemp(data: Uint8Array): Promise<string> {
    const dir = this.abs(TEMP_DIR);
    await this.mkdirs(dir);
    const tmp = join(dir, `${nonce()}.tmp`);
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(
        tmp,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o644,
      );
    } catch (e) {
      throw await this.writeError(e, tmp);
    }
    try {
      await handle.writeFile(data);
      await handle.sync();
    } catch (e) {
      await handle.close().catch(() => undefined);
      await unlinkQuietly(tmp);
      throw toStoreError(e, tmp);
    }
    await handle.close();
    return tmp;
  }

  /** mkdir -p, fsyncing the parents of any directory it created so the new entries are durable. */
  private async mkdirs(dir: string): Promise<void> {
    let first: string | undefined;
    try {
      first = await fsp.mkdir(dir, { recursive: true });
    } catch (e) {
      throw await this.writeError(e, dir);
    }
    if (first === undefined) return;
    for (let d = dir; ; d = dirname(d)) {
      await fsyncDir(dirname(d));
      if (d === first || dirname(d) === d) break;
    }
  }
}

/**
 * The default catalog directory: `YAOC_CATALOG`, else `$XDG_DATA_HOME/yaoc/catalog` (an absolute
 * XDG_DATA_HOME only, as the XDG spec requires), else `~/.local/share/yaoc/catalog`.
 */
export function defaultCatalogDir(
  env: Readonly<Record<string, string | undefined>> = process.env,
  home: string = homedir(),
): string {
  const explicit = env.YAOC_CATALOG;
  if (explicit !== undefined && explicit !== "") return explicit;
  const xdg = env.XDG_DATA_HOME;
  if (xdg !== undefined && xdg !== "" && isAbsolute(xdg)) return join(xdg, "yaoc", "catalog");
  return join(home, ".local", "share", "yaoc", "catalog");
}

/** Open the catalog in `dir` (default: defaultCatalogDir()). Nothing is created until the first install. */
export function openCatalog(dir: string = defaultCatalogDir(), options: CatalogOptions = {}): Catalog {
  return new Catalog(new NodeCatalogStore(dir), options);
}

async function fsyncDir(dir: string): Promise<void> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(dir, constants.O_RDONLY);
    await handle.sync();
  } catch (e) {
    // Some platforms and file systems cannot fsync a directory; the rename itself is still atomic.
    if (!["EISDIR", "EINVAL", "EPERM", "EBADF", "ENOTSUP"].includes(errno(e) ?? "")) throw toStoreError(e, dir);
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

function kindName(st: import("node:fs").Stats): string {
  if (st.isDirectory()) return "directory";
  if (st.isFIFO()) return "FIFO (named pipe)";
  if (st.isSocket()) return "socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "device";
  return "special file";
}

async function readAllFrom(handle: fsp.FileHandle, buf: Uint8Array, filled: number): Promise<Uint8Array> {
  for (;;) {
    if (filled === buf.length) {
      const bigger = new Uint8Array(buf.length * 2);
      bigger.set(buf);
      buf = bigger;
    }
    const { bytesRead } = await handle.read(buf, filled, buf.length - filled, filled);
    if (bytesRead === 0) return buf.slice(0, filled);
    filled += bytesRead;
  }
}

async function unlinkQuietly(path: string): Promise<void> {
  await fsp.unlink(path).catch(() => undefined);
}

function errno(e: unknown): string | undefined {
  return typeof e === "object" && e !== null && "code" in e ? String((e as { code: unknown }).code) : undefined;
}

function toStoreError(e: unknown, path: string): StoreError {
  if (e instanceof StoreError) return e;
  const code = errno(e);
  const reason = e instanceof Error ? e.message : String(e);
  if (code === "EACCES" || code === "EPERM" || code === "EROFS")
    return new StoreError("permission_denied", path, `cannot write ${path}: ${reason}`);
  if (code === "ENOTDIR" || code === "EEXIST")
    return new StoreError("not_directory", path, `${path}: a path component is not a directory (${reason})`);
  return new StoreError("io", path, `${path}: ${reason}`);
}
