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
 */
import { FsError, type FileStat, type PackageFs } from "../fs/package-fs.js";
import { dirName, isWithin } from "../fs/paths.js";
import { canSnapshot, type PackageSnapshot, type SnapshotLimits, type SnapshotSource } from "../fs/snapshot.js";

/** Package snapshots kept at most (each holds a package's bytes): the least recently used go first. */
const MAX_SNAPSHOTS = 32;

export class CachingFs implements PackageFs, SnapshotSource {
  /** Read-once snapshots by requested path and limits; dropped when anything in or above them changes. */
  private readonly snapshots = new Map<string, { path: string; snapshot: Promise<PackageSnapshot> }>();
  private readonly stats = new Map<string, Promise<FileStat | null>>();
  private readonly lstats = new Map<string, Promise<FileStat | null>>();
  private readonly realpaths = new Map<string, Promise<string>>();
  private readonly dirs = new Map<string, Promise<string[]>>();
  private readonly files = new Map<string, Promise<Uint8Array>>();
  /** Resolved real paths, kept beside the promises so `invalidate` can follow them synchronously. */
  private readonly reals = new Map<string, string>();

  constructor(private readonly base: PackageFs) {}

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
    for (const [key, { path: root }] of this.snapshots)
      if (isWithin(root, path) || isWithin(path, root)) this.snapshots.delete(key);
    const targets = new Set([path]);
    for (const [from, real] of this.reals) {
      if (isWithin(path, from)) targets.add(real);
    }
    for (const target of targets) {
      for (const key of [...this.reals.keys()]) if (isWithin(target, key)) this.reals.delete(key);
      for (const m of this.maps()) for (const key of [...m.keys()]) if (isWithin(target, key)) m.delete(key);
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
    if (hit !== undefined) {
      this.snapshots.delete(key);
      this.snapshots.set(key, hit);
      return hit.snapshot;
    }
    const snapshot = base.snapshotPackage(path, limits);
    this.snapshots.set(key, { path, snapshot });
    snapshot.then(
      (s) => {
        // A failed read (a package changing meanwhile) is not kept: the next check reads again.
        if (s.failure !== null && this.snapshots.get(key)?.snapshot === snapshot) this.snapshots.delete(key);
      },
      () => this.snapshots.get(key)?.snapshot === snapshot && this.snapshots.delete(key),
    );
    while (this.snapshots.size > MAX_SNAPSHOTS) this.snapshots.delete(this.snapshots.keys().next().value!);
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
    return [...(await remember(this.dirs, path, () => this.base.readdir(path), true))];
  }

  /**
   * The file's bytes. A read that succeeded holds the whole file, so a later call with any limit is
   * answered from it (refused, as the base would refuse it, when the file exceeds that limit).
   */
  async readFile(path: string, maxBytes: number): Promise<Uint8Array> {
    const bytes = await remember(this.files, path, () => this.base.readFile(path, maxBytes), false);
    if (bytes.length > maxBytes)
      throw new FsError("too_large", path, `${path} is larger than the limit of ${maxBytes} bytes`);
    return bytes;
  }

  private maps(): Map<string, Promise<unknown>>[] {
    return [this.stats, this.lstats, this.realpaths, this.dirs, this.files];
  }
}

/** The cached promise for `key`, or a new one from `load`; a rejection is kept only when `keepErrors`. */
function remember<T>(
  cache: Map<string, Promise<T>>,
  key: string,
  load: () => Promise<T>,
  keepErrors: boolean,
): Promise<T> {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const p = load();
  cache.set(key, p);
  if (!keepErrors) p.catch(() => cache.get(key) === p && cache.delete(key));
  return p;
}
