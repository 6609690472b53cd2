/**
 * The bytes of one cache entry: the check result that every output format is rendered from (verdict,
 * identity, the frontend's own fields, every diagnostic with its spans, and the source texts the
 * diagnostics point into for code frames and display columns), sealed by a checksum.
 *
 * Layout: one header line `yaoc-cache-entry <format> <checksum>` and a JSON body holding the key,
 * the version and the result. The checksum is SHA-256 over the format, the key, the version and the
 * body, so an entry is trusted only when it was written whole, for this key, by this version: a
 * flipped byte, a truncated file, an entry copied or renamed under another key, or one written by
 * another yaoc version all fail to decode and are recomputed by the caller.
 *
 * A result holding something JSON cannot carry exactly (a Map outside `sources`, a class instance, a
 * non-finite number, a bigint) is not encoded at all: the caller simply does not cache it.
 *
 * Browser-safe.
 */
import { bytesToHex } from "@noble/hashes/utils.js";
import { sha256Digest } from "../canonical/hash.js";
import type { CheckResult } from "../diagnostics/result.js";
import { CACHE_FORMAT } from "./key.js";

/** What a check gives the command line: the result and whether it failed on I/O (exit 2). */
export interface CachedCheck {
  readonly result: CheckResult;
  readonly ioError: boolean;
}

/** Why an entry was not used; every reason means "recompute and rewrite". */
export type EntryDamage = "header" | "checksum" | "key" | "version" | "body";

const HEADER = "yaoc-cache-entry";
const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The entry bytes for `check` under `key`, or null when the result cannot be carried exactly. */
export function encodeEntry(key: string, version: string, check: CachedCheck): Uint8Array | null {
  const { sources, ...rest } = check.result;
  let body: string;
  try {
    body = JSON.stringify(
      { key, version, ioError: check.ioError, result: rest, sources: sources === undefined ? null : [...sources] },
      exactOnly,
    );
  } catch {
    return null;
  }
  return encoder.encode(`${HEADER} ${CACHE_FORMAT} ${checksum(key, version, body)}\n${body}`);
}

/** The check stored in `bytes` if it is a whole, untampered entry for `key` written by `version`. */
export function decodeEntry(
  bytes: Uint8Array,
  key: string,
  version: string,
): { readonly check: CachedCheck } | { readonly damage: EntryDamage } {
  // The header is ASCII; the checksum is taken over the body's bytes as read, so a hit decodes its
  // body once (for JSON.parse) and never encodes it again.
  const nl = bytes.indexOf(0x0a);
  const header = nl < 0 ? [] : ascii(bytes.subarray(0, nl)).split(" ");
  if (header.length !== 3 || header[0] !== HEADER || header[1] !== String(CACHE_FORMAT)) return { damage: "header" };
  let body: string;
  try {
    body = decoder.decode(bytes.subarray(nl + 1));
  } catch {
    return { damage: "header" };
  }
  if (header[2] !== checksumOfBytes(key, version, bytes.subarray(nl + 1))) {
    // Tell a whole entry of another key or version from a damaged one (only for the reason given).
    const stored = parseBody(body);
    if (stored !== null && stored.key !== key) return { damage: "key" };
    if (stored !== null && stored.version !== version) return { damage: "version" };
    return { damage: "checksum" };
  }
  const stored = parseBody(body);
  if (stored === null) return { damage: "body" };
  const result: CheckResult =
    stored.sources === null ? stored.result : { ...stored.result, sources: new Map(stored.sources) };
  return { check: { result, ioError: stored.ioError } };
}

interface StoredBody {
  readonly key: string;
  readonly version: string;
  readonly ioError: boolean;
  readonly result: CheckResult;
  readonly sources: [string, string][] | null;
}

function parseBody(body: string): StoredBody | null {
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof v !== "object" || v === null) return null;
  const b = v as Partial<StoredBody>;
  const r = b.result as Partial<CheckResult> | undefined;
  if (
    typeof b.key !== "string" ||
    typeof b.version !== "string" ||
    typeof b.ioError !== "boolean" ||
    typeof r !== "object" ||
    r === null ||
    typeof r.path !== "string" ||
    typeof r.valid !== "boolean" ||
    !Array.isArray(r.diagnostics) ||
    !(b.sources === null || Array.isArray(b.sources))
  )
    return null;
  return b as StoredBody;
}

function checksum(key: string, version: string, body: string): string {
  return bytesToHex(sha256Digest(`${HEADER} ${CACHE_FORMAT}\n${key}\n${version}\n${body}`));
}

/** `checksum` of the body whose UTF-8 bytes are `body` (the same digest, without decoding and re-encoding them). */
function checksumOfBytes(key: string, version: string, body: Uint8Array): string {
  const prefix = encoder.encode(`${HEADER} ${CACHE_FORMAT}\n${key}\n${version}\n`);
  const all = new Uint8Array(prefix.length + body.length);
  all.set(prefix);
  all.set(body, prefix.length);
  return bytesToHex(sha256Digest(all));
}

/** Bytes as Latin-1 text: the header line is ASCII when whole, and any other byte simply fails its comparison. */
function ascii(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length && i < 256; i++) s += String.fromCharCode(bytes[i]!);
  return bytes.length > 256 ? `${s}\u0000` : s;
}

/** A JSON.stringify replacer that refuses anything JSON would change or drop silently. */
function exactOnly(this: unknown, name: string, value: unknown): unknown {
  // `value` is after `toJSON`; the holder still has the original (a Date would pass as its string).
  const original = (this as Record<string, unknown>)[name];
  if (typeof original === "object" && original !== null && original !== value) throw new Error("not exact in JSON");
  switch (typeof value) {
    case "number":
      if (!Number.isFinite(value) || Object.is(value, -0)) throw new Error("not exact in JSON");
      return value;
    case "bigint":
    case "function":
    case "symbol":
      throw new Error("not exact in JSON");
    case "object": {
      if (value === null || Array.isArray(value)) return value;
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) throw new Error("not exact in JSON");
      return value;
    }
    default:
      return value;
  }
}
