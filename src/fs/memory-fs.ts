/**
 * An in-memory `PackageFs`: for tests, browsers and runtimes that hold packages as data.
 * Supports directories, files, symlinks and special files (so hostile layouts can be modelled).
 *
 * A tree of nodes, each directory holding its children by name: resolving a path costs its number
 * of components (plus the links it goes through) and listing a directory its number of children,
 * so walking a package is linear in its entries at any depth or width (a flat map of paths made
 * both a scan of every entry). Like `NodeFs`, it can take a read-once snapshot of a package under
 * the same limits (`snapshotPackage`), so the browser core and `yaoc check` refuse the same trees.
 */
import { FsError, type FileKind, type FileStat, type PackageFs } from "./package-fs.js";
import { normalizePath } from "./paths.js";
import {
  DEFAULT_SNAPSHOT_LIMITS,
  EntryTree,
  freezeSnapshot,
  metadataOverLimit,
  type PackageSnapshot,
  type SnapshotEntry,
  type SnapshotLimits,
  type SnapshotSource,
} from "./snapshot.js";
import { compareCodePoints } from "../text/code-point-order.js";

export type MemoryEntry =
  | { readonly kind: "file"; readonly data: Uint8Array; readonly executable?: boolean }
  | { readonly kind: "symlink"; readonly target: string }
  | { readonly kind: "directory" }
  | { readonly kind: Exclude<FileKind, "file" | "symlink" | "directory"> };

interface Node {
  entry: MemoryEntry;
  /** Present exactly when `entry` is a directory. */
  children?: Map<string, Node>;
  /**
   * A directory's children in code-point order of their names, kept between snapshots until one is
   * put (`setChild`): the browser core snapshots the same tree on every check, and sorting a folder
   * of n names again each time made the snapshot O(n log n) in its width; the walk then reads the
   * children in order instead of looking each name up in the map.
   */
  sorted?: SortedChildren | undefined;
}

interface SortedChildren {
  readonly names: readonly string[];
  readonly nodes: readonly Node[];
}

function sortedChildren(children: ReadonlyMap<string, Node>): SortedChildren {
  const names = [...children.keys()].sort(compareCodePoints);
  return { names, nodes: names.map((n) => children.get(n)!) };
}

const MAX_LINK_HOPS = 40;
const encoder = new TextEncoder();

/**
 * The children of every empty directory until its first child is put: an empty Map holds a hash
 * table of its own, more than the rest of a directory's node, so a folder of 20,000 empty ones held
 * 20,000 of them. Never written to (`setChild` gives a directory its own map first).
 */
const NO_CHILDREN: ReadonlyMap<string, Node> = new Map();
/** The entry of every directory (entries are never mutated). */
const DIRECTORY: MemoryEntry = Object.freeze({ kind: "directory" });

function directory(): Node {
  return { entry: DIRECTORY, children: NO_CHILDREN as Map<string, Node>, sorted: undefined };
}

/** Put `child` in `dir` under `name`; the directory's kept order is dropped (it holds the nodes). */
function setChild(dir: Node, name: string, child: Node): void {
  let children = dir.children!;
  if (children === NO_CHILDREN) dir.children = children = new Map();
  dir.sorted = undefined;
  children.set(name, child);
}

export class MemoryFs implements PackageFs, SnapshotSource {
  private readonly root: Node = directory();

  /** Build from `{ "/pkg.hns/manifest.yao": "(manifest …)" }`; parents are created implicitly. */
  static from(files: Record<string, string | Uint8Array | MemoryEntry>): MemoryFs {
    const fs = new MemoryFs();
    for (const [path, value] of Object.entries(files)) {
      if (typeof value === "string") fs.writeFile(path, value);
      else if (value instanceof Uint8Array) fs.writeFile(path, value);
      else fs.put(path, value);
    }
    return fs;
  }

  writeFile(path: string, data: string | Uint8Array, options: { executable?: boolean } = {}): void {
    const bytes = typeof data === "string" ? encoder.encode(data) : data;
    this.put(path, { kind: "file", data: bytes, executable: options.executable ?? false });
  }

  mkdir(path: string): void {
    this.put(path, { kind: "directory" });
  }

  symlink(path: string, target: string): void {
    this.put(path, { kind: "symlink", target });
  }

  /**
   * Place `entry` at `path`, creating missing parents as directories. A parent that exists as
   * something else becomes a directory (the later entry wins), and an existing directory put again
   * as a directory keeps its children.
   */
  put(path: string, entry: MemoryEntry): void {
    const parts = components(absolute(path));
    if (parts.length === 0) return; // the root is always a directory
    let dir = this.root;
    for (let i = 0; i < parts.length - 1; i++) {
      const name = parts[i]!;
      let next = dir.children!.get(name);
      if (next === undefined || next.children === undefined) {
        next = directory();
        setChild(dir, name, next);
      }
      dir = next;
    }
    const name = parts[parts.length - 1]!;
    const existing = dir.children!.get(name);
    if (entry.kind === "directory") {
      if (existing?.children === undefined) setChild(dir, name, directory());
      return;
    }
    setChild(dir, name, { entry });
  }

  async lstat(path: string): Promise<FileStat | null> {
    const parts = components(absolute(path));
    if (parts.length === 0) return statOf(this.root.entry);
    let parent: Resolved;
    try {
      parent = this.resolveParts(parts.slice(0, -1), { n: 0 }, absolute(path));
    } catch {
      return null;
    }
    const node = parent.node.children?.get(parts[parts.length - 1]!);
    return node === undefined ? null : statOf(node.entry);
  }

  async stat(path: string): Promise<FileStat | null> {
    try {
      return statOf(this.resolvePath(path).node.entry);
    } catch {
      return null;
    }
  }

  async realpath(path: string): Promise<string> {
    return toPath(this.resolvePath(path).parts);
  }

  async readdir(path: string): Promise<string[]> {
    const { node } = this.resolvePath(path);
    if (node.children === undefined) throw new FsError("not_directory", path, `${path} is not a directory`);
    return [...node.children.keys()];
  }

  async readFile(path: string, maxBytes: number): Promise<Uint8Array> {
    const { node } = this.resolvePath(path);
    const e = node.entry;
    if (e.kind !== "file") throw new FsError("not_regular_file", path, `${path} is not a regular file`);
    if (e.data.length > maxBytes) {
      throw new FsError("too_large", path, `${path} is larger than the limit of ${maxBytes} bytes`);
    }
    return e.data;
  }

  /**
   * The package at `path` read into a snapshot under the same limits as the Node reader (entries,
   * depth, bytes per file and in total, per-file overrides), refused by its metadata before any
   * content is held. Symbolic links are recorded, never followed.
   */
  async snapshotPackage(path: string, overrides: Partial<SnapshotLimits> = {}): Promise<PackageSnapshot> {
    const limits: SnapshotLimits = { ...DEFAULT_SNAPSHOT_LIMITS, ...overrides };
    const requested = path;
    const abs = absolute(path);
    const base = { requested, root: abs, entries: new Map<string, SnapshotEntry>(), failure: null };
    const link = await this.lstat(abs);
    if (link === null) return freezeSnapshot({ ...base, rootState: "missing" });
    let resolved: Resolved;
    try {
      resolved = this.resolvePath(abs);
    } catch (e) {
      if (e instanceof FsError && (e.code === "not_found" || e.code === "loop"))
        return freezeSnapshot({ ...base, rootState: "dangling" });
      throw e;
    }
    const root = toPath(resolved.parts);
    const fail = (message: string) =>
      freezeSnapshot({
        requested,
        root,
        entries: new Map(),
        rootState: "present",
        failure: { code: "too_large", message },
      });
    const display = (rel: string) => (rel === "" ? root : `${root}/${rel}`);

    // First the metadata: entry count, depth and the bytes the snapshot would hold, before any content.
    const fileLimits = this.limitsByNode(resolved.node, limits);
    const { problem: over, entries: count } = metadataProblem(resolved.node, limits, fileLimits, display);
    if (over !== null) return fail(over);

    // Then the entries, in code-point order, into a tree keyed by directory and name: each child's
    // path is made once from its parent's and never hashed whole (a chain of folders would make
    // that quadratic in its depth), and the walk never resolves a path from the root.
    const entryOf = (node: Node, rel: string): SnapshotEntry => {
      const e = node.entry;
      if (e.kind === "directory") return { kind: "directory", path: rel };
      if (e.kind === "symlink") return { kind: "symlink", path: rel, target: e.target };
      if (e.kind !== "file") return { kind: e.kind, path: rel };
      const maxFileBytes = fileLimits.get(node) ?? limits.maxFileBytes;
      const size = e.data.length;
      const executable = e.executable ?? false;
      if (size <= maxFileBytes) return { kind: "file", path: rel, size, executable, bytes: e.data.slice() };
      const message = `${display(rel)} has ${size} bytes; the limit is ${maxFileBytes}`;
      return { kind: "file", path: rel, size, executable, bytes: null, error: { code: "too_large", message } };
    };
    const entries = new EntryTree(entryOf(resolved.node, ""), count);
    // Depth first, one frame per open directory (its slot, path prefix, children in code-point
    // order and the next one's index) as parallel stacks: the stacks grow with the depth, never
    // with a folder's width, and nothing is allocated per pending entry.
    const slots: number[] = [];
    const prefixes: string[] = [];
    const order: SortedChildren[] = [];
    const next: number[] = [];
    const open = (node: Node, slot: number, rel: string): void => {
      const children = node.children;
      if (children === undefined || children.size === 0) return;
      slots.push(slot);
      prefixes.push(rel === "" ? "" : `${rel}/`);
      order.push((node.sorted ??= sortedChildren(children)));
      next.push(0);
    };
    open(resolved.node, 0, "");
    while (slots.length > 0) {
      const top = slots.length - 1;
      const sorted = order[top]!;
      const i = next[top]!;
      if (i === sorted.names.length) {
        slots.pop();
        prefixes.pop();
        order.pop();
        next.pop();
        continue;
      }
      next[top] = i + 1;
      const name = sorted.names[i]!;
      const child = sorted.nodes[i]!;
      const rel = prefixes[top]! + name;
      open(child, entries.add(slots[top]!, name, entryOf(child, rel)), rel);
    }
    return freezeSnapshot({ requested, root, entries, rootState: "present", failure: null });
  }

  /**
   * The per-file limits by the node they name (looked up once each, without following links, as
   * the walk names entries), so the walks compare nodes instead of building every entry's path.
   */
  private limitsByNode(top: Node, limits: SnapshotLimits): Map<Node, number> {
    const out = new Map<Node, number>();
    for (const [rel, max] of limits.fileLimits ?? []) {
      let node: Node | undefined = top;
      for (const name of rel === "" ? [] : rel.split("/")) node = node?.children?.get(name);
      if (node !== undefined) out.set(node, max);
    }
    return out;
  }

  private resolvePath(path: string): Resolved {
    const abs = absolute(path);
    return this.resolveParts(components(abs), { n: 0 }, abs);
  }

  /**
   * Resolve every symlink in the path `parts` (from the root), throwing FsError(not_found | loop).
   * Iterative over a stack of pending components, so a long chain of links cannot recurse deeply.
   */
  private resolveParts(parts: readonly string[], hops: { n: number }, display: string): Resolved {
    const at: Node[] = [this.root];
    const names: string[] = [];
    const pending = [...parts].reverse();
    while (pending.length > 0) {
      const name = pending.pop()!;
      if (name === "." || name === "") continue;
      if (name === "..") {
        if (names.length > 0) {
          names.pop();
          at.pop();
        }
        continue;
      }
      const node = at[at.length - 1]!.children?.get(name);
      if (node === undefined) throw new FsError("not_found", display, `${display}: no such file or directory`);
      if (node.entry.kind === "symlink") {
        if (++hops.n > MAX_LINK_HOPS)
          throw new FsError("loop", display, `${display}: too many levels of symbolic links`);
        const target = node.entry.target;
        if (target.startsWith("/")) {
          names.length = 0;
          at.length = 1;
        }
        const targetParts = target.split("/");
        for (let i = targetParts.length - 1; i >= 0; i--) pending.push(targetParts[i]!);
        continue;
      }
      names.push(name);
      at.push(node);
    }
    return { node: at[at.length - 1]!, parts: names };
  }
}

/** A directory met by the metadata walk; its path is spelled out only for the depth message. */
interface Frame {
  readonly node: Node;
  readonly name: string;
  readonly up: Frame | null;
  readonly depth: number;
}

function relOf(f: Frame): string {
  const names: string[] = [];
  for (let at: Frame | null = f; at !== null && at.up !== null; at = at.up) names.push(at.name);
  return names.reverse().join("/");
}

/**
 * The first limit the tree under `top` passes by its metadata alone, in the Node reader's words.
 * One step per entry and no path strings (a chain of folders would make them quadratic in its
 * depth); a directory whose children alone pass the entry limit is refused before they are visited.
 */
function metadataProblem(
  top: Node,
  limits: SnapshotLimits,
  fileLimits: ReadonlyMap<Node, number>,
  display: (rel: string) => string,
): { readonly problem: string | null; readonly entries: number } {
  let count = 1;
  let bytes = 0;
  const stack: Frame[] = [{ node: top, name: "", up: null, depth: 0 }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const children = frame.node.children;
    if (children === undefined) continue;
    if (frame.depth >= limits.maxDepth)
      return {
        problem: `${display(relOf(frame))}: directories nest more than ${limits.maxDepth} levels deep`,
        entries: count,
      };
    count += children.size;
    if (count > limits.maxEntries)
      return { problem: `the package has more than ${limits.maxEntries} entries`, entries: count };
    for (const [name, child] of children) {
      if (child.entry.kind === "file") {
        const max = fileLimits.get(child) ?? limits.maxFileBytes;
        if (child.entry.data.length <= max) bytes += child.entry.data.length;
      } else if (child.children !== undefined && (child.children.size > 0 || frame.depth + 1 >= limits.maxDepth))
        // An empty folder within the depth limit passes no limit: it is counted here, never visited
        // (a folder of 20,000 empty ones made a frame each). Past the depth it is refused, as on disk.
        stack.push({ node: child, name, up: frame, depth: frame.depth + 1 });
    }
  }
  if (top.entry.kind === "file") bytes = top.entry.data.length;
  return { problem: metadataOverLimit(bytes, limits), entries: count };
}

interface Resolved {
  readonly node: Node;
  readonly parts: readonly string[];
}

function absolute(path: string): string {
  return normalizePath(path.startsWith("/") ? path : `/${path}`);
}

function components(abs: string): string[] {
  return abs.split("/").filter((s) => s !== "");
}

function toPath(parts: readonly string[]): string {
  return `/${parts.join("/")}`;
}

function statOf(e: MemoryEntry): FileStat {
  if (e.kind === "file") return { kind: "file", size: e.data.length, executable: e.executable ?? false };
  return { kind: e.kind, size: 0 };
}
