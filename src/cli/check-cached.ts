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
import { canSnapshot, SnapshotFs, type SnapshotLimits } from "../fs/snapshot.js";
import { checkOnePath, type CheckOneOptions } from "./check-one.js";
import type { CachedCheck } from "../cache/entry.js";

/**
 * What the cache's snapshot holds: at most 64 MiB of file bytes, the most any frontend's own snapshot
 * holds (HNS and HCP; their per-file limits are enforced on read by size, so holding a larger file
 * changes no result). A package beyond it has a file not held and is checked without the cache.
 */
export const CACHE_SNAPSHOT_LIMITS: Partial<SnapshotLimits> = { maxTotalBytes: 64 * 1024 * 1024 };

export interface CacheUse {
  readonly store: NodeCacheStore;
  readonly context: CacheContext;
}

export async function checkCachedPath(
  fs: PackageFs,
  path: string,
  options: CheckOneOptions,
  cache: CacheUse,
): Promise<CachedCheck> {
  if (!canSnapshot(fs) || !(await keyablePath(fs, path))) return checkOnePath(fs, path, options);
  const snapshot = await fs.snapshotPackage(path, CACHE_SNAPSHOT_LIMITS);
  const keyed = cacheKey(snapshot, cache.context);
  if (!("key" in keyed)) return checkOnePath(fs, path, options);
  const hit = cache.store.get(keyed.key);
  if (hit !== undefined) return hit;
  const fresh = await checkOnePath(new SnapshotFs(snapshot), path, options);
  cache.store.put(keyed.key, fresh);
  return fresh;
}

/** A `.hns` path or a directory: its package is the path itself, all of it inside one snapshot. */
async function keyablePath(fs: PackageFs, path: string): Promise<boolean> {
  if (extensionOf(path) === "hns") return true;
  const st = await fs.stat(path).catch(() => null);
  return st?.kind === "directory";
}
