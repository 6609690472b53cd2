/**
 * A synchronous reader for the commonest package of a registry, a single regular `.hns` file, used
 * only to compute a cache key (Node adapter). A warm `yaoc check --cache` does almost nothing per
 * package but read it and hash it, and through `fs.promises` each of the reader's eight or so calls
 * is a promise and a trip through the thread pool: in a CPU profile of a warm run over 2,000
 * packages those calls were most of the main thread's time, and the futex wake-ups behind them most
 * of the system time. Done synchronously they are plain system calls.
 *
 * It gives exactly the snapshot src/fs/node-snapshot.ts gives for such a file (the same root, the
 * same single entry with the same size, execute bit and bytes: test/cache/node-file-snapshot.test.ts)
 * and the same guarantees: the root is resolved once with `realpath`, the file opened with
 * O_NOFOLLOW | O_NONBLOCK (a link or FIFO swapped in is never followed nor blocks) and only what the
 * open descriptor's `fstat` shows to be a regular file is read. (The full reader also compares that
 * `fstat` with an `lstat` of the root taken before the open, which matters for its walk of a
 * directory; for a lone file the descriptor's own `fstat` says all it can. Leaving out the two
 * `lstat`s halved this reader's time.) Anything else — a directory, a link, a special
 * file, a name that is not UTF-8, a file over a limit, one that changed or grew while being read, any
 * error — returns null, and the caller uses the full reader, which has the words for all of those.
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import {
  DEFAULT_SNAPSHOT_LIMITS,
  freezeSnapshot,
  type PackageSnapshot,
  type SnapshotEntry,
  type SnapshotLimits,
} from "../fs/snapshot.js";

const OPEN_FILE = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** The snapshot of the regular file at `requested`, or null when the full reader must take it. */
export function readFileSnapshotSync(
  requested: string,
  overrides: Partial<SnapshotLimits> = {},
): PackageSnapshot | null {
  const limits: SnapshotLimits = { ...DEFAULT_SNAPSHOT_LIMITS, ...overrides };
  const abs = resolvePath(requested);
  // Escaped non-UTF-8 names and per-file limits are the full reader's business.
  if (/[\ud800-\udfff]/u.test(abs) || limits.fileLimits !== undefined) return null;
  try {
    // The same call as fs.promises.realpath (libuv's realpath), so the same root; a link named on
    // the command line resolves here exactly as in the full reader, which then reads its target.
    const root = realpathSync.native(abs);
    // O_NOFOLLOW: the canonical path's last component is opened as what it is; fstat of the open
    // descriptor is the check (a regular file, within the limits), as the full reader's is.
    const fd = openSync(root, OPEN_FILE);
    try {
      const fst = fstatSync(fd);
      if (!fst.isFile() || fst.size > limits.maxFileBytes || fst.size > limits.maxTotalBytes) return null;
      const bytes = readExactly(fd, fst.size);
      if (bytes === null) return null;
      const entry: SnapshotEntry = {
        kind: "file",
        path: "",
        size: bytes.length,
        executable: (fst.mode & 0o111) !== 0,
        bytes,
      };
      return freezeSnapshot({
        requested,
        root,
        entries: new Map([["", entry]]),
        rootState: "present",
        failure: null,
      });
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

/**
 * The file's bytes when it holds at most `size` of them (fstat's size; fewer if it shrank), or null
 * when it holds more: it grew after fstat, and the full reader's bounded read decides what that means.
 */
function readExactly(fd: number, size: number): Uint8Array | null {
  const buf = new Uint8Array(size + 1);
  let filled = 0;
  for (;;) {
    const n = readSync(fd, buf, filled, buf.length - filled, filled);
    if (n === 0) break;
    filled += n;
    if (filled > size) return null;
  }
  return buf.subarray(0, filled);
}
