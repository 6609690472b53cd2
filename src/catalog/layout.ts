/**
 * The on-disk layout of a catalog (docs/catalog.md). Every file name is derived from a hash: objects
 * are named by the package identity, bindings by SHA-256 over (id, version). Package ids and
 * versions never become path components, so no id can traverse, collide by case, or be unreloadable.
 *
 *   FORMAT                     "yaoc-catalog 1\n"
 *   objects/<hex>.hns          loadable single-file source whose identity is sha256:<hex>
 *   bindings/<sha256(key)>.json  {"format","id","version","identity","installedAt"}, immutable
 *   trash/<hex>.<nonce>        an object gc is about to delete (restored if it turns out referenced)
 *   tmp/<nonce>.tmp            in-flight writes; ignored by readers, removed by gc after a grace period
 */
import { sha256Hex } from "../canonical/hash.js";
import { TEMP_DIR } from "./store.js";

export const FORMAT_FILE = "FORMAT";
export const FORMAT_TEXT = "yaoc-catalog 1\n";
export const OBJECTS_DIR = "objects";
export const BINDINGS_DIR = "bindings";
export const TRASH_DIR = "trash";
export const KNOWN_ROOT_NAMES: ReadonlySet<string> = new Set([
  FORMAT_FILE,
  OBJECTS_DIR,
  BINDINGS_DIR,
  TRASH_DIR,
  TEMP_DIR,
]);

export const BINDING_FORMAT = "yaoc.catalog.binding.v1";

const IDENTITY = /^sha256:([0-9a-f]{64})$/;
const HEX64 = /^[0-9a-f]{64}$/;
export const OBJECT_NAME = /^([0-9a-f]{64})\.hns$/;
export const BINDING_NAME = /^([0-9a-f]{64})\.json$/;
export const TRASH_NAME = /^([0-9a-f]{64})\.[0-9a-z]+$/;

/** The hex digest of a `sha256:` identity; throws on anything else (identities come from our own hashing). */
export function identityHex(identity: string): string {
  const m = IDENTITY.exec(identity);
  if (m === null) throw new Error(`not a sha256 identity: ${JSON.stringify(identity)}`);
  return m[1]!;
}

export function isIdentity(value: unknown): value is string {
  return typeof value === "string" && IDENTITY.test(value);
}

export function objectPath(identity: string): string {
  return `${OBJECTS_DIR}/${identityHex(identity)}.hns`;
}

export function objectPathForHex(hex: string): string {
  if (!HEX64.test(hex)) throw new Error(`not a sha256 hex digest: ${hex}`);
  return `${OBJECTS_DIR}/${hex}.hns`;
}

/** The binding key of (id, version): unambiguous because neither can contain NUL (bad_name). */
export function bindingName(id: string, version: string): string {
  return `${sha256Hex(`${BINDING_FORMAT}\u0000${id}\u0000${version}`)}.json`;
}

export function bindingPath(id: string, version: string): string {
  return `${BINDINGS_DIR}/${bindingName(id, version)}`;
}

export interface BindingRecord {
  readonly id: string;
  readonly version: string;
  /** `sha256:<hex>` package identity. */
  readonly identity: string;
  /** ISO 8601 time the binding was created (informational; not part of any identity). */
  readonly installedAt: string;
}

export function encodeBinding(b: BindingRecord): Uint8Array {
  const json = JSON.stringify({
    format: BINDING_FORMAT,
    id: b.id,
    version: b.version,
    identity: b.identity,
    installedAt: b.installedAt,
  });
  return new TextEncoder().encode(`${json}\n`);
}

/** Parse a stored binding; a string says what is wrong with it. */
export function parseBinding(bytes: Uint8Array, fileName: string): BindingRecord | string {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return "it is not valid UTF-8";
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return bytes.length === 0 ? "it is empty" : "it is not valid JSON";
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "it is not a JSON object";
  const v = value as Record<string, unknown>;
  if (v.format !== BINDING_FORMAT)
    return `its format is ${JSON.stringify(v.format)}, expected ${JSON.stringify(BINDING_FORMAT)}`;
  if (typeof v.id !== "string" || typeof v.version !== "string") return "it lacks a string id or version";
  if (!isIdentity(v.identity)) return "its identity is not a sha256:<hex> value";
  if (typeof v.installedAt !== "string") return "it lacks installedAt";
  if (bindingName(v.id, v.version) !== fileName) return `its file name does not match the key of ${v.id}@${v.version}`;
  return { id: v.id, version: v.version, identity: v.identity, installedAt: v.installedAt };
}

/** A fresh name component for temp and trash files. */
export function nonce(): string {
  const bytes = new Uint8Array(12);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(36).padStart(2, "0"))
    .join("")
    .slice(0, 20);
}
