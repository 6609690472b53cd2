/**
 * The on-disk store of `yaoc check --cache` (Node adapter): one file per entry under
 * `<dir>/v<format>/<first two hex digits>/<key>`, in the format of ./entry.ts.
 *
 * - Writers never leave a partial entry: an entry is written to a temporary file in `<dir>/tmp/`
 *   (named by process, time and a random suffix, created exclusively) and renamed into place; a
 *   rename on one file system is atomic, so two processes writing the same key at once leave one
 *   whole entry, whichever renamed last. A reader that finds a damaged entry anyway (a crash of the
 *   disk, a hand edit) gets a decode failure from ./entry.ts and rewrites it.
 * - Least recently used entries go first when the store grows past its budget: a hit sets the
 *   entry's modification time to now, and `prune` (after a run that wrote entries) removes entries
 *   oldest first until the total size is within the budget. Temporary files older than an hour
 *   (left by a killed process) are removed by `prune` too.
 * - Every failure to read or write the store is swallowed: the cache only ever saves work, so a
 *   read-only or full disk makes a run uncached, never wrong. `problems` says what went wrong, once.
 *
 * The directory gets a `CACHEDIR.TAG` (backup tools skip it) and a `.gitignore` of `*`.
 * Synchronous file calls: an entry is small, and a hit should cost a few system calls, not a trip
 * through the thread pool per call.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
  constants,
  promises as fsp,
} from "node:fs";
import { join } from "node:path";
import { CACHE_FORMAT } from "./key.js";
import { decodeEntry, encodeEntry, type CachedCheck, type EntryDamage } from "./entry.js";

/** Default `--cache-max-mib`. */
export const DEFAULT_CACHE_MAX_MIB = 256;

/** An entry larger than this is never read (a real entry is far smaller; a huge file is not ours). */
const MAX_ENTRY_BYTES = 64 * 1024 * 1024;
/** Entry writes `putSoon` lets run on the thread pool at once before it waits for one. */
const MAX_WRITES_IN_FLIGHT = 32;
/**
 * A hit refreshes its entry's modification time (its last use, for pruning) only when that is older
 * than this, as Linux's `relatime` does for access times: a run right after another costs no
 * write per hit, and pruning still orders entries by use to within this much.
 */
export const USE_GRANULARITY_MS = 60 * 60 * 1000;
/** A temporary file older than this was left by a process that died mid-write. */
const STALE_TMP_MS = 60 * 60 * 1000;

const CACHEDIR_TAG =
  "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by yaoc.\n# For information about cache directory tags see https://bford.info/cachedir/\n";

export interface CacheStats {
  /** Full scans of the store by `prune` (each lists and stats every entry). */
  scans: number;
  hits: number;
  misses: number;
  /** Entries found but not trusted (damaged, another key's, another version's), by reason. */
  damaged: Partial<Record<EntryDamage, number>>;
  written: number;
  /** Bytes of the entries written. */
  writtenBytes: number;
  pruned: number;
}

export class NodeCacheStore {
  readonly stats: CacheStats = { scans: 0, hits: 0, misses: 0, damaged: {}, written: 0, writtenBytes: 0, pruned: 0 };
  /** The first failure to use the store (reading, writing or pruning), for one warning. */
  problem: string | null = null;
  private readonly entries: string;
  /** `entries` and a slash: `fileOf` runs once per package, and `path.join` normalises every time. */
  private readonly entriesSlash: string;
  private readonly tmpSlash: string;
  /** The store's size as last counted (see `pruneIfDue`). */
  private readonly usageFile: string;
  private readonly tmp: string;
  private prepared = false;
  /** The entries folder did not exist before this store's first write: its size is what this run wrote. */
  private startedEmpty = false;
  /** Shard directories known to exist (each is created once per run). */
  private readonly shards = new Set<string>();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    readonly dir: string,
    readonly version: string,
    readonly maxBytes: number = DEFAULT_CACHE_MAX_MIB * 1024 * 1024,
  ) {
    this.entries = join(dir, `v${CACHE_FORMAT}`);
    this.entriesSlash = `${this.entries}/`;
    this.tmp = join(dir, "tmp");
    this.tmpSlash = `${this.tmp}/`;
    this.usageFile = join(dir, "usage");
  }

  /** The cached check under `key`, or undefined (absent or not trusted: the caller recomputes and puts). */
  get(key: string): CachedCheck | undefined {
    const file = this.fileOf(key);
    let bytes: Uint8Array;
    let modified: number;
    try {
      ({ bytes, modified } = readSmallFile(file));
    } catch (e) {
      if (code(e) !== "ENOENT") this.note(`cannot read ${file}: ${message(e)}`);
      this.stats.misses++;
      return undefined;
    }
    const decoded = decodeEntry(bytes, key, this.version);
    if ("damage" in decoded) {
      this.stats.damaged[decoded.damage] = (this.stats.damaged[decoded.damage] ?? 0) + 1;
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    // Recency for pruning: the modification time is the last use (to within USE_GRANULARITY_MS).
    const now = Date.now();
    if (now - modified > USE_GRANULARITY_MS || modified > now)
      try {
        utimesSync(file, now / 1000, now / 1000);
      } catch {
        // a read-only store still serves hits
      }
    return decoded.check;
  }

  /** Store `check` under `key` (write a temporary file, then rename it into place). */
  put(key: string, check: CachedCheck): void {
    const bytes = encodeEntry(key, this.version, check);
    if (bytes === null) return;
    const file = this.fileOf(key);
    let tmpFile: string | null = null;
    try {
      this.prepare();
      const shard = key.slice(0, 2);
      if (!this.shards.has(shard)) {
        mkdirSync(join(this.entries, shard), { recursive: true });
        this.shards.add(shard);
      }
      tmpFile = `${this.tmpSlash}${key.slice(0, 16)}.${process.pid}.${Date.now()}.${randomBytes(6).toString("hex")}`;
      writeNew(tmpFile, bytes);
      renameSync(tmpFile, file);
      tmpFile = null;
      this.stats.written++;
      this.stats.writtenBytes += bytes.length;
    } catch (e) {
      this.note(`cannot write ${file}: ${message(e)}`);
    } finally {
      if (tmpFile !== null) removeQuietly(tmpFile);
    }
  }

  /**
   * `put` without waiting for the disk: the entry is encoded now and written (temporary file, then
   * rename) on the thread pool while the next package is checked. Creating a file waits for the
   * file system's journal; done in line it took a cold run to 1.6× an uncached one on this machine.
   * Resolves at once unless `MAX_WRITES_IN_FLIGHT` writes are pending; `flush` waits for all.
   */
  async putSoon(key: string, check: CachedCheck): Promise<void> {
    const bytes = encodeEntry(key, this.version, check);
    if (bytes === null) return;
    const write = this.writeAsync(key, bytes).finally(() => this.inFlight.delete(write));
    this.inFlight.add(write);
    if (this.inFlight.size >= MAX_WRITES_IN_FLIGHT) await Promise.race(this.inFlight);
  }

  /** Wait until every entry given to `putSoon` is written (or has failed, noted in `problem`). */
  async flush(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
  }

  private async writeAsync(key: string, bytes: Uint8Array): Promise<void> {
    const file = this.fileOf(key);
    let tmpFile: string | null = null;
    try {
      this.prepare();
      const shard = key.slice(0, 2);
      if (!this.shards.has(shard)) {
        await fsp.mkdir(join(this.entries, shard), { recursive: true });
        this.shards.add(shard);
      }
      tmpFile = join(this.tmp, `${key.slice(0, 16)}.${process.pid}.${Date.now()}.${randomBytes(6).toString("hex")}`);
      await fsp.writeFile(tmpFile, bytes, { flag: "wx", mode: 0o644 });
      await fsp.rename(tmpFile, file);
      tmpFile = null;
      this.stats.written++;
      this.stats.writtenBytes += bytes.length;
    } catch (e) {
      this.note(`cannot write ${file}: ${message(e)}`);
    } finally {
      if (tmpFile !== null) await fsp.unlink(tmpFile).catch(() => {});
    }
  }

  /**
   * After a run that wrote entries: `prune` when the store may be past its budget. Listing and
   * stat-ing every entry cost a cold run of 5,000 packages about 70 µs per entry, so the store keeps
   * its size in `DIR/usage` (written by each full scan, then grown by each run's writes) and scans
   * only when that estimate is missing, more than USE_GRANULARITY_MS old, or past the budget. A
   * store this run created is exactly what it wrote. Two runs writing at once may each miss the
   * other's bytes; the next scan, at most an hour later, counts them. Returns the entries removed.
   */
  pruneIfDue(): number {
    if (this.stats.written === 0) return 0;
    const known = this.startedEmpty ? { bytes: 0, scannedAt: Date.now() } : this.readUsage();
    if (known === null || Date.now() - known.scannedAt > USE_GRANULARITY_MS) return this.prune();
    const bytes = known.bytes + this.stats.writtenBytes;
    if (bytes > this.maxBytes) return this.prune();
    this.writeUsage(bytes, known.scannedAt);
    return 0;
  }

  private readUsage(): { bytes: number; scannedAt: number } | null {
    try {
      const u = JSON.parse(readFileSync(this.usageFile, "utf8")) as { bytes?: unknown; scanned_at?: unknown };
      if (typeof u.bytes !== "number" || typeof u.scanned_at !== "number" || u.scanned_at > Date.now()) return null;
      return { bytes: u.bytes, scannedAt: u.scanned_at };
    } catch {
      return null;
    }
  }

  /** The usage file, replaced whole (temporary file, then rename) like an entry. */
  private writeUsage(bytes: number, scannedAt: number): void {
    const tmpFile = `${this.tmpSlash}usage.${process.pid}.${randomBytes(6).toString("hex")}`;
    try {
      this.prepare();
      writeNew(tmpFile, new TextEncoder().encode(JSON.stringify({ bytes, scanned_at: scannedAt })));
      renameSync(tmpFile, this.usageFile);
    } catch (e) {
      removeQuietly(tmpFile);
      this.note(`cannot write ${this.usageFile}: ${message(e)}`);
    }
  }

  /**
   * Remove the least recently used entries until the store is within its budget, and temporary
   * files a killed writer left behind. Returns how many entries were removed.
   */
  prune(): number {
    let listed: { file: string; size: number; used: number }[] = [];
    let total = 0;
    try {
      if (!existsSync(this.entries)) return 0;
      for (const shard of readdirSync(this.entries)) {
        const shardDir = join(this.entries, shard);
        let names: string[];
        try {
          names = readdirSync(shardDir);
        } catch {
          continue;
        }
        for (const name of names) {
          const file = join(shardDir, name);
          try {
            const st = statSync(file);
            if (!st.isFile()) continue;
            listed.push({ file, size: st.size, used: st.mtimeMs });
            total += st.size;
          } catch {
            // removed by another process meanwhile
          }
        }
      }
      this.removeStaleTemporaries();
    } catch (e) {
      this.note(`cannot prune ${this.dir}: ${message(e)}`);
      return 0;
    }
    this.stats.scans++;
    const scannedAt = Date.now();
    if (total <= this.maxBytes) {
      this.writeUsage(total, scannedAt);
      return 0;
    }
    listed = listed.sort((a, b) => a.used - b.used || (a.file < b.file ? -1 : 1));
    let removed = 0;
    for (const e of listed) {
      if (total <= this.maxBytes) break;
      if (removeQuietly(e.file)) {
        total -= e.size;
        removed++;
      }
    }
    this.stats.pruned += removed;
    this.writeUsage(total, scannedAt);
    return removed;
  }

  /** Where the entry of `key` lives. */
  fileOf(key: string): string {
    return `${this.entriesSlash}${key.slice(0, 2)}/${key}`;
  }

  private prepare(): void {
    if (this.prepared) return;
    this.startedEmpty = !existsSync(this.entries);
    mkdirSync(this.tmp, { recursive: true });
    const tag = join(this.dir, "CACHEDIR.TAG");
    if (!existsSync(tag)) writeFileSync(tag, CACHEDIR_TAG);
    const ignore = join(this.dir, ".gitignore");
    if (!existsSync(ignore)) writeFileSync(ignore, "# Created by yaoc check --cache.\n*\n");
    this.prepared = true;
  }

  private removeStaleTemporaries(): void {
    if (!existsSync(this.tmp)) return;
    const now = Date.now();
    for (const name of readdirSync(this.tmp)) {
      const file = join(this.tmp, name);
      try {
        if (now - statSync(file).mtimeMs > STALE_TMP_MS) unlinkSync(file);
      } catch {
        // gone already
      }
    }
  }

  private note(problem: string): void {
    this.problem ??= problem;
  }
}

/**
 * The bytes and modification time (ms) of a regular file of at most MAX_ENTRY_BYTES, opened without
 * following a link or blocking on a FIFO.
 */
function readSmallFile(file: string): { bytes: Uint8Array; modified: number } {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw Object.assign(new Error(`${file} is not a regular file`), { code: "EINVAL" });
    if (st.size > MAX_ENTRY_BYTES) throw Object.assign(new Error(`${file} is too large`), { code: "EFBIG" });
    const buf = new Uint8Array(st.size);
    let at = 0;
    while (at < buf.length) {
      const n = readSync(fd, buf, at, buf.length - at, at);
      if (n === 0) break;
      at += n;
    }
    return { bytes: at === buf.length ? buf : buf.subarray(0, at), modified: st.mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/** Create `file` (it must not exist) holding `bytes`: three system calls, no options parsing. */
function writeNew(file: string, bytes: Uint8Array): void {
  const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
  try {
    let at = 0;
    while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
  } finally {
    closeSync(fd);
  }
}

function removeQuietly(file: string): boolean {
  try {
    unlinkSync(file);
    return true;
  } catch {
    return false;
  }
}

function code(e: unknown): string | undefined {
  return (e as { code?: string } | null)?.code;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
