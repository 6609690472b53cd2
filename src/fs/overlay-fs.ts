/**
 * A `PackageFs` that answers from the editor's unsaved documents first and from the underlying file
 * system otherwise, so a package is checked as the author currently sees it. Browser-safe.
 */
import { FsError, type FileStat, type PackageFs } from "./package-fs.js";
import { isWithin, normalizePath } from "./paths.js";
import {
  canSnapshot,
  DEFAULT_SNAPSHOT_LIMITS,
  EntryTree,
  freezeSnapshot,
  type PackageSnapshot,
  type SnapshotEntry,
  type SnapshotLimits,
  type SnapshotSource,
} from "./snapshot.js";

const encoder = new TextEncoder();

export class OverlayFs implements PackageFs, SnapshotSource {
  private readonly open = new Map<string, Uint8Array>();
  /** Real paths under which open documents were also registered (see realpath). */
  private readonly aliases = new Map<string, string>();

  constructor(private readonly base: PackageFs) {}

  set(path: string, text: string): void {
    this.open.set(path, encoder.encode(text));
  }

  delete(path: string): void {
    this.open.delete(path);
    const real = this.aliases.get(path);
    if (real !== undefined) this.open.delete(real);
    this.aliases.delete(path);
  }

  has(path: string): boolean {
    return this.open.has(path);
  }

  /** The bytes of an open document, whatever their size (the check reports one over a limit). */
  bytes(path: string): Uint8Array | undefined {
    return this.open.get(path);
  }

  /**
   * The package as the author sees it, read once: the base's snapshot (same reader, same limits as
   * \`yaoc check\`) with the open documents under its root put in place of what is on disk. An
   * open document over the per-file limit is held by size only, as the reader holds such a file.
   */
  async snapshotPackage(path: string, overrides: Partial<SnapshotLimits> = {}): Promise<PackageSnapshot> {
    const limits: SnapshotLimits = { ...DEFAULT_SNAPSHOT_LIMITS, ...overrides };
    const own = this.open.get(normalizePath(path));
    if (!canSnapshot(this.base)) throw new FsError("io", path, `${path}: no snapshot reader`);
    let base: PackageSnapshot;
    try {
      base = await this.base.snapshotPackage(path, overrides);
    } catch (e) {
      // Outside what the disk may be asked: an open single file is still its own package.
      if (own === undefined) throw e;
      base = { requested: path, root: normalizePath(path), entries: new Map(), rootState: "missing", failure: null };
    }
    if (base.failure !== null) return base;
    const entries = EntryView.of(base.entries);
    let rootState = base.rootState;
    const fileEntry = (rel: string, bytes: Uint8Array, display: string): SnapshotEntry => {
      const max = limits.fileLimits?.get(rel) ?? limits.maxFileBytes;
      if (bytes.length > max)
        return {
          kind: "file",
          path: rel,
          size: bytes.length,
          executable: false,
          bytes: null,
          error: { code: "too_large", message: `${display} has ${bytes.length} bytes; the limit is ${max}` },
        };
      const prev = entries.get(rel);
      return {
        kind: "file",
        path: rel,
        size: bytes.length,
        executable: prev?.kind === "file" && prev.executable,
        bytes: bytes.slice(),
      };
    };
    if (own !== undefined && (rootState !== "present" || entries.get("")?.kind === "file")) {
      entries.only(fileEntry("", own, path));
      rootState = "present";
    } else if (rootState === "present") {
      const bases = [normalizePath(base.requested), base.root];
      for (const [open, bytes] of this.open) {
        const at = bases.find((b) => open !== b && isWithin(b, open));
        if (at === undefined) continue;
        const rel = open.slice(at.length + 1);
        const parent = rel.includes("/") ? rel.slice(0, rel.lastIndexOf("/")) : "";
        // An unsaved file in a directory that is not on disk has no place in the tree.
        if (entries.get(parent)?.kind !== "directory") continue;
        entries.set(rel, parent, fileEntry(rel, bytes, open));
      }
    }
    return freezeSnapshot({ ...base, entries: entries.result(), rootState });
  }

  async lstat(path: string): Promise<FileStat | null> {
    const o = this.open.get(path);
    if (o !== undefined) return { kind: "file", size: o.length, executable: false };
    return this.base.lstat(path);
  }

  async stat(path: string): Promise<FileStat | null> {
    const o = this.open.get(path);
    if (o !== undefined) return { kind: "file", size: o.length, executable: false };
    return this.base.stat(path);
  }

  /**
   * The base file system's answer; an open document that is not on disk (a new, unsaved file) is
   * its own real path, and an open document reached through a symlinked directory is also known
   * under its real path (the loaders read by real path).
   */
  async realpath(path: string): Promise<string> {
    const o = this.open.get(path);
    try {
      const real = await this.base.realpath(path);
      if (o !== undefined && real !== path) {
        this.open.set(real, o);
        this.aliases.set(path, real);
      }
      return real;
    } catch (e) {
      if (o !== undefined) return path;
      throw e;
    }
  }

  readdir(path: string): Promise<string[]> {
    return this.base.readdir(path);
  }

  async readFile(path: string, maxBytes: number): Promise<Uint8Array> {
    const o = this.open.get(path);
    if (o === undefined) return this.base.readFile(path, maxBytes);
    if (o.length > maxBytes) throw new FsError("too_large", path, `${path} is larger than ${maxBytes} bytes`);
    return o;
  }
}

/**
 * The base snapshot's entries with the open documents put in: a copy of an `EntryTree` (the
 * MemoryFs snapshot's, in the browser core and the playground) stays a tree, so the overlay costs
 * the same at any depth — a map keyed by whole paths would hash every path, and a chain's paths add
 * up to the square of its depth. A path-keyed map (the Node reader's) is copied as a map: its keys
 * were built and hashed by the reader already, and a string keeps its hash.
 */
class EntryView {
  private constructor(
    private tree: EntryTree | null,
    private readonly map: Map<string, SnapshotEntry>,
  ) {}

  static of(entries: ReadonlyMap<string, SnapshotEntry>): EntryView {
    return entries instanceof EntryTree
      ? new EntryView(entries.copy(), new Map())
      : new EntryView(null, new Map(entries));
  }

  get(rel: string): SnapshotEntry | undefined {
    return this.tree === null ? this.map.get(rel) : this.tree.get(rel);
  }

  /** Put `entry` at `rel`, whose parent directory `parent` is present. */
  set(rel: string, parent: string, entry: SnapshotEntry): void {
    if (this.tree === null) {
      this.map.set(rel, entry);
      return;
    }
    const slot = this.tree.slotAt(rel);
    if (slot >= 0) this.tree.replace(slot, entry);
    else this.tree.add(this.tree.slotAt(parent), rel.slice(parent === "" ? 0 : parent.length + 1), entry);
  }

  /** Nothing but `root` (an open single file is its own package). */
  only(root: SnapshotEntry): void {
    this.tree = null;
    this.map.clear();
    this.map.set("", root);
  }

  result(): ReadonlyMap<string, SnapshotEntry> {
    return this.tree ?? this.map;
  }
}
