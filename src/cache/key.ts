/**
 * The key of a cached check result: SHA-256 over everything a check of one package can depend on.
 *
 * A check reads its package once, into a snapshot (src/fs/snapshot.ts), and nothing outside the
 * snapshot enters its result. So the key covers the snapshot itself — every entry's name (raw,
 * surrogate-escaped bytes included), its kind, a regular file's size, execute bit and bytes, a
 * link's target, the path the package was named by and the real root it resolved to (both appear in
 * diagnostics) — plus the yaoc version and the options that change a result (`analyze`, tool input
 * schemas). Options applied after the check (`--strict`, `--quiet`, formats) are not part of it: the
 * cached value is the result before them, and they are applied to a hit exactly as to a fresh check.
 * File times are never part of it: two runs over the same bytes get the same key, and any change of
 * a byte, a name, a kind or an execute bit gives another.
 *
 * The framing is unambiguous: every field is length-prefixed and entries are in code-point order.
 * A file's bytes enter the frame as they are, so the whole key is one SHA-256 over one buffer (format
 * 1 hashed each file first and then the frame: two hash set-ups per single-file package, a sixth
 * of a warm cache hit; copying a file of a package the cache holds, at most 16 MiB, costs less).
 *
 * Browser-safe: the hash is the installed SHA-256 (src/canonical/hash.ts), node:crypto's in the CLI.
 */
import { bytesToHex } from "@noble/hashes/utils.js";
import { sha256Digest } from "../canonical/hash.js";
import type { PackageSnapshot } from "../fs/snapshot.js";
import { compareCodePoints } from "../text/code-point-order.js";

/** Bumped when the key's framing, the entry format or the store's layout changes (3: packs, ./node-store.ts), so old entries are never read as new. */
export const CACHE_FORMAT = 3;

/** What besides the package's bytes a result depends on. */
export interface CacheContext {
  /** The yaoc version that computes (and may reuse) the result. */
  readonly version: string;
  /** HNS: the module analysis runs (`--no-analyze` turns it off). */
  readonly analyze: boolean;
  /** `--tools FILE`: tool input schemas by tool name, or undefined. */
  readonly toolSchemas?: Readonly<Record<string, unknown>>;
}

/** Why a snapshot cannot be keyed: the result would depend on more than the snapshot holds. */
export type Unkeyable = "root_not_present" | "snapshot_failed" | "file_not_held";

const encoder = new TextEncoder();

/**
 * The cache key (64 lowercase hex digits) of checking `snapshot` in `context`, or why there is none:
 * a snapshot that failed, a root that is missing or dangling, or a file whose bytes were not held
 * (too large, unreadable) is checked without the cache, so its result never depends on what the
 * snapshot left out.
 */
export function cacheKey(snapshot: PackageSnapshot, context: CacheContext): { key: string } | { unkeyable: Unkeyable } {
  if (snapshot.rootState !== "present") return { unkeyable: "root_not_present" };
  if (snapshot.failure !== null) return { unkeyable: "snapshot_failed" };
  const frame = new Frame();
  frame.text(`yaoc-cache-key ${CACHE_FORMAT}`);
  frame.text(context.version);
  frame.text(context.analyze ? "analyze" : "no-analyze");
  frame.text(context.toolSchemas === undefined ? "" : stableJson(context.toolSchemas));
  frame.text(snapshot.requested);
  frame.text(snapshot.root);
  const paths = [...snapshot.entries.keys()].sort(compareCodePoints);
  frame.count(paths.length);
  for (const path of paths) {
    const e = snapshot.entries.get(path)!;
    frame.text(path);
    frame.text(e.kind);
    if (e.kind === "file") {
      if (e.bytes === null) return { unkeyable: "file_not_held" };
      frame.count(e.size);
      frame.text(e.executable ? "x" : "-");
      frame.bytes(e.bytes);
    } else if (e.kind === "symlink") {
      frame.text(e.target);
    }
  }
  return { key: bytesToHex(sha256Digest(frame.done())) };
}

/** JSON with object members sorted by code point, so equal schemas give equal keys however they were written. */
export function stableJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  const keys = Object.keys(value).sort(compareCodePoints);
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
}

/** A growing byte buffer of length-prefixed fields. */
class Frame {
  private buf = new Uint8Array(1024);
  /** A view of `buf` for the counts, made once per buffer rather than once per count. */
  private view = new DataView(this.buf.buffer);
  private at = 0;

  text(s: string): void {
    const t = escapeLoneSurrogates(s);
    // Encoded in place: a UTF-16 unit is at most 3 UTF-8 bytes; the count is written after.
    this.reserve(8 + t.length * 3);
    const { written } = encoder.encodeInto(t, this.buf.subarray(this.at + 8));
    this.count(written);
    this.at += written;
  }

  count(n: number): void {
    this.reserve(8);
    this.view.setFloat64(this.at, n);
    this.at += 8;
  }

  bytes(b: Uint8Array): void {
    this.count(b.length);
    this.reserve(b.length);
    this.buf.set(b, this.at);
    this.at += b.length;
  }

  /** The framed bytes so far (a view, valid until the next write). */
  done(): Uint8Array {
    return this.buf.subarray(0, this.at);
  }

  private reserve(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.at + n));
    next.set(this.buf.subarray(0, this.at));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
}

/**
 * TextEncoder turns every lone surrogate into U+FFFD, which would merge two names that differ only
 * in an undecodable byte (src/fs/names.ts maps each to its own lone surrogate). Spelling each one as
 * `\uDCxx` first keeps them apart; a real backslash is doubled so the spelling is unambiguous.
 */
function escapeLoneSurrogates(s: string): string {
  if (!/[\\\ud800-\udfff]/.test(s)) return s;
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x5c) out += "\\\\";
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && isLow(s.charCodeAt(i + 1))) {
      out += s[i]! + s[i + 1]!;
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) out += `\\u${c.toString(16)}`;
    else out += s[i]!;
  }
  return out;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
