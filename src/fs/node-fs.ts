/**
 * The Node.js `PackageFs` adapter (the only file of the core's file access that imports `node:`).
 * Regular files are opened with O_NOFOLLOW | O_NONBLOCK and checked with fstat before any read, so
 * a FIFO or device swapped in after the caller's checks is still never read from, and reads stop
 * as soon as the byte limit is passed.
 */
import { constants, promises as fsp, type Stats } from "node:fs";
import { resolve as resolvePath } from "node:path";
import { FsError, type FileStat, type PackageFs } from "./package-fs.js";
import { decodeName } from "./names.js";
import { kindOf } from "./file-kind.js";
import { pathArg, readPackageSnapshot } from "./node-snapshot.js";
import type { PackageSnapshot, SnapshotLimits, SnapshotSource } from "./snapshot.js";

export class NodeFs implements PackageFs, SnapshotSource {
  /** Read a whole package once (src/fs/node-snapshot.ts); frontends then check the snapshot. */
  snapshotPackage(path: string, limits?: Partial<SnapshotLimits>): Promise<PackageSnapshot> {
    return readPackageSnapshot(path, limits);
  }

  async lstat(path: string): Promise<FileStat | null> {
    try {
      return toStat(await fsp.lstat(pathArg(path)));
    } catch (e) {
      if (isMissing(e)) return null;
      throw toFsError(e, path);
    }
  }

  async stat(path: string): Promise<FileStat | null> {
    try {
      return toStat(await fsp.stat(pathArg(path)));
    } catch (e) {
      if (isMissing(e) || code(e) === "ELOOP") return null;
      throw toFsError(e, path);
    }
  }

  async realpath(path: string): Promise<string> {
    try {
      return decodeName(await fsp.realpath(pathArg(resolvePath(path)), { encoding: "buffer" }));
    } catch (e) {
      throw toFsError(e, path);
    }
  }

  async readdir(path: string): Promise<string[]> {
    try {
      // Raw bytes, surrogate-escaped: a lossy decode would merge distinct non-UTF-8 names.
      return (await fsp.readdir(pathArg(path), { encoding: "buffer" })).map((b) => decodeName(b));
    } catch (e) {
      throw toFsError(e, path);
    }
  }

  async readFile(path: string, maxBytes: number): Promise<Uint8Array> {
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(pathArg(path), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (e) {
      if (code(e) === "ELOOP") throw new FsError("not_regular_file", path, `${path} is a symbolic link`);
      throw toFsError(e, path);
    }
    try {
      const st = await handle.stat();
      if (!st.isFile()) {
        throw new FsError("not_regular_file", path, `${path} is a ${kindOf(st)}, not a regular file`);
      }
      if (st.size > maxBytes) {
        throw new FsError("too_large", path, `${path} has ${st.size} bytes; the limit is ${maxBytes}`);
      }
      // Read to the end in bounded steps, never past maxBytes + 1: a file that grows after fstat, or
      // one that reports no size (procfs), is read exactly or refused, never cut short.
      // The reported size and one byte more (to see growth); 4 KiB steps for a file reporting none.
      let buf = new Uint8Array(Math.min(st.size > 0 ? st.size : 4096, maxBytes) + 1);
      let filled = 0;
      for (;;) {
        if (filled === buf.length) {
          if (buf.length > maxBytes)
            throw new FsError("too_large", path, `${path} is larger than the limit of ${maxBytes} bytes`);
          const bigger = new Uint8Array(Math.min(buf.length * 2, maxBytes + 1));
          bigger.set(buf);
          buf = bigger;
        }
        const { bytesRead } = await handle.read(buf, filled, buf.length - filled, null);
        if (bytesRead === 0) break;
        filled += bytesRead;
        if (filled > maxBytes)
          throw new FsError("too_large", path, `${path} is larger than the limit of ${maxBytes} bytes`);
      }
      // A size that changed between fstat and the end of the read: the bytes are of no one moment.
      if (st.size !== 0 && filled !== st.size)
        throw new FsError(
          "io",
          path,
          `${path} changed size while it was being read (${st.size} bytes, then ${filled}); try again when it is not being written`,
        );
      // Only the bytes read are kept: a view into a larger buffer holds all of it for as long as the
      // caller keeps the file, and the language server's cache keeps thousands (a 4 KiB buffer
      // under each 130-byte manifest grew the server by 4 MiB per 1,000 packages).
      return filled + 1 === buf.length ? buf.subarray(0, filled) : buf.slice(0, filled);
    } catch (e) {
      throw e instanceof FsError ? e : toFsError(e, path);
    } finally {
      await handle.close();
    }
  }
}

function toStat(st: Stats): FileStat {
  return { kind: kindOf(st), size: st.size, executable: (st.mode & 0o111) !== 0 };
}

function code(e: unknown): string | undefined {
  return typeof e === "object" && e !== null && "code" in e ? String((e as { code: unknown }).code) : undefined;
}

function isMissing(e: unknown): boolean {
  const c = code(e);
  return c === "ENOENT" || c === "ENOTDIR";
}

function toFsError(e: unknown, path: string): FsError {
  const c = code(e);
  const detail = e instanceof Error ? e.message : String(e);
  switch (c) {
    case "ENOENT":
    case "ENOTDIR":
      return new FsError("not_found", path, `${path}: no such file or directory`);
    case "EACCES":
    case "EPERM":
      return new FsError("permission_denied", path, `${path}: permission denied`);
    case "ELOOP":
      return new FsError("loop", path, `${path}: too many levels of symbolic links`);
    case "EISDIR":
      return new FsError("not_regular_file", path, `${path} is a directory, not a regular file`);
    default:
      return new FsError("io", path, `${path}: ${detail}`);
  }
}
