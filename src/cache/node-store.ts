/**
 * The on-disk store of `yaoc check --cache` (Node adapter): packs of entries under `<dir>/v<format>/`,
 * each entry in the format of ./entry.ts.
 *
 * Format 2 wrote one file per entry (a temporary file, then a rename): on this disk the kernel spent
 * 150–250 µs on each, and a first run with an empty cache took 1.3–1.5× an uncached one. Now a run
 * keeps the entries it computes in memory and writes them, after its output, as ONE pack file:
 *
 *     yaoc-cache-pack <format> <index byte length> <SHA-256 of the index, hex>\n
 *     <index: JSON array of [key, offset, length, used at (ms)], offsets from the end of the index>
 *     <the entries, back to back>
 *
 * - Writers never leave a partial pack: a pack is written to a temporary file in `<dir>/tmp/`
 *   (named by process, thread, time and a random suffix, created exclusively) and renamed into
 *   place, so two processes writing one cache at once each add one whole pack. A pack is never
 *   changed after that, only replaced whole by a compaction (below) and then removed.
 * - A damaged pack or entry is never trusted: an index that fails its checksum drops the whole pack
 *   (every entry of it a miss), and each entry keeps its own seal (./entry.ts), so a flipped byte, a
 *   truncated pack, an entry placed under another key or written by another version is a miss; the
 *   package is checked and its entry written again, in this run's pack, which then wins (the index
 *   prefers the latest use; ties go to the later pack).
 * - Least recently used entries go first: a hit whose recorded use is more than USE_GRANULARITY_MS
 *   old is copied into this run's pack with the time of now (like Linux's `relatime`: a run right
 *   after another writes nothing). When the packs pass the budget, or there are more than MAX_PACKS
 *   of them, they are compacted into one holding the most recently used entries that fit, and the
 *   old packs are removed. A reader that opened a pack before it was removed keeps reading it
 *   (POSIX keeps an open file), and one that finds it gone takes a miss.
 * - Folders of other formats (`v1/`, `v2/`: one file per entry under two-digit shards) and the
 *   format-2 `usage` file are removed, only as far as they hold that layout, in a directory that
 *   carries yaoc's CACHEDIR.TAG.
 * - Every failure to read or write the store is swallowed: the cache only ever saves work, so a
 *   read-only or full disk makes a run uncached, never wrong. `problem` says what went wrong, once.
 *
 * The directory gets a `CACHEDIR.TAG` (backup tools skip it) and a `.gitignore` of `*`. Synchronous
 * file calls: a hit is one positioned read of an open pack, and a run's writes are one file.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  existsSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
  constants,
} from "node:fs";
import { join } from "node:path";
import { bytesToHex } from "@noble/hashes/utils.js";
import { sha256Digest } from "../canonical/hash.js";
import { CACHE_FORMAT } from "./key.js";
import { decodeEntry, encodeEntry, type CachedCheck, type EntryDamage } from "./entry.js";

/** Default `--cache-max-mib`. */
export const DEFAULT_CACHE_MAX_MIB = 256;

/** An entry larger than this is never read (a real entry is far smaller; a huge record is not ours). */
const MAX_ENTRY_BYTES = 64 * 1024 * 1024;
/** An index larger than this is not read (about a million entries). */
const MAX_INDEX_BYTES = 128 * 1024 * 1024;
/** Entries held in memory before a pack is written mid-run (a long run's memory stays bounded). */
const MAX_PENDING_BYTES = 32 * 1024 * 1024;
/** Packs past this many are compacted into one after the run (each pack costs a run an open and an index read). */
export const MAX_PACKS = 8;
/**
 * A hit's recorded use is refreshed (the entry copied into this run's pack) only when older than
 * this, as Linux's `relatime` does for access times: a run right after another writes nothing, and
 * pruning still orders entries by use to within this much.
 */
export const USE_GRANULARITY_MS = 60 * 60 * 1000;
/** A temporary file older than this was left by a process that died mid-write. */
const STALE_TMP_MS = 60 * 60 * 1000;

const PACK_HEADER = "yaoc-cache-pack";
const PACK_SUFFIX = ".pack";
const CACHEDIR_SIGNATURE = "Signature: 8a477f597d28d172789f06886806bc55";
const CACHEDIR_TAG = `${CACHEDIR_SIGNATURE}\n# This file is a cache directory tag created by yaoc.\n# For information about cache directory tags see https://bford.info/cachedir/\n`;
const OPEN_READ = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const encoder = new TextEncoder();

export interface CacheStats {
  /** Compactions (each reads every pack's index and writes one pack). */
  scans: number;
  hits: number;
  misses: number;
  /** Entries found but not trusted (damaged, another key's, another version's), by reason. */
  damaged: Partial<Record<EntryDamage, number>>;
  /** Packs whose header or index failed its check (all their entries ignored). */
  damagedPacks: number;
  /** Entries computed and written by this store (refreshed hits not counted). */
  written: number;
  /** Bytes of the entries written. */
  writtenBytes: number;
  /** Packs written (a run writes at most one unless it holds more than MAX_PENDING_BYTES). */
  packsWritten: number;
  /** Hits copied into a new pack to record their use. */
  refreshed: number;
  pruned: number;
}

/** One entry of a pack as its index gives it. */
export interface PackRecord {
  readonly key: string;
  readonly usedAt: number;
  readonly bytes: Uint8Array;
}

/** Where an entry is: a pack open for reading, the entry's place in it and its recorded use. */
interface Located {
  readonly pack: OpenPack;
  readonly offset: number;
  readonly length: number;
  readonly usedAt: number;
}

interface OpenPack {
  readonly file: string;
  readonly fd: number;
}

interface Pending {
  readonly bytes: Uint8Array;
  readonly usedAt: number;
  /** Computed by this run (false: a hit copied to record its use). */
  readonly fresh: boolean;
}

export class NodeCacheStore {
  readonly stats: CacheStats = {
    scans: 0,
    hits: 0,
    misses: 0,
    damaged: {},
    damagedPacks: 0,
    written: 0,
    writtenBytes: 0,
    packsWritten: 0,
    refreshed: 0,
    pruned: 0,
  };
  /** The first failure to use the store (reading, writing or pruning), for one warning. */
  problem: string | null = null;
  private readonly packs: string;
  private readonly tmp: string;
  private prepared = false;
  /** Every entry of the packs read so far, by key (loaded on the first `get`). */
  private index: Map<string, Located> | null = null;
  private readonly open: OpenPack[] = [];
  private readonly pending = new Map<string, Pending>();
  private pendingBytes = 0;
  /** Keys whose entry was found damaged: the rewrite must outrank it whatever time it claims. */
  private readonly superseded = new Map<string, number>();

  constructor(
    readonly dir: string,
    readonly version: string,
    readonly maxBytes: number = DEFAULT_CACHE_MAX_MIB * 1024 * 1024,
    /** The time of a use (tests set it). */
    private readonly clock: () => number = Date.now,
  ) {
    this.packs = join(dir, `v${CACHE_FORMAT}`);
    this.tmp = join(dir, "tmp");
  }

  /** The cached check under `key`, or undefined (absent or not trusted: the caller recomputes and puts). */
  get(key: string): CachedCheck | undefined {
    const waiting = this.pending.get(key);
    if (waiting !== undefined) {
      const decoded = decodeEntry(waiting.bytes, key, this.version);
      if ("check" in decoded) {
        this.stats.hits++;
        return decoded.check;
      }
    }
    const at = this.load().get(key);
    if (at === undefined) {
      this.stats.misses++;
      return undefined;
    }
    let bytes: Uint8Array;
    try {
      bytes = readAt(at.pack.fd, at.offset, at.length);
    } catch (e) {
      this.note(`cannot read ${at.pack.file}: ${message(e)}`);
      this.stats.misses++;
      return undefined;
    }
    const decoded = decodeEntry(bytes, key, this.version);
    if ("damage" in decoded) {
      this.stats.damaged[decoded.damage] = (this.stats.damaged[decoded.damage] ?? 0) + 1;
      this.superseded.set(key, at.usedAt);
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    const now = this.clock();
    if (now - at.usedAt > USE_GRANULARITY_MS && !this.pending.has(key)) {
      this.addPending(key, { bytes, usedAt: now, fresh: false });
      this.stats.refreshed++;
    }
    return decoded.check;
  }

  /** Store `check` under `key` now (a pack of one entry; `putSoon` batches a run's entries into one). */
  put(key: string, check: CachedCheck): void {
    const bytes = encodeEntry(key, this.version, check);
    if (bytes === null) return;
    this.addPending(key, this.fresh(key, bytes));
    this.writePending();
  }

  /** Store `check` under `key` with the rest of this run's entries: written by `flush` as one pack. */
  async putSoon(key: string, check: CachedCheck): Promise<void> {
    const bytes = encodeEntry(key, this.version, check);
    if (bytes === null) return;
    this.addPending(key, this.fresh(key, bytes));
  }

  /** Entries computed here and not yet written, handed to another store (a worker thread's, to the CLI's thread). */
  takePending(): [string, Uint8Array][] {
    const out: [string, Uint8Array][] = [];
    for (const [key, p] of this.pending) if (p.fresh) out.push([key, p.bytes]);
    for (const [key] of out) this.pending.delete(key);
    this.pendingBytes = 0;
    for (const p of this.pending.values()) this.pendingBytes += p.bytes.length;
    return out;
  }

  /** Entries another store computed (`takePending`), written with this run's. Each is checked to be a whole entry for its key. */
  adopt(entries: readonly (readonly [string, Uint8Array])[]): void {
    for (const [key, bytes] of entries)
      if ("check" in decodeEntry(bytes, key, this.version)) this.addPending(key, this.fresh(key, bytes));
  }

  /** Write every entry given to `putSoon` (one pack). */
  async flush(): Promise<void> {
    this.writePending();
  }

  /** The entries waiting, as one pack: temporary file, then rename. Registered for later `get`s. */
  writePending(): void {
    if (this.pending.size === 0) return;
    const records: PackRecord[] = [];
    for (const [key, p] of this.pending) records.push({ key, usedAt: p.usedAt, bytes: p.bytes });
    let tmpFile: string | null = null;
    const name = `${String(this.clock()).padStart(15, "0")}-${process.pid}-${randomBytes(4).toString("hex")}${PACK_SUFFIX}`;
    const file = join(this.packs, name);
    try {
      this.prepare();
      const { header, index, rows } = packLayout(records);
      tmpFile = join(this.tmp, `${name}.tmp`);
      const fd = openSync(tmpFile, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
      try {
        writeAll(fd, header);
        writeAll(fd, index);
        for (const r of records) writeAll(fd, r.bytes);
      } finally {
        closeSync(fd);
      }
      renameSync(tmpFile, file);
      tmpFile = null;
      this.stats.packsWritten++;
      for (const p of this.pending.values())
        if (p.fresh) {
          this.stats.written++;
          this.stats.writtenBytes += p.bytes.length;
        }
      if (this.index !== null) {
        // Later `get`s of this process (watch mode) find these entries in the pack just written.
        const pack = { file, fd: openSync(file, OPEN_READ) };
        this.open.push(pack);
        const base = header.length + index.length;
        for (const row of rows) this.index.set(row[0], { pack, offset: base + row[1], length: row[2], usedAt: row[3] });
      }
    } catch (e) {
      this.note(`cannot write ${file}: ${message(e)}`);
    } finally {
      if (tmpFile !== null) removeQuietly(tmpFile);
      this.pending.clear();
      this.pendingBytes = 0;
    }
  }

  /**
   * After a run: compact when the packs are past the budget or more than MAX_PACKS, and remove
   * folders of other formats. Returns the entries removed.
   */
  pruneIfDue(): number {
    this.removeOtherFormats();
    if (this.stats.packsWritten === 0) return 0;
    let total = 0;
    let count = 0;
    try {
      for (const name of readdirSync(this.packs)) {
        if (!name.endsWith(PACK_SUFFIX)) continue;
        try {
          total += statSync(join(this.packs, name)).size;
          count++;
        } catch {
          // compacted away by another process meanwhile
        }
      }
    } catch (e) {
      this.note(`cannot prune ${this.dir}: ${message(e)}`);
      return 0;
    }
    if (total <= this.maxBytes && count <= MAX_PACKS) return 0;
    return this.prune();
  }

  /**
   * Compact every pack into one holding the most recently used entries that fit the budget, remove
   * the old packs and temporary files a killed writer left behind. Returns how many entries were
   * removed. The new pack is written entry by entry, so memory stays at one entry.
   */
  prune(): number {
    this.writePending();
    this.close();
    let names: string[];
    try {
      if (!existsSync(this.packs)) return 0;
      names = readdirSync(this.packs).filter((n) => n.endsWith(PACK_SUFFIX));
    } catch (e) {
      this.note(`cannot prune ${this.dir}: ${message(e)}`);
      return 0;
    }
    const index = this.load();
    const live = [...index].sort((a, b) => b[1].usedAt - a[1].usedAt || (a[0] < b[0] ? -1 : 1));
    const kept: [string, Located][] = [];
    let size = 0;
    for (const e of live) {
      const cost = packedSize(e[0], e[1].length, e[1].usedAt);
      if (size + cost > this.maxBytes) continue;
      size += cost;
      kept.push(e);
    }
    const removed = live.length - kept.length;
    let tmpFile: string | null = null;
    try {
      this.prepare();
      if (kept.length > 0) {
        const name = `${String(this.clock()).padStart(15, "0")}-${process.pid}-${randomBytes(4).toString("hex")}${PACK_SUFFIX}`;
        const rows = kept.map(([key, at]) => ({ key, usedAt: at.usedAt, length: at.length }));
        const { header, index: indexBytes } = packLayoutOf(rows);
        tmpFile = join(this.tmp, `${name}.tmp`);
        const fd = openSync(tmpFile, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
        try {
          writeAll(fd, header);
          writeAll(fd, indexBytes);
          for (const [, at] of kept) {
            const bytes = readAt(at.pack.fd, at.offset, at.length);
            // A record cut short by a truncated pack keeps its length (padding fails its seal).
            writeAll(fd, bytes.length === at.length ? bytes : padded(bytes, at.length));
          }
        } finally {
          closeSync(fd);
        }
        renameSync(tmpFile, join(this.packs, name));
        tmpFile = null;
      }
      for (const n of names) removeQuietly(join(this.packs, n));
      this.removeStaleTemporaries();
    } catch (e) {
      this.note(`cannot prune ${this.dir}: ${message(e)}`);
      return 0;
    } finally {
      if (tmpFile !== null) removeQuietly(tmpFile);
      this.close();
    }
    this.stats.scans++;
    this.stats.pruned += removed;
    return removed;
  }

  /** Close the packs open for reading; the next `get` reads the indexes again (and sees other processes' packs). */
  close(): void {
    for (const p of this.open.splice(0)) {
      try {
        closeSync(p.fd);
      } catch {
        // already closed
      }
    }
    this.index = null;
  }

  private fresh(key: string, bytes: Uint8Array): Pending {
    const now = this.clock();
    const damaged = this.superseded.get(key);
    return { bytes, usedAt: damaged === undefined ? now : Math.max(now, damaged + 1), fresh: true };
  }

  private addPending(key: string, p: Pending): void {
    const before = this.pending.get(key);
    if (before !== undefined) this.pendingBytes -= before.bytes.length;
    this.pending.set(key, p);
    this.pendingBytes += p.bytes.length;
    if (this.pendingBytes > MAX_PENDING_BYTES) this.writePending();
  }

  /** Every pack's index, read once (and again after `close`). */
  private load(): Map<string, Located> {
    if (this.index !== null) return this.index;
    const index = new Map<string, Located>();
    this.index = index;
    let names: string[];
    try {
      names = readdirSync(this.packs);
    } catch (e) {
      if (code(e) !== "ENOENT") this.note(`cannot read ${this.packs}: ${message(e)}`);
      return index;
    }
    // Names begin with the time written: in this order a later pack wins a tie.
    names.sort();
    const now = this.clock();
    for (const name of names) {
      if (!name.endsWith(PACK_SUFFIX)) continue;
      const file = join(this.packs, name);
      let fd: number;
      try {
        fd = openSync(file, OPEN_READ);
      } catch (e) {
        if (code(e) !== "ENOENT") this.note(`cannot read ${file}: ${message(e)}`);
        continue;
      }
      const read = readIndex(fd);
      if (read === null) {
        this.stats.damagedPacks++;
        closeSync(fd);
        continue;
      }
      const pack = { file, fd };
      this.open.push(pack);
      for (const [key, offset, length, used] of read.rows) {
        // A use in the future is not believed (a clock set back, a forged pack): it counts as oldest.
        const usedAt = used > now + USE_GRANULARITY_MS ? 0 : used;
        const before = index.get(key);
        if (before === undefined || usedAt >= before.usedAt)
          index.set(key, { pack, offset: read.base + offset, length, usedAt });
      }
    }
    return index;
  }

  private prepare(): void {
    if (this.prepared) return;
    mkdirSync(this.tmp, { recursive: true });
    mkdirSync(this.packs, { recursive: true });
    const tag = join(this.dir, "CACHEDIR.TAG");
    if (!existsSync(tag)) writeFileSync(tag, CACHEDIR_TAG);
    const ignore = join(this.dir, ".gitignore");
    if (!existsSync(ignore)) writeFileSync(ignore, "# Created by yaoc check --cache.\n*\n");
    this.prepared = true;
  }

  /**
   * Remove what older formats left: `v<n>/<2 hex>/<64 hex>` entry files of another format n and the
   * shard folders they empty, and format 2's `usage` file. Only in a directory with yaoc's
   * CACHEDIR.TAG, and nothing else: a file of another shape, or a folder that still holds one, stays.
   */
  private removeOtherFormats(): void {
    let names: string[];
    try {
      if (!readFileSync(join(this.dir, "CACHEDIR.TAG"), "utf8").startsWith(CACHEDIR_SIGNATURE)) return;
      names = readdirSync(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (name === "usage") {
        removeIfSmallFile(join(this.dir, name));
        continue;
      }
      const m = /^v(\d+)$/.exec(name);
      if (m === null || Number(m[1]) === CACHE_FORMAT || Number(m[1]) > CACHE_FORMAT) continue;
      const folder = join(this.dir, name);
      try {
        if (!lstatSync(folder).isDirectory()) continue;
        for (const shard of readdirSync(folder)) {
          const shardDir = join(folder, shard);
          if (!/^[0-9a-f]{2}$/.test(shard) || !lstatSync(shardDir).isDirectory()) continue;
          for (const entry of readdirSync(shardDir)) {
            const file = join(shardDir, entry);
            if (/^[0-9a-f]{64}$/.test(entry) && entry.startsWith(shard) && lstatSync(file).isFile()) unlinkSync(file);
          }
          rmdirQuietly(shardDir);
        }
        rmdirQuietly(folder);
      } catch {
        // another process removing it too, or not ours: left as it is
      }
    }
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

/** What an entry adds to a pack: its bytes and its index row. */
export function packedSize(key: string, length: number, usedAt: number): number {
  return length + JSON.stringify([key, 0, length, usedAt]).length + 1;
}

type IndexRow = [key: string, offset: number, length: number, usedAt: number];

function packLayout(records: readonly PackRecord[]): { header: Uint8Array; index: Uint8Array; rows: IndexRow[] } {
  return packLayoutOf(records.map((r) => ({ key: r.key, usedAt: r.usedAt, length: r.bytes.length })));
}

function packLayoutOf(records: readonly { key: string; usedAt: number; length: number }[]): {
  header: Uint8Array;
  index: Uint8Array;
  rows: IndexRow[];
} {
  const rows: IndexRow[] = [];
  let offset = 0;
  for (const r of records) {
    rows.push([r.key, offset, r.length, r.usedAt]);
    offset += r.length;
  }
  const index = encoder.encode(JSON.stringify(rows));
  const header = encoder.encode(`${PACK_HEADER} ${CACHE_FORMAT} ${index.length} ${bytesToHex(sha256Digest(index))}\n`);
  return { header, index, rows };
}

/** The bytes of a pack holding `records` (tests build and damage packs with it). */
export function encodePack(records: readonly PackRecord[]): Uint8Array {
  const { header, index } = packLayout(records);
  let size = header.length + index.length;
  for (const r of records) size += r.bytes.length;
  const out = new Uint8Array(size);
  out.set(header);
  out.set(index, header.length);
  let at = header.length + index.length;
  for (const r of records) {
    out.set(r.bytes, at);
    at += r.bytes.length;
  }
  return out;
}

/** The records of the pack `file` in index order, or null when its header or index is damaged. */
export function readPack(file: string): PackRecord[] | null {
  const fd = openSync(file, OPEN_READ);
  try {
    const read = readIndex(fd);
    if (read === null) return null;
    return read.rows.map(([key, offset, length, usedAt]) => ({
      key,
      usedAt,
      bytes: readAt(fd, read.base + offset, length),
    }));
  } finally {
    closeSync(fd);
  }
}

/** The pack files of the cache directory `dir`, oldest first. */
export function packFiles(dir: string): string[] {
  const packs = join(dir, `v${CACHE_FORMAT}`);
  if (!existsSync(packs)) return [];
  return readdirSync(packs)
    .filter((n) => n.endsWith(PACK_SUFFIX))
    .sort()
    .map((n) => join(packs, n));
}

/** A pack's index, checked against its checksum, and where its entries begin; null when anything is off. */
function readIndex(fd: number): { rows: IndexRow[]; base: number } | null {
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return null;
    const head = readAt(fd, 0, 256);
    const nl = head.indexOf(0x0a);
    if (nl < 0) return null;
    let line = "";
    for (let i = 0; i < nl; i++) line += String.fromCharCode(head[i]!);
    const parts = line.split(" ");
    if (parts.length !== 4 || parts[0] !== PACK_HEADER || parts[1] !== String(CACHE_FORMAT)) return null;
    if (!/^\d{1,12}$/.test(parts[2]!)) return null;
    const length = Number(parts[2]);
    if (length > MAX_INDEX_BYTES || nl + 1 + length > st.size) return null;
    const indexBytes = readAt(fd, nl + 1, length);
    if (indexBytes.length !== length || bytesToHex(sha256Digest(indexBytes)) !== parts[3]) return null;
    const rows: unknown = JSON.parse(new TextDecoder().decode(indexBytes));
    if (!Array.isArray(rows)) return null;
    for (const r of rows)
      if (
        !Array.isArray(r) ||
        r.length !== 4 ||
        typeof r[0] !== "string" ||
        !Number.isSafeInteger(r[1]) ||
        !Number.isSafeInteger(r[2]) ||
        r[1] < 0 ||
        r[2] < 0 ||
        r[2] > MAX_ENTRY_BYTES ||
        typeof r[3] !== "number" ||
        !Number.isFinite(r[3])
      )
        return null;
    return { rows: rows as IndexRow[], base: nl + 1 + length };
  } catch {
    return null;
  }
}

/** Up to `length` bytes of `fd` from `offset` (fewer at the end of the file). */
function readAt(fd: number, offset: number, length: number): Uint8Array {
  const buf = new Uint8Array(length);
  let at = 0;
  while (at < length) {
    const n = readSync(fd, buf, at, length - at, offset + at);
    if (n === 0) break;
    at += n;
  }
  return at === length ? buf : buf.subarray(0, at);
}

function padded(bytes: Uint8Array, length: number): Uint8Array {
  const out = new Uint8Array(length);
  out.set(bytes);
  return out;
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let at = 0;
  while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
}

function removeQuietly(file: string): boolean {
  try {
    unlinkSync(file);
    return true;
  } catch {
    return false;
  }
}

function rmdirQuietly(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // not empty (not only ours) or gone
  }
}

/** Format 2's `usage` file: a small regular file (a count in JSON), never anything else. */
function removeIfSmallFile(file: string): void {
  try {
    const st = lstatSync(file);
    if (st.isFile() && st.size < 256) unlinkSync(file);
  } catch {
    // gone
  }
}

function code(e: unknown): string | undefined {
  return (e as { code?: string } | null)?.code;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
