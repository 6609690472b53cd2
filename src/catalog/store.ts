/**
 * The storage a catalog needs, and nothing more: whole-file reads, atomic replace, atomic exclusive
 * create, listing, removal and rename. Paths are relative to the catalog root, "/"-separated, and
 * built only by src/catalog/layout.ts (from hashes, never from package ids).
 *
 * The core never imports `node:`; the Node implementation is node-store.ts, and MemoryCatalogStore
 * below serves tests, browsers and runtimes that keep the catalog elsewhere.
 */

export interface StoreEntry {
  readonly name: string;
  /** Last modification, milliseconds since the epoch. */
  readonly mtimeMs: number;
}

/**
 * `not_regular_file` and `too_large` describe a damaged entry (a link, directory, FIFO or oversized
 * file where a stored file belongs); `read_only` a catalog that cannot be written at all.
 */
export type StoreErrorCode =
  | "io"
  | "permission_denied"
  | "not_directory"
  | "not_regular_file"
  | "too_large"
  | "read_only";

/** A storage failure; `message` names the path and says what went wrong. */
export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = "StoreError";
  }
}

export interface CatalogStore {
  /** A human-readable name of where the catalog lives (the directory, for the Node store). */
  readonly location: string;
  /**
   * The whole content of a file, or `null` when it does not exist. With `maxBytes`, the size is
   * checked before anything is read (StoreError `too_large`); anything but a regular file is
   * refused without reading from it (StoreError `not_regular_file`).
   */
  read(path: string, maxBytes?: number): Promise<Uint8Array | null>;
  /**
   * Create or replace `path` so that readers see either the old content or all of `data`, never a
   * mix, and so that after the promise resolves the content survives a crash (temp file in `tmp/`,
   * fsync, rename, fsync of the directory).
   */
  writeAtomic(path: string, data: Uint8Array): Promise<void>;
  /**
   * Create `path` with all of `data` only if nothing is there; `false` when something already is.
   * Atomic: among any number of racing callers exactly one gets `true`, and the file never exists
   * with partial content (temp file, fsync, hard link into place). No lock is taken, so nothing is
   * left held by a killed process.
   */
  createExclusive(path: string, data: Uint8Array): Promise<boolean>;
  /** Entries (files) of a directory; empty when the directory does not exist. */
  list(dir: string): Promise<StoreEntry[]>;
  /** Names of everything (files and directories) directly in the catalog root; empty when it does not exist. */
  listRoot(): Promise<string[]>;
  /** Remove a file; `false` when it was already gone. */
  remove(path: string): Promise<boolean>;
  /** Atomically rename a file, replacing any file at `to`; `false` when `from` does not exist. */
  rename(from: string, to: string): Promise<boolean>;
}

/** The directory temp files live in; everything in it is ignored by readers. */
export const TEMP_DIR = "tmp";

/** A catalog store held in memory (same semantics as the Node store, minus durability). */
export class MemoryCatalogStore implements CatalogStore {
  readonly location: string;
  private readonly files = new Map<string, { data: Uint8Array; mtimeMs: number }>();

  constructor(location = "memory:") {
    this.location = location;
  }

  async read(path: string, maxBytes?: number): Promise<Uint8Array | null> {
    const f = this.files.get(path);
    if (f !== undefined && maxBytes !== undefined && f.data.length > maxBytes) {
      throw new StoreError("too_large", path, `${path} has ${f.data.length} bytes; at most ${maxBytes} are expected`);
    }
    return f === undefined ? null : f.data.slice();
  }

  async writeAtomic(path: string, data: Uint8Array): Promise<void> {
    this.files.set(path, { data: data.slice(), mtimeMs: Date.now() });
  }

  async createExclusive(path: string, data: Uint8Array): Promise<boolean> {
    if (this.files.has(path)) return false;
    this.files.set(path, { data: data.slice(), mtimeMs: Date.now() });
    return true;
  }

  async list(dir: string): Promise<StoreEntry[]> {
    const prefix = `${dir}/`;
    const out: StoreEntry[] = [];
    for (const [path, f] of this.files) {
      if (path.startsWith(prefix) && !path.slice(prefix.length).includes("/"))
        out.push({ name: path.slice(prefix.length), mtimeMs: f.mtimeMs });
    }
    return out;
  }

  async listRoot(): Promise<string[]> {
    return [...new Set([...this.files.keys()].map((p) => p.split("/")[0]!))];
  }

  async remove(path: string): Promise<boolean> {
    return this.files.delete(path);
  }

  async rename(from: string, to: string): Promise<boolean> {
    const f = this.files.get(from);
    if (f === undefined) return false;
    this.files.delete(from);
    this.files.set(to, f);
    return true;
  }

  /** Test helper: put raw bytes at a path (e.g. a corrupted object or a leftover temp file). */
  putRaw(path: string, data: Uint8Array | string, mtimeMs = Date.now()): void {
    this.files.set(path, { data: typeof data === "string" ? new TextEncoder().encode(data) : data, mtimeMs });
  }

  /** Test helper: the bytes at a path, synchronously. */
  peek(path: string): Uint8Array | undefined {
    return this.files.get(path)?.data;
  }

  /** Test helper: every stored path. */
  paths(): string[] {
    return [...this.files.keys()].sort();
  }
}
