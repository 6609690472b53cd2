/**
 * `yaoc check --cache`: check one package path through the content-addressed result cache.
 *
 * The package is read once into its snapshot, as every check does; the key is computed from that
 * snapshot (src/cache/key.ts), and on a hit the stored result is used as is. On a miss the package is
 * checked from the same snapshot (no second read) and the result stored. Paths whose result could
 * depend on more than the snapshot holds — a missing or dangling path, a snapshot that failed, a
 * file too large to hold, a path that is not a directory or a `.hns` file (a marker file names its
 * parent directory's package) — are checked exactly as without the cache and never stored.
 *
 * The stored result is the one before `--strict` and `--quiet`, which the command applies to hits
 * and fresh checks alike.
 */
import { cacheKey, type CacheContext } from "../cache/key.js";
import type { NodeCacheStore } from "../cache/node-store.js";
import type { PackageFs } from "../fs/package-fs.js";
import { extensionOf } from "../fs/paths.js";
import { canSnapshot, SnapshotFs, type PackageSnapshot, type SnapshotLimits } from "../fs/snapshot.js";
import { NodeFs } from "../fs/node-fs.js";
import { readFileSnapshotSync } from "../cache/node-file-snapshot.js";
import { checkOnePath, type CheckOneOptions } from "./check-one.js";
import type { CachedCheck } from "../cache/entry.js";

/**
 * What the cache's snapshot holds: at most 16 MiB of file bytes, four times the largest HNS package
 * the loader accepts and below every frontend's own snapshot budget (64 MiB for HNS and HCP), whose
 * per-file limits are enforced on read by size, so holding a larger file changes no result. A
 * package beyond it has a file not held and is checked without the cache. (The bound also keeps the
 * read-ahead below to a few such snapshots in memory at once.)
 */
export const CACHE_SNAPSHOT_LIMITS: Partial<SnapshotLimits> = { maxTotalBytes: 16 * 1024 * 1024 };

export interface CacheUse {
  readonly store: NodeCacheStore;
  readonly context: CacheContext;
}

export async function checkCachedPath(
  fs: PackageFs,
  path: string,
  options: CheckOneOptions,
  cache: CacheUse,
  snapshotRead: Promise<PackageSnapshot | null> | PackageSnapshot = readForCache(fs, path),
): Promise<CachedCheck> {
  const snapshot = snapshotRead instanceof Promise ? await snapshotRead.catch(() => null) : snapshotRead;
  if (snapshot === null) return checkOnePath(fs, path, options);
  const keyed = cacheKey(snapshot, cache.context);
  if (!("key" in keyed)) return checkOnePath(fs, path, options);
  const hit = cache.store.get(keyed.key);
  if (hit !== undefined) return hit;
  const fresh = await checkOnePath(new SnapshotFs(snapshot), path, options);
  await cache.store.putSoon(keyed.key, fresh);
  return fresh;
}

/** The snapshot the key is computed from, or null when the path's result could depend on more than one snapshot. */
export async function readForCache(fs: PackageFs, path: string): Promise<PackageSnapshot | null> {
  if (!canSnapshot(fs) || !(await keyablePath(fs, path))) return null;
  return fs.snapshotPackage(path, CACHE_SNAPSHOT_LIMITS);
}

/**
 * Whether `path` is read by `readForCacheSync` first: a `.hns` path on the disk. (Such paths are left
 * out of the read-ahead below; one the synchronous reader declines is read the ordinary way.)
 */
export function syncReadable(fs: PackageFs, path: string): boolean {
  return fs instanceof NodeFs && extensionOf(path) === "hns";
}

/**
 * The snapshot of a single-file package on the disk read synchronously (src/cache/node-file-snapshot.ts:
 * the same snapshot, a few plain system calls instead of a promise and a thread-pool trip each), or
 * null when that reader declines it and `readForCache` must read it. A snapshot from here also
 * answers the command's probe of the path: a regular file that could be opened and read is usable.
 */
export function readForCacheSync(fs: PackageFs, path: string): PackageSnapshot | null {
  return syncReadable(fs, path) ? readFileSnapshotSync(path, CACHE_SNAPSHOT_LIMITS) : null;
}

/**
 * Reads the snapshots of the next few paths while the current one is checked, together with the
 * command's own probe of each path (whether it can be used at all). A hit costs a few file reads and
 * a hash; read one after another, each waiting for the thread pool, a warm run spent most of its
 * time idle (measured: 3.6 of 4.7 s on 2,000 packages on a loaded machine). At most `window`
 * packages are held ahead.
 */
export class SnapshotReadAhead {
  private readonly started = new Map<number, AheadRead>();
  private next = 0;

  constructor(
    private readonly fs: PackageFs,
    /** null where an input is not a path (standard input, a glob with no match). */
    private readonly paths: readonly (string | null)[],
    private readonly probe: (path: string) => Promise<CachedCheck | null>,
    private readonly window = 8,
  ) {}

  /** The probe and snapshot read of `paths[index]`, started now if they were not yet; reads ahead of it. */
  take(index: number): AheadRead {
    const read = this.started.get(index) ?? this.start(index);
    this.started.delete(index);
    this.next = Math.max(this.next, index + 1);
    while (this.next < this.paths.length && this.next <= index + this.window) this.start(this.next++);
    return read;
  }

  private start(index: number): AheadRead {
    const path = this.paths[index];
    const read: AheadRead =
      path == null
        ? { probe: Promise.resolve(null), snapshot: Promise.resolve(null) }
        : { probe: this.probe(path), snapshot: readForCache(this.fs, path) };
    // Consumed (and a failure handled) by whoever takes them.
    read.probe.catch(() => {});
    read.snapshot.catch(() => {});
    this.started.set(index, read);
    return read;
  }
}

/** What is read ahead for one path: the command's probe and the cache's snapshot. */
export interface AheadRead {
  readonly probe: Promise<CachedCheck | null>;
  readonly snapshot: Promise<PackageSnapshot | null>;
}

/** A `.hns` path or a directory: its package is the path itself, all of it inside one snapshot. */
async function keyablePath(fs: PackageFs, path: string): Promise<boolean> {
  if (extensionOf(path) === "hns") return true;
  const st = await fs.stat(path).catch(() => null);
  return st?.kind === "directory";
}
