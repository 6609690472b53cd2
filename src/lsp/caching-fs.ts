/**
 * A `PackageFs` that remembers what the file system answered, for the language server: a directory
 * package is re-checked as a whole on every keystroke, and re-reading its unchanged files from disk
 * each time would cost more than checking them. The server invalidates entries when the editor
 * reports a change on disk (workspace/didChangeWatchedFiles, didSave, didClose) and clears
 * everything before each check when the editor cannot report changes. Browser-safe.
 *
 * Answers are cached as promises, so concurrent reads of one path reach the disk once. A failed
 * read is not kept (the next call asks the disk again); stat, lstat, realpath and readdir answers
 * are kept whether they found something or not, since "not there" is an answer that changes only
 * with a reported change, like any other.
 *
 * Every cache is bounded, least recently used first out, by entries and by bytes (file contents,
 * listings' names, snapshots' held bytes): a workspace of many packages, or a client naming many
 * distinct paths, cannot grow the server without limit. An evicted answer is read again when asked.
 */
import { FsError, type FileStat, type PackageFs } from "../fs/package-fs.js";
import { dirName, isWithin } from "../fs/paths.js";
import { canSnapshot, type PackageSnapshot, type SnapshotLimits, type SnapshotSource } from "../fs/snapshot.js";

/** How much each cache holds at most; the defaults keep the server's caches within some 200 MiB. */
export interface CacheBounds {
  /** Entries per metadata cache (stat, lstat, realpath, listings, real paths) and file contents. */
  readonly maxEntries: number;
  /** Bytes of file contents held, and (separately) of listings' names. */
  readonly maxBytes: number;
  /** Package snapshots held, and the bytes of file contents they hold together. */
  readonly maxSnapshots: number;
  readonly maxSnapshotBytes: number;
}

export const DEFAULT_CACHE_BOUNDS: CacheBounds = {
  maxEntries: 20_000,
  maxBytes: 64 * 1024 * 1024,
  maxSnapshots: 32,
  maxSnapshotBytes: 128 * 1024 * 1024,
};

/**
 * A map that keeps at most `maxEntries` entries of at most `maxWeight` total weight, forgetting the
 * least recently used first. An entry's weight can be set later (a promise's bytes once it settles).
 */
export class LruCache<V> {
  private readonly map = new Map<string, { readonly value: V; weight: number }>();
  private total = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight: number,
  ) {}

  get size(): number {
    return this.map.size;
  }

  get weight(): number {
    return this.total;
  }

  get(key: string): V | undefined {
    const e = this.map.get(key);
    if (e === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, e);
    return e.value;
  }

  /** Peek without making the entry recent. */
  peek(key: string): V | undefined {
    return this.map.get(key)?.value;
  }

  set(key: string, value: V, weight = 0): void {
    this.delete(key);
    this.map.set(key, { value, weight });
    this.total += weight;
    this.evict();
  }

  /** Set the weight of `key` when it still holds `value` (a later answer may have replaced it). */
  reweigh(key: string, value: V, weight: number): void {
    const e = this.map.get(key);
    if (e === undefined || e.value !== value) return;
    this.total += weight - e.weight;
    e.weight = weight;
    this.evict();
  }

  delete(key: string): void {
    const e = this.map.get(key);
    if (e === undefined) return;
    this.map.delete(key);
    this.total -= e.weight;
  }

  /** The keys, as a copy (callers delete while they go). */
  keys(): string[] {
    return [...this.map.keys()];
  }

  entries(): [string, V][] {
    const out: [string, V][] = [];
    for (const [k, e] of this.map) out.push([k, e.value]);
    return out;
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }

  private evict(): void {
    while (this.map.size > 0 && (this.map.size > this.maxEntries || this.total > this.maxWeight)) {
      const oldest = this.map.keys().next().value!;
      this.delete(oldest);
    }
  }
}

function heldBytes(s: PackageSnapshot): number {
  let n = 0;
  for (const e of s.entries.values()) if (e.kind === "file" && e.bytes !== null) n += e.bytes.length;
  return n;
}

function listingBytes(names: readonly string[]): number {
  let n = 0;
  for (const name of names) n += 2 * name.length + 16;
  return n;
}

export class CachingFs implements PackageFs, SnapshotSource {
  /** Read-once snapshots by requested path and limits; dropped when anything in or above them changes. */
  private readonly snapshots: LruCache<{ path: string; snapshot: Promise<PackageSnapshot> }>;
  private readonly stats: LruCache<Promise<FileStat | null>>;
  private readonly lstats: LruCache<Promise<FileStat | null>>;
  private readonly realpaths: LruCache<Promise<string>>;
  private readonly dirs: LruCache<Promise<string[]>>;
  private readonly files: LruCache<Promise<Uint8Array>>;
  /** Resolved real paths, kept beside the promises so `invalidate` can follow them synchronously. */
  private readonly reals: LruCache<string>;

  constructor(
    private readonly base: PackageFs,
    bounds: Partial<CacheBounds> = {},
  ) {
    const b = { ...DEFAULT_CACHE_BOUNDS, ...bounds };
    this.snapshots = new LruCache(b.maxSnapshots, b.maxSnapshotBytes);
    this.stats = new LruCache(b.maxEntries, Number.POSITIVE_INFINITY);
    this.lstats = new LruCache(b.maxEntries, Number.POSITIVE_INFINITY);
    this.realpaths = new LruCache(b.maxEntries, Number.POSITIVE_INFINITY);
    this.dirs = new LruCache(b.maxEntries, b.maxBytes);
    this.files = new LruCache(b.maxEntries, b.maxBytes);
    this.reals = new LruCache(b.maxEntries, Number.POSITIVE_INFINITY);
  }

  /** What the caches hold now (entries, and bytes of contents, listings and snapshots), for tests and figures. */
  held(): { entries: number; fileBytes: number; listingBytes: number; snapshots: number; snapshotBytes: number } {
    let entries = this.reals.size;
    for (const m of this.maps()) entries += m.size;
    return {
      entries,
      fileBytes: this.files.weight,
      listingBytes: this.dirs.weight,
      snapshots: this.snapshots.size,
      snapshotBytes: this.snapshots.weight,
    };
  }

  /** Forget everything (the next check reads the disk afresh). */
  clear(): void {
    this.snapshots.clear();
    for (const m of this.maps()) m.clear();
    this.reals.clear();
  }

  /**
   * Forget what is known about `path` and everything under it, the listing and metadata of its
   * parent (a file created or deleted changes the directory), and the real paths it resolved to (a
   * change reported under a symlinked directory also invalidates what was read by real path).
   * Synchronous, so a check scheduled right after it cannot see the old answers.
   */
  invalidate(path: string): void {
    for (const [key, { path: root }] of this.snapshots.entries())
      if (isWithin(root, path) || isWithin(path, root)) this.snapshots.delete(key);
    const targets = new Set([path]);
    for (const [from, real] of this.reals.entries()) {
      if (isWithin(path, from)) targets.add(real);
    }
    for (const target of targets) {
      for (const key of this.reals.keys()) if (isWithin(target, key)) this.reals.delete(key);
      for (const m of this.maps()) for (const key of m.keys()) if (isWithin(target, key)) m.delete(key);
      const parent = dirName(target);
      this.dirs.delete(parent);
      this.stats.delete(parent);
      this.lstats.delete(parent);
    }
  }

  /** The base's read-once snapshot of a package, kept until a change is reported in or above it. */
  snapshotPackage(path: string, limits?: Partial<SnapshotLimits>): Promise<PackageSnapshot> {
    const base = this.base;
    if (!canSnapshot(base)) return Promise.reject(new FsError("io", path, `${path}: no snapshot reader`));
    const key = `${path}\u0000${JSON.stringify(limits ?? {}, (_k, v) => (v instanceof Map ? [...v] : v))}`;
    const hit = this.snapshots.get(key);
    if (hit !== undefined) return hit.snapshot;
    const snapshot = base.snapshotPackage(path, limits);
    const entry = { path, snapshot };
    this.snapshots.set(key, entry);
    snapshot.then(
      (s) => {
        // A failed read (a package changing meanwhile) is not kept: the next check reads again.
        if (s.failure !== null) {
          if (this.snapshots.peek(key) === entry) this.snapshots.delete(key);
        } else this.snapshots.reweigh(key, entry, heldBytes(s));
      },
      () => this.snapshots.peek(key) === entry && this.snapshots.delete(key),
    );
    return snapshot;
  }

  lstat(path: string): Promise<FileStat | null> {
    return remember(this.lstats, path, () => this.base.lstat(path), true);
  }

  stat(path: string): Promise<FileStat | null> {
    return remember(this.stats, path, () => this.base.stat(path), true);
  }

  realpath(path: string): Promise<string> {
    return remember(
      this.realpaths,
      path,
      () => this.base.realpath(path).then((real) => (this.reals.set(path, real), real)),
      true,
    );
  }

  async readdir(path: string): Promise<string[]> {
    // A copy: callers may sort or splice the listing.
    return [...(await remember(this.dirs, path, () => this.base.readdir(path), true, listingBytes))];
  }

  /**
   * The file's bytes. A read that succeeded holds the whole file, so a later call with any limit is
   * answered from it (refused, as the base would refuse it, when the file exceeds that limit).
   */
  async readFile(path: string, maxBytes: number): Promise<Uint8Array> {
    const bytes = await remember(
      this.files,
      path,
      () => this.base.readFile(path, maxBytes),
      false,
      (b) => b.length,
    );
    if (bytes.length > maxBytes)
      throw new FsError("too_large", path, `${path} is larger than the limit of ${maxBytes} bytes`);
    return bytes;
  }

  private maps(): LruCache<Promise<unknown>>[] {
    return [this.stats, this.lstats, this.realpaths, this.dirs, this.files];
  }
}

/**
 * The cached promise for `key`, or a new one from `load`; a rejection is kept only when
 * `keepErrors`. `weigh` gives the weight of a settled answer (its bytes) for the cache's bound.
 */
function remember<T>(
  cache: LruCache<Promise<T>>,
  key: string,
  load: () => Promise<T>,
  keepErrors: boolean,
  weigh?: (value: T) => number,
): Promise<T> {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const p = load();
  cache.set(key, p);
  p.then(
    (v) => weigh !== undefined && cache.reweigh(key, p, weigh(v)),
    () => !keepErrors && cache.peek(key) === p && cache.delete(key),
  );
  return p;
}
