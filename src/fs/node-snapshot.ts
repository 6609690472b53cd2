/**
 * The Node.js package reader: fills a `PackageSnapshot` (src/fs/snapshot.ts) from disk so that no
 * symbolic link, swapped directory or FIFO can redirect or block a read (docs/architecture.md,
 * "File access"). Node has no `openat`, so:
 *
 * - the root is resolved with `realpath` once, opened with O_NOFOLLOW, and the descriptor is
 *   confirmed to be that directory (Linux: `/proc/self/fd/N` reads back the same path; elsewhere:
 *   its device/inode equal the `lstat` of the path);
 * - on Linux every directory is then held open and its children are reached as
 *   `/proc/self/fd/<dir fd>/<name>`: the kernel resolves the magic link to exactly the open
 *   directory, so the only name looked up is the last one, and that is opened with O_NOFOLLOW —
 *   the same guarantee as `openat(dirfd, name, O_NOFOLLOW)`. A directory swapped for a symlink
 *   after it was opened changes nothing; one swapped before is seen by `lstat` as a link and
 *   recorded as a link (never followed);
 * - every opened descriptor is `fstat`ed and must have the kind and device/inode the walk's
 *   `lstat` saw; a mismatch means the entry changed while being read, and the read is retried a few
 *   times, then refused. Files are opened with O_NONBLOCK, so a FIFO swapped in never blocks;
 * - without `/proc/self/fd` (macOS, BSD), children are reached by full path, still opened with
 *   O_NOFOLLOW and checked by device/inode against the walk, and every directory is re-checked
 *   after it is listed; symbolic links are recorded, never followed.
 *
 * Names are read as raw bytes (`readdir` with `encoding: "buffer"`) and surrogate-escaped, so a
 * name that is not UTF-8 is neither lost nor merged with another.
 */
import { constants, promises as fsp, type Stats } from "node:fs";
import { resolve as resolvePath } from "node:path";
import { FsError, type FileKind, type FsErrorCode } from "./package-fs.js";
import { decodeName, encodeName } from "./names.js";
import { kindOf } from "./file-kind.js";
import {
  DEFAULT_SNAPSHOT_LIMITS,
  freezeSnapshot,
  metadataOverLimit,
  type PackageSnapshot,
  type SnapshotEntry,
  type SnapshotLimits,
} from "./snapshot.js";

const RETRIES = 3;
const OPEN_FILE = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const OPEN_DIR = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_DIRECTORY | constants.O_NONBLOCK;

class SnapshotAbort extends Error {
  constructor(
    readonly code: FsErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Read the package at `requested` (a directory or a single file) into a frozen snapshot. */
export async function readPackageSnapshot(
  requested: string,
  overrides: Partial<SnapshotLimits> = {},
): Promise<PackageSnapshot> {
  const limits: SnapshotLimits = { ...DEFAULT_SNAPSHOT_LIMITS, ...overrides };
  const abs = resolvePath(requested);
  const base = { requested, root: abs, entries: new Map<string, SnapshotEntry>(), failure: null };
  let lst: Stats;
  try {
    lst = await fsp.lstat(pathArg(abs));
  } catch (e) {
    if (isMissing(e)) return freezeSnapshot({ ...base, rootState: "missing" });
    return freezeSnapshot({ ...base, rootState: "present", failure: failureOf(e, abs) });
  }
  let root = abs;
  if (lst.isSymbolicLink()) {
    try {
      root = await fsp.realpath(pathArg(abs));
    } catch (e) {
      if (isMissing(e) || errno(e) === "ELOOP") return freezeSnapshot({ ...base, rootState: "dangling" });
      return freezeSnapshot({ ...base, rootState: "present", failure: failureOf(e, abs) });
    }
  } else {
    try {
      root = await fsp.realpath(pathArg(abs));
    } catch (e) {
      return freezeSnapshot({ ...base, rootState: "present", failure: failureOf(e, abs) });
    }
  }
  // The metadata first: a tree over a limit by its entry count, depth or file sizes is refused
  // before any content is read (a folder of huge sparse files costs a listing, not gigabytes).
  const over = await metadataProblem(root, limits);
  if (over !== null)
    return freezeSnapshot({ requested, root, entries: new Map(), rootState: "present", failure: over });
  const reader = new Reader(root, limits);
  try {
    await reader.readRoot();
    return freezeSnapshot({ requested, root, entries: reader.entries, rootState: "present", failure: null });
  } catch (e) {
    const failure = e instanceof SnapshotAbort ? { code: e.code, message: e.message } : failureOf(e, root);
    return freezeSnapshot({ requested, root, entries: new Map(), rootState: "present", failure });
  }
}

/**
 * The first limit the tree at `root` passes by its metadata alone (`lstat` and listings, no file
 * opened), in the reader's own words; null when within every limit. Advisory: the reading walk
 * that follows still enforces each limit on what it actually opens, so a tree that changes
 * between the two walks gains nothing. What cannot be listed here is left to that walk to report.
 */
async function metadataProblem(
  root: string,
  limits: SnapshotLimits,
): Promise<{ code: FsErrorCode; message: string } | null> {
  const display = (rel: string) => (rel === "" ? root : `${root}/${rel}`);
  const top = await fsp.lstat(pathArg(root)).catch(() => null);
  if (top === null) return null;
  if (top.isFile()) {
    const over = metadataOverLimit(top.size <= limits.maxFileBytes ? top.size : 0, limits);
    return over === null ? null : { code: "too_large", message: over };
  }
  if (!top.isDirectory()) return null;
  let count = 1;
  let bytes = 0;
  const stack: { path: Buffer; rel: string; depth: number }[] = [
    { path: Buffer.from(pathArg(root)), rel: "", depth: 0 },
  ];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    if (dir.depth >= limits.maxDepth)
      return {
        code: "too_large",
        message: `${display(dir.rel)}: directories nest more than ${limits.maxDepth} levels deep`,
      };
    let names: Buffer[];
    try {
      names = await fsp.readdir(dir.path, { encoding: "buffer" });
    } catch {
      continue;
    }
    for (const nameBytes of names) {
      if (++count > limits.maxEntries)
        return { code: "too_large", message: `the package has more than ${limits.maxEntries} entries` };
      const childPath = Buffer.concat([dir.path, SLASH, nameBytes]);
      const st = await fsp.lstat(childPath).catch(() => null);
      if (st === null) continue;
      const rel = dir.rel === "" ? decodeName(nameBytes) : `${dir.rel}/${decodeName(nameBytes)}`;
      if (st.isFile()) {
        if (st.size <= (limits.fileLimits?.get(rel) ?? limits.maxFileBytes)) bytes += st.size;
      } else if (st.isDirectory()) stack.push({ path: childPath, rel, depth: dir.depth + 1 });
    }
  }
  const over = metadataOverLimit(bytes, limits);
  return over === null ? null : { code: "too_large", message: over };
}

const SLASH = Buffer.from("/");

interface DirHandle {
  readonly handle: fsp.FileHandle;
  /** How children are named: `/proc/self/fd/N/` on Linux, the directory's full path elsewhere (raw bytes). */
  readonly prefix: Buffer;
  readonly rel: string;
  readonly dev: number;
  readonly ino: number;
}

class Reader {
  readonly entries = new Map<string, SnapshotEntry>();
  private totalBytes = 0;
  private procFd: boolean | null = null;

  constructor(
    private readonly root: string,
    private readonly limits: SnapshotLimits,
  ) {}

  async readRoot(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const st = await lstatOrNull(this.root);
      if (st === null) throw new SnapshotAbort("not_found", `${this.root} disappeared while it was being opened`);
      if (st.isDirectory()) {
        const dir = await this.openDir(this.root, "", st);
        if (dir === "changed") {
          if (attempt < RETRIES) continue;
          throw changed(this.root);
        }
        try {
          // The root's canonical path must read back from its descriptor: nothing between realpath
          // and open redirected it.
          if (this.procFd && (await fsp.readlink(`/proc/self/fd/${dir.handle.fd}`)) !== this.root) {
            if (attempt < RETRIES) continue;
            throw changed(this.root);
          }
          this.entries.set("", { kind: "directory", path: "" });
          await this.walk(dir, 0);
        } finally {
          await dir.handle.close();
        }
        return;
      }
      if (st.isFile()) {
        const file = await this.readFileEntry(this.root, "", st);
        if (file === "changed") {
          if (attempt < RETRIES) continue;
          throw changed(this.root);
        }
        this.entries.set("", file);
        return;
      }
      this.entries.set("", { kind: kindOf(st) as Exclude<FileKind, "file" | "symlink" | "directory">, path: "" });
      return;
    }
  }

  private async walk(dir: DirHandle, depth: number): Promise<void> {
    if (depth >= this.limits.maxDepth)
      throw new SnapshotAbort(
        "too_large",
        `${this.display(dir.rel)}: directories nest more than ${this.limits.maxDepth} levels deep`,
      );
    let raw: Buffer[];
    try {
      raw = await fsp.readdir(dirPathArg(dir.prefix), { encoding: "buffer" });
    } catch (e) {
      throw new SnapshotAbort(codeOf(e), `cannot list ${this.display(dir.rel)}: ${messageOf(e)}`);
    }
    raw.sort(Buffer.compare);
    for (const nameBytes of raw) {
      if (this.entries.size >= this.limits.maxEntries)
        throw new SnapshotAbort("too_large", `the package has more than ${this.limits.maxEntries} entries`);
      const name = decodeName(nameBytes);
      const rel = dir.rel === "" ? name : `${dir.rel}/${name}`;
      const childPath = Buffer.concat([dir.prefix, nameBytes]);
      await this.readChild(childPath, rel, depth);
    }
    if (!this.procFd) {
      // Without a descriptor-relative path the listing went through the full path: the directory
      // must still be the one we opened.
      const now = await lstatOrNull(dirPathArg(dir.prefix));
      if (now === null || !now.isDirectory() || now.dev !== dir.dev || now.ino !== dir.ino)
        throw changed(this.display(dir.rel));
    }
  }

  private async readChild(childPath: Buffer, rel: string, depth: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const st = await lstatOrNull(childPath);
      if (st === null) return; // removed while walking: not part of the package
      if (st.isSymbolicLink()) {
        let target: Buffer;
        try {
          target = await fsp.readlink(childPath, { encoding: "buffer" });
        } catch (e) {
          if (isMissing(e) || errno(e) === "EINVAL") {
            if (attempt < RETRIES) continue;
            throw changed(this.display(rel));
          }
          throw new SnapshotAbort(codeOf(e), `cannot read the link ${this.display(rel)}: ${messageOf(e)}`);
        }
        this.entries.set(rel, { kind: "symlink", path: rel, target: decodeName(target) });
        return;
      }
      if (st.isDirectory()) {
        const child = await this.openDir(childPath, rel, st);
        if (child === "changed") {
          if (attempt < RETRIES) continue;
          throw changed(this.display(rel));
        }
        try {
          this.entries.set(rel, { kind: "directory", path: rel });
          await this.walk(child, depth + 1);
        } finally {
          await child.handle.close();
        }
        return;
      }
      if (st.isFile()) {
        const file = await this.readFileEntry(childPath, rel, st);
        if (file === "changed") {
          if (attempt < RETRIES) continue;
          throw changed(this.display(rel));
        }
        this.entries.set(rel, file);
        return;
      }
      this.entries.set(rel, { kind: kindOf(st) as Exclude<FileKind, "file" | "symlink" | "directory">, path: rel });
      return;
    }
  }

  /** Open a directory the walk saw as `st`; "changed" when what opened is not that directory. */
  private async openDir(path: string | Buffer, rel: string, st: Stats): Promise<DirHandle | "changed"> {
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(path, OPEN_DIR);
    } catch (e) {
      if (isMissing(e) || errno(e) === "ELOOP" || errno(e) === "ENOTDIR") return "changed";
      throw new SnapshotAbort(codeOf(e), `cannot open ${this.display(rel)}: ${messageOf(e)}`);
    }
    const fst = await handle.stat();
    if (!fst.isDirectory() || fst.dev !== st.dev || fst.ino !== st.ino) {
      await handle.close();
      return "changed";
    }
    if (this.procFd === null) this.procFd = await procFdWorks(handle.fd);
    const prefix = this.procFd
      ? Buffer.from(`/proc/self/fd/${handle.fd}/`)
      : Buffer.concat([typeof path === "string" ? Buffer.from(path) : path, Buffer.from("/")]);
    return { handle, prefix, rel, dev: fst.dev, ino: fst.ino };
  }

  /** Read a regular file the walk saw as `st`; "changed" when what opened is not that file. */
  private async readFileEntry(path: string | Buffer, rel: string, st: Stats): Promise<SnapshotEntry | "changed"> {
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(path, OPEN_FILE);
    } catch (e) {
      if (isMissing(e) || errno(e) === "ELOOP") return "changed";
      const code = codeOf(e);
      if (code === "permission_denied" || code === "io") {
        // An unreadable file is still an entry: the frontend that needs it reports the error.
        return {
          kind: "file",
          path: rel,
          size: st.size,
          executable: (st.mode & 0o111) !== 0,
          bytes: null,
          error: { code, message: `${this.display(rel)}: ${messageOf(e)}` },
        };
      }
      throw new SnapshotAbort(code, `cannot open ${this.display(rel)}: ${messageOf(e)}`);
    }
    try {
      const fst = await handle.stat();
      if (!fst.isFile() || fst.dev !== st.dev || fst.ino !== st.ino) return "changed";
      const executable = (fst.mode & 0o111) !== 0;
      const maxFileBytes = this.limits.fileLimits?.get(rel) ?? this.limits.maxFileBytes;
      if (fst.size > maxFileBytes) {
        return {
          kind: "file",
          path: rel,
          size: fst.size,
          executable,
          bytes: null,
          error: {
            code: "too_large",
            message: `${this.display(rel)} has ${fst.size} bytes; the limit is ${maxFileBytes}`,
          },
        };
      }
      if (this.totalBytes + fst.size > this.limits.maxTotalBytes) {
        return {
          kind: "file",
          path: rel,
          size: fst.size,
          executable,
          bytes: null,
          error: {
            code: "too_large",
            message: `${this.display(rel)} was not read: the package holds more than ${this.limits.maxTotalBytes} bytes`,
          },
        };
      }
      const bytes = await readBounded(handle, fst.size, maxFileBytes);
      if (bytes === null)
        return {
          kind: "file",
          path: rel,
          size: maxFileBytes + 1,
          executable,
          bytes: null,
          error: {
            code: "too_large",
            message: `${this.display(rel)} grew past ${maxFileBytes} bytes while being read`,
          },
        };
      this.totalBytes += bytes.length;
      return { kind: "file", path: rel, size: bytes.length, executable, bytes };
    } finally {
      await handle.close();
    }
  }

  private display(rel: string): string {
    return rel === "" ? this.root : `${this.root}/${rel}`;
  }
}

/** Read at most `max` bytes; null when the file holds more (it grew after fstat). */
async function readBounded(handle: fsp.FileHandle, size: number, max: number): Promise<Uint8Array | null> {
  const buf = new Uint8Array(Math.min(size, max) + 1);
  let filled = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buf, filled, buf.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
    if (filled > max) return null;
    if (filled === buf.length) {
      // The file is longer than fstat said: read on in bounded steps.
      if (buf.length > max) return null;
      const bigger = new Uint8Array(Math.min(buf.length * 2, max + 1));
      bigger.set(buf);
      return readRest(handle, bigger, filled, max);
    }
  }
  return buf.subarray(0, filled);
}

async function readRest(
  handle: fsp.FileHandle,
  buf: Uint8Array,
  filled: number,
  max: number,
): Promise<Uint8Array | null> {
  for (;;) {
    const { bytesRead } = await handle.read(buf, filled, buf.length - filled, filled);
    if (bytesRead === 0) return buf.subarray(0, filled);
    filled += bytesRead;
    if (filled > max) return null;
    if (filled === buf.length) {
      const bigger = new Uint8Array(Math.min(buf.length * 2, max + 1));
      bigger.set(buf);
      buf = bigger;
    }
  }
}

async function procFdWorks(fd: number): Promise<boolean> {
  if (process.platform !== "linux") return false;
  try {
    await fsp.readlink(`/proc/self/fd/${fd}`);
    return true;
  } catch {
    return false;
  }
}

/** A directory prefix (ending in "/") as the directory's own path. */
function dirPathArg(prefix: Buffer): Buffer {
  return prefix.length > 1 ? prefix.subarray(0, prefix.length - 1) : prefix;
}

/** Paths that hold escaped (non-UTF-8) names are passed to Node as their raw bytes. */
export function pathArg(path: string): string | Buffer {
  return /[\udc80-\udcff]/u.test(path) ? Buffer.from(encodeName(path)) : path;
}

async function lstatOrNull(path: string | Buffer): Promise<Stats | null> {
  try {
    return await fsp.lstat(path);
  } catch (e) {
    if (isMissing(e)) return null;
    throw new SnapshotAbort(codeOf(e), `cannot inspect ${String(path)}: ${messageOf(e)}`);
  }
}

function changed(where: string): SnapshotAbort {
  return new SnapshotAbort(
    "io",
    `${where} kept changing while it was being read (a directory or file was replaced during the read); nothing from it was used — try again when the package is not being modified`,
  );
}

function errno(e: unknown): string | undefined {
  return typeof e === "object" && e !== null && "code" in e ? String((e as { code: unknown }).code) : undefined;
}

function isMissing(e: unknown): boolean {
  const c = errno(e);
  return c === "ENOENT" || c === "ENOTDIR";
}

function codeOf(e: unknown): FsErrorCode {
  switch (errno(e)) {
    case "ENOENT":
    case "ENOTDIR":
      return "not_found";
    case "EACCES":
    case "EPERM":
      return "permission_denied";
    case "ELOOP":
      return "loop";
    default:
      return "io";
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function failureOf(e: unknown, path: string): { code: FsErrorCode; message: string } {
  if (e instanceof FsError) return { code: e.code, message: e.message };
  const code = codeOf(e);
  return { code, message: code === "permission_denied" ? `${path}: permission denied` : `${path}: ${messageOf(e)}` };
}
