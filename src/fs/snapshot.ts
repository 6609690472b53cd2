/**
 * A package read once: every entry under the package root with its kind, size and (for regular
 * files) bytes, captured by a reader that cannot be redirected (src/fs/node-snapshot.ts in Node).
 * Every later step — check, analysis, identity, receipts, catalog install, HARP's bundle copy and
 * digest, the A3S and HCP digests — works from the snapshot through `SnapshotFs`, so nothing is read
 * from disk twice and a change on disk after the read can never enter a result.
 *
 * The snapshot is immutable: it is frozen when built, and `SnapshotFs.readFile` hands out copies.
 * Browser-safe (no `node:` imports).
 */
import { FsError, type FileKind, type FileStat, type FsErrorCode, type PackageFs } from "./package-fs.js";
import { isWithin, joinPath, normalizePath } from "./paths.js";
import { isUndecodableName } from "./names.js";

export type SnapshotEntry =
  | { readonly kind: "directory"; readonly path: string }
  | {
      readonly kind: "file";
      readonly path: string;
      readonly size: number;
      readonly executable: boolean;
      /** `null` when the file was not held (larger than the snapshot's per-file limit, or unreadable). */
      readonly bytes: Uint8Array | null;
      /** Why `bytes` is null. */
      readonly error?: { readonly code: FsErrorCode; readonly message: string };
    }
  | { readonly kind: "symlink"; readonly path: string; readonly target: string }
  | { readonly kind: Exclude<FileKind, "file" | "symlink" | "directory">; readonly path: string };

export interface PackageSnapshot {
  /** The path the caller named (possibly relative); `SnapshotFs` answers for it and for `root`. */
  readonly requested: string;
  /** Canonical absolute path of the package root at the moment it was opened. */
  readonly root: string;
  /**
   * Entries keyed by package-relative path ("" is the root itself). Names that are not valid UTF-8
   * are surrogate-escaped (src/fs/names.ts), so they stay distinct and detectable.
   */
  readonly entries: ReadonlyMap<string, SnapshotEntry>;
  /** What the requested path was when it was not a package: missing, or a link that does not resolve. */
  readonly rootState: "present" | "missing" | "dangling";
  /** A failure that makes the whole snapshot unusable (root unreadable, limits, concurrent change). */
  readonly failure: { readonly code: FsErrorCode; readonly message: string } | null;
}

/** Limits of what one snapshot holds (they are above every frontend's own limits). */
export interface SnapshotLimits {
  readonly maxEntries: number;
  /** Files larger than this are recorded with their size but without bytes (a frontend reading one gets `too_large`). */
  readonly maxFileBytes: number;
  /** Once this many bytes are held, further files are recorded without bytes, as if too large. */
  readonly maxTotalBytes: number;
  readonly maxDepth: number;
  /**
   * Per-file overrides of `maxFileBytes` by package-relative path, for files a frontend bounds more
   * tightly (a manifest): larger ones are recorded by size only, so a huge one is never read.
   */
  readonly fileLimits?: ReadonlyMap<string, number>;
}

export const DEFAULT_SNAPSHOT_LIMITS: SnapshotLimits = {
  maxEntries: 50_000,
  maxFileBytes: 256 * 1024 * 1024,
  maxTotalBytes: 1024 * 1024 * 1024,
  maxDepth: 128,
};

/**
 * The refusal of a tree whose regular files, by the sizes their metadata reports, would make the
 * snapshot hold more than `maxTotalBytes` (files over their per-file limit are held by size only
 * and do not count): said before any content is read, by every reader. Null when within it.
 */
export function metadataOverLimit(bytes: number, limits: SnapshotLimits): string | null {
  if (bytes <= limits.maxTotalBytes) return null;
  return `the package's files hold ${bytes} bytes by their metadata, more than the limit of ${limits.maxTotalBytes}; nothing was read`;
}

/** A file system that can read a package into a snapshot (the Node adapter can; MemoryFs is one already). */
export interface SnapshotSource {
  snapshotPackage(path: string, limits?: Partial<SnapshotLimits>): Promise<PackageSnapshot>;
}

export function canSnapshot(fs: PackageFs): fs is PackageFs & SnapshotSource {
  return typeof (fs as Partial<SnapshotSource>).snapshotPackage === "function";
}

/**
 * The file system a frontend should check `path` through: a `SnapshotFs` over a fresh snapshot when
 * `fs` can take one, otherwise `fs` itself (an in-memory or already-snapshotted file system).
 */
export async function packageView(fs: PackageFs, path: string, limits?: Partial<SnapshotLimits>): Promise<PackageFs> {
  return canSnapshot(fs) ? new SnapshotFs(await fs.snapshotPackage(path, limits)) : fs;
}

/** The snapshot behind a file system, when it is a `SnapshotFs`. */
export function snapshotOf(fs: PackageFs): PackageSnapshot | null {
  return fs instanceof SnapshotFs ? fs.snapshot : null;
}

/** Children a directory of an `EntryTree` has before its lookups go through a map. */
const SCAN = 8;

/**
 * Snapshot entries held as a tree, for a reader that walks a tree in memory (MemoryFs). Adding an
 * entry costs a few array slots, never its path: a map keyed by whole paths hashes every path, and
 * the paths of a chain of folders add up to the square of its depth. A lookup walks the path's
 * components (it reads the path once), through each directory's children by name; those of a large
 * directory are put in a map on its first lookup. Entries are listed in the order they were added,
 * which must put each directory before its children.
 */
export class EntryTree implements ReadonlyMap<string, SnapshotEntry> {
  /** The entries and their names by slot, sized like the links below; `count` of them are filled. */
  private order: SnapshotEntry[];
  private names: string[];
  private count = 0;
  /**
   * First child, last child and next sibling of each slot (-1: none), and its number of children,
   * sized for the entries the reader expects: a plain array pushed one slot at a time was copied
   * as it grew, and past about 16,000 slots each copy is a large object of its own (a folder of
   * 20,000 paid half as much again per entry for it).
   */
  private firstChild: Int32Array;
  private lastChild: Int32Array;
  private nextSibling: Int32Array;
  private childCount: Int32Array;
  /** Children by name of the directories with more than `SCAN` children, made on their first lookup. */
  private readonly byName = new Map<number, Map<string, number>>();
  private sealed = false;

  /** The root entry (path ""): slot 0. `capacity`: how many entries the reader expects, the root included. */
  constructor(root: SnapshotEntry, capacity = 16) {
    const n = Math.max(1, capacity);
    this.order = new Array<SnapshotEntry>(n);
    this.names = new Array<string>(n);
    this.firstChild = new Int32Array(n);
    this.lastChild = new Int32Array(n);
    this.nextSibling = new Int32Array(n);
    this.childCount = new Int32Array(n);
    this.push(root, "");
  }

  /** Add `entry`, named `name`, under the directory at slot `parent`; returns its slot. */
  add(parent: number, name: string, entry: SnapshotEntry): number {
    if (this.sealed) throw new Error("EntryTree: the snapshot is frozen");
    const slot = this.push(entry, name);
    const last = this.lastChild[parent]!;
    if (last < 0) this.firstChild[parent] = slot;
    else this.nextSibling[last] = slot;
    this.lastChild[parent] = slot;
    this.childCount[parent]!++;
    // A large directory's lookup map, once made, must see the new child (OverlayFs adds to a copy
    // after looking names up in it).
    this.byName.get(parent)?.set(name, slot);
    return slot;
  }

  /**
   * An unsealed copy holding the same entries, for a view that replaces or adds a few (OverlayFs):
   * it copies the slot arrays, never an entry's path, so it costs the same at any depth.
   */
  copy(): EntryTree {
    const t = new EntryTree(this.order[0]!, 1);
    t.order = this.order.slice(0, this.count);
    t.names = this.names.slice(0, this.count);
    t.count = this.count;
    t.firstChild = this.firstChild.slice();
    t.lastChild = this.lastChild.slice();
    t.nextSibling = this.nextSibling.slice();
    t.childCount = this.childCount.slice();
    return t;
  }

  /** The slot of the entry at `rel` (one walk over its components), or -1 when there is none. */
  slotAt(rel: string): number {
    return this.slotOf(rel);
  }

  /** Put `entry` in the place of the one at `slot`: same name, same children. */
  replace(slot: number, entry: SnapshotEntry): void {
    if (this.sealed) throw new Error("EntryTree: the snapshot is frozen");
    this.order[slot] = entry;
  }

  /**
   * The paths of the entries whose name, or the name of a directory above them, is not valid UTF-8
   * (src/fs/names.ts): each name is looked at once, with its parent's answer, so it costs the sum
   * of the names rather than of the paths (which grows with the square of a chain's depth).
   */
  undecodablePaths(): string[] {
    const out: string[] = [];
    const slots = [0];
    const bad = [false];
    while (slots.length > 0) {
      const slot = slots.pop()!;
      const above = bad.pop()!;
      for (let c = this.firstChild[slot]!; c >= 0; c = this.nextSibling[c]!) {
        const isBad = above || isUndecodableName(this.names[c]!);
        if (isBad) out.push(this.order[c]!.path);
        if (this.firstChild[c]! >= 0) {
          slots.push(c);
          bad.push(isBad);
        }
      }
    }
    return out;
  }

  /** No more entries (freezeSnapshot seals a tree it wraps). */
  seal(): void {
    this.sealed = true;
  }

  private push(entry: SnapshotEntry, name: string): number {
    const slot = this.count++;
    if (slot === this.firstChild.length) this.grow();
    // Past the expected size an array simply grows by the write.
    this.order[slot] = entry;
    this.names[slot] = name;
    this.firstChild[slot] = -1;
    this.lastChild[slot] = -1;
    this.nextSibling[slot] = -1;
    this.childCount[slot] = 0;
    return slot;
  }

  /** Twice the room (more entries than the reader expected, or an overlay adding to a copy). */
  private grow(): void {
    const wider = (a: Int32Array): Int32Array => {
      const b = new Int32Array(a.length * 2);
      b.set(a);
      return b;
    };
    this.firstChild = wider(this.firstChild);
    this.lastChild = wider(this.lastChild);
    this.nextSibling = wider(this.nextSibling);
    this.childCount = wider(this.childCount);
  }

  private child(dir: number, name: string): number {
    if (this.childCount[dir]! <= SCAN) {
      for (let c = this.firstChild[dir]!; c >= 0; c = this.nextSibling[c]!) if (this.names[c] === name) return c;
      return -1;
    }
    let map = this.byName.get(dir);
    if (map === undefined) {
      map = new Map();
      for (let c = this.firstChild[dir]!; c >= 0; c = this.nextSibling[c]!) map.set(this.names[c]!, c);
      this.byName.set(dir, map);
    }
    return map.get(name) ?? -1;
  }

  private slotOf(rel: string): number {
    if (rel === "") return 0;
    let slot = 0;
    let from = 0;
    for (;;) {
      const slash = rel.indexOf("/", from);
      slot = this.child(slot, slash < 0 ? rel.slice(from) : rel.slice(from, slash));
      if (slot < 0 || slash < 0) return slot;
      from = slash + 1;
    }
  }

  /** The names in the directory at `rel`, in the order added; undefined when `rel` is no entry. */
  childNames(rel: string): string[] | undefined {
    const slot = this.slotOf(rel);
    if (slot < 0) return undefined;
    const out: string[] = [];
    for (let c = this.firstChild[slot]!; c >= 0; c = this.nextSibling[c]!) out.push(this.names[c]!);
    return out;
  }

  get(rel: string): SnapshotEntry | undefined {
    const slot = this.slotOf(rel);
    return slot < 0 ? undefined : this.order[slot];
  }

  has(rel: string): boolean {
    return this.slotOf(rel) >= 0;
  }

  get size(): number {
    return this.count;
  }

  forEach(
    cb: (value: SnapshotEntry, key: string, map: ReadonlyMap<string, SnapshotEntry>) => void,
    thisArg?: unknown,
  ): void {
    for (let i = 0; i < this.count; i++) {
      const e = this.order[i]!;
      cb.call(thisArg, e, e.path, this);
    }
  }

  *entries(): MapIterator<[string, SnapshotEntry]> {
    for (let i = 0; i < this.count; i++) {
      const e = this.order[i]!;
      yield [e.path, e];
    }
  }

  *keys(): MapIterator<string> {
    for (let i = 0; i < this.count; i++) yield this.order[i]!.path;
  }

  values(): MapIterator<SnapshotEntry> {
    return this.order.slice(0, this.count).values();
  }

  [Symbol.iterator](): MapIterator<[string, SnapshotEntry]> {
    return this.entries();
  }
}

/**
 * Freeze a snapshot built by a reader (entries map and every entry). `owned`: the reader made the
 * map for this snapshot and keeps no reference to it, so it is wrapped as it is rather than copied.
 */
export function freezeSnapshot(s: PackageSnapshot, options: { readonly owned?: boolean } = {}): PackageSnapshot {
  for (const e of s.entries.values()) Object.freeze(e);
  if (s.entries instanceof EntryTree) {
    // Read-only by its type; sealed so that even a cast cannot add to it.
    s.entries.seal();
    return Object.freeze({ ...s });
  }
  const entries = options.owned === true && s.entries instanceof Map ? s.entries : new Map(s.entries);
  const frozenMap: ReadonlyMap<string, SnapshotEntry> = {
    get: (k) => entries.get(k),
    has: (k) => entries.has(k),
    forEach: (cb, thisArg) => entries.forEach((v, k) => cb.call(thisArg, v, k, frozenMap)),
    entries: () => entries.entries(),
    keys: () => entries.keys(),
    values: () => entries.values(),
    [Symbol.iterator]: () => entries[Symbol.iterator](),
    get size() {
      return entries.size;
    },
  };
  return Object.freeze({ ...s, entries: frozenMap });
}

const MAX_LINK_HOPS = 40;

type Located = { readonly inside: true; readonly rel: string } | { readonly inside: false; readonly abs: string };

/**
 * `PackageFs` over a snapshot. Paths under the requested path or the canonical root are answered
 * from the snapshot; symbolic links are resolved inside it, and a link that leaves the root resolves
 * (lexically) to the outside path, which the frontends' containment checks then reject. Nothing
 * outside the snapshot is ever read: outside paths do not exist here.
 */
export class SnapshotFs implements PackageFs {
  private readonly requested: string;
  /** Child names by directory (package-relative), built on the first listing: one pass over the entries. */
  private children: Map<string, string[]> | null = null;

  constructor(readonly snapshot: PackageSnapshot) {
    this.requested = normalizePath(snapshot.requested);
  }

  async lstat(path: string): Promise<FileStat | null> {
    const at = this.locate(path);
    if (!at.inside) return null;
    if (at.rel === "") return this.rootStat();
    this.checkFailure(path);
    let parent: Located;
    try {
      parent = this.resolve(parentRel(at.rel));
    } catch {
      return null; // a missing (or looping) parent: nothing is there
    }
    // Reached through a link that leaves the package: never looked at. Reported as a link, so the
    // frontends resolve it and reject it as escaping rather than calling it missing.
    if (!parent.inside) return { kind: "symlink", size: 0 };
    const rel = joinRel(parent.rel, lastName(at.rel));
    const e = this.snapshot.entries.get(rel);
    return e === undefined ? null : statOf(e);
  }

  async stat(path: string): Promise<FileStat | null> {
    const at = this.locate(path);
    if (!at.inside) return null;
    if (at.rel === "" && this.snapshot.rootState === "dangling") return null;
    this.checkFailure(path);
    let r: Located;
    try {
      r = this.resolve(at.rel);
    } catch {
      return null;
    }
    if (!r.inside) return null;
    const e = this.snapshot.entries.get(r.rel);
    return e === undefined ? null : statOf(e);
  }

  async realpath(path: string): Promise<string> {
    const at = this.locate(path);
    if (!at.inside) return normalizePath(path);
    if (at.rel === "" && this.snapshot.rootState !== "present") {
      throw new FsError("not_found", path, `${path}: no such file or directory`);
    }
    this.checkFailure(path);
    const r = this.resolve(at.rel, path);
    if (!r.inside) return r.abs;
    if (!this.snapshot.entries.has(r.rel)) throw new FsError("not_found", path, `${path}: no such file or directory`);
    return r.rel === "" ? this.snapshot.root : `${this.snapshot.root}/${r.rel}`;
  }

  async readdir(path: string): Promise<string[]> {
    const e = this.follow(path);
    if (e.kind !== "directory") throw new FsError("not_directory", path, `${path} is not a directory`);
    const entries = this.snapshot.entries;
    if (entries instanceof EntryTree) return entries.childNames(e.path) ?? [];
    return [...(this.childIndex().get(e.path) ?? [])];
  }

  /** Every directory's children at once, so listing each directory of a wide tree stays linear. */
  private childIndex(): Map<string, string[]> {
    if (this.children !== null) return this.children;
    const index = new Map<string, string[]>();
    for (const key of this.snapshot.entries.keys()) {
      if (key === "") continue;
      const parent = parentRel(key);
      const list = index.get(parent);
      if (list === undefined) index.set(parent, [lastName(key)]);
      else list.push(lastName(key));
    }
    this.children = index;
    return index;
  }

  async readFile(path: string, maxBytes: number): Promise<Uint8Array> {
    const e = this.follow(path);
    if (e.kind !== "file") {
      throw new FsError(
        "not_regular_file",
        path,
        `${path} is a ${e.kind === "directory" ? "directory" : e.kind}, not a regular file`,
      );
    }
    if (e.size > maxBytes)
      throw new FsError("too_large", path, `${path} has ${e.size} bytes; the limit is ${maxBytes}`);
    if (e.bytes === null) {
      const err = e.error ?? {
        code: "too_large" as const,
        message: `${path} is larger than the package snapshot holds`,
      };
      throw new FsError(err.code, path, err.message);
    }
    return e.bytes.slice();
  }

  /**
   * Every entry path (package-relative) with a name that is not valid UTF-8, its own or a directory's
   * above it, sorted. An `EntryTree` answers from its names; a path-keyed map (the Node reader's)
   * has built and hashed each path already, so scanning them costs no more than that did.
   */
  undecodableEntries(): string[] {
    const entries = this.snapshot.entries;
    if (entries instanceof EntryTree) return entries.undecodablePaths().sort();
    return [...entries.keys()].filter((k) => k !== "" && isUndecodableName(k)).sort();
  }

  private follow(path: string): SnapshotEntry {
    const at = this.locate(path);
    if (!at.inside) throw new FsError("not_found", path, `${path} is outside the package`);
    if (at.rel === "" && this.snapshot.rootState !== "present")
      throw new FsError("not_found", path, `${path}: no such file or directory`);
    this.checkFailure(path);
    const r = this.resolve(at.rel, path);
    if (!r.inside) throw new FsError("not_found", path, `${path} resolves to ${r.abs}, outside the package`);
    const e = this.snapshot.entries.get(r.rel);
    if (e === undefined) throw new FsError("not_found", path, `${path}: no such file or directory`);
    return e;
  }

  private checkFailure(path: string): void {
    const f = this.snapshot.failure;
    if (f !== null) throw new FsError(f.code, path, f.message);
  }

  private rootStat(): FileStat | null {
    if (this.snapshot.rootState === "missing") return null;
    if (this.snapshot.rootState === "dangling") return { kind: "symlink", size: 0 };
    this.checkFailure(this.snapshot.requested);
    const e = this.snapshot.entries.get("");
    return e === undefined ? null : statOf(e);
  }

  /** Map a path to a package-relative one, or say it is outside the snapshot. */
  private locate(path: string): Located {
    const n = normalizePath(path);
    for (const base of [this.requested, this.snapshot.root]) {
      if (n === base) return { inside: true, rel: "" };
      if (base === "." && !n.startsWith("/") && !n.startsWith("..")) return { inside: true, rel: n };
      if (isWithin(base, n)) return { inside: true, rel: n.slice(base.length + (base.endsWith("/") ? 0 : 1)) };
    }
    return { inside: false, abs: n };
  }

  /** Resolve every symbolic link in `rel` within the snapshot; throws FsError(not_found | loop). */
  private resolve(rel: string, display = rel, hops = { n: 0 }): Located {
    // Every reader records the children of directories only, so an entry that is present has no
    // link above it: it resolves to itself (or, a link, from its target) in one lookup, instead of
    // one lookup per component, each hashing a longer prefix (quadratic in the depth).
    const direct = this.snapshot.entries.get(rel);
    if (direct !== undefined && direct.kind !== "symlink") return { inside: true, rel };
    const parts = rel === "" ? [] : rel.split("/");
    let current = "";
    for (let i = 0; i < parts.length; i++) {
      const next = joinRel(current, parts[i]!);
      const e = this.snapshot.entries.get(next);
      if (e === undefined) throw new FsError("not_found", display, `${display}: no such file or directory`);
      if (e.kind !== "symlink") {
        current = next;
        continue;
      }
      if (++hops.n > MAX_LINK_HOPS) throw new FsError("loop", display, `${display}: too many levels of symbolic links`);
      const base = current === "" ? this.snapshot.root : `${this.snapshot.root}/${current}`;
      const targetAbs = e.target.startsWith("/") ? normalizePath(e.target) : joinPath(base, e.target);
      const rest = parts.slice(i + 1).join("/");
      if (!isWithin(this.snapshot.root, targetAbs)) {
        return { inside: false, abs: rest === "" ? targetAbs : joinPath(targetAbs, rest) };
      }
      const targetRel = targetAbs === this.snapshot.root ? "" : targetAbs.slice(this.snapshot.root.length + 1);
      const resolved = this.resolve(targetRel, display, hops);
      if (!resolved.inside) return { inside: false, abs: rest === "" ? resolved.abs : joinPath(resolved.abs, rest) };
      current = resolved.rel;
      if (!this.snapshot.entries.has(current))
        throw new FsError("not_found", display, `${display}: no such file or directory`);
    }
    return { inside: true, rel: current };
  }
}

function statOf(e: SnapshotEntry): FileStat {
  if (e.kind === "file") return { kind: "file", size: e.size, executable: e.executable };
  return { kind: e.kind, size: 0 };
}

function joinRel(a: string, b: string): string {
  return a === "" ? b : `${a}/${b}`;
}

function parentRel(rel: string): string {
  const i = rel.lastIndexOf("/");
  return i < 0 ? "" : rel.slice(0, i);
}

function lastName(rel: string): string {
  return rel.slice(rel.lastIndexOf("/") + 1);
}

/**
 * Every entry under `root` whose name is not valid UTF-8, as package-relative paths, walking through
 * `PackageFs` without following links. For a `SnapshotFs` this is a lookup in memory.
 */
export async function undecodableNames(
  fs: PackageFs,
  root: string,
  maxEntries = DEFAULT_SNAPSHOT_LIMITS.maxEntries,
): Promise<string[]> {
  if (fs instanceof SnapshotFs) return fs.undecodableEntries();
  const found: string[] = [];
  const stack = [""];
  let seen = 0;
  while (stack.length > 0 && seen < maxEntries) {
    const rel = stack.pop()!;
    let names: string[];
    try {
      names = await fs.readdir(rel === "" ? root : joinPath(root, rel));
    } catch {
      continue;
    }
    for (const name of names) {
      if (++seen > maxEntries) break;
      const child = joinRel(rel, name);
      if (isUndecodableName(name)) found.push(child);
      const st = await fs.lstat(joinPath(root, child)).catch(() => null);
      if (st?.kind === "directory") stack.push(child);
    }
  }
  return found.sort();
}
