/**
 * canonicalize (seed 002 §3.1, §3.3): classify every field (R1), drop physical/opaque/unregistered
 * ones from the ReproCore while recording them, sort lists of objects by their declared stable key
 * (R2), turn numbers into fixed-point strings (R3), then hash the RFC 8785 form of what is left.
 *
 *   ReproHash = first 16 lowercase hex characters of SHA-256(UTF-8(JCS(ReproCore)))
 */
import { sha256Hex } from "../canonical/hash.js";
import { escapePointerToken } from "../json/pointer.js";
import { type ClassificationTable, type FieldRule, MIN_PHYSICAL_FIELDS, ruleLookup } from "./classification.js";
import { CanonicalizationError, canonicalJson, compareUtf16, type JsonValue } from "../json/jcs.js";
import { FixedPointError, fixedPoint } from "./numbers.js";

export interface ExcludedField {
  /** RFC 6901 pointer of the concrete location in the document. */
  readonly pointer: string;
  /** Table path (`a.b[].c`). */
  readonly path: string;
  readonly value: unknown;
}

export interface Canonicalized {
  /** The ReproCore: repro fields only, numbers fixed-point, object lists sorted. */
  readonly core: JsonValue;
  /** RFC 8785 text of the core. */
  readonly canonical: string;
  /** First 16 hex of SHA-256 of `canonical`. */
  readonly reproHash: string;
  /** `sha256:` + the full digest. */
  readonly digest: string;
  readonly physical: readonly ExcludedField[];
  readonly opaque: readonly ExcludedField[];
  /** Unregistered fields: treated as physical, counted, reported (R1). */
  readonly unregistered: readonly ExcludedField[];
  /** Table paths of object lists without a declared key (ordered by canonical bytes instead). */
  readonly unkeyedLists: readonly string[];
}

const minPhysical = new Set(MIN_PHYSICAL_FIELDS);

export function reproHashOf(canonical: string): string {
  return sha256Hex(canonical).slice(0, 16);
}

export function canonicalize(doc: unknown, table: ClassificationTable): Canonicalized {
  const rules = { get: ruleLookup(table) };
  const physical: ExcludedField[] = [];
  const opaque: ExcludedField[] = [];
  const unregistered: ExcludedField[] = [];
  const unkeyed = new Set<string>();

  const visitObject = (obj: Record<string, unknown>, prefix: string, pointer: string): Record<string, JsonValue> => {
    const out: Record<string, JsonValue> = {};
    for (const key of Object.keys(obj).sort(compareUtf16)) {
      const value = obj[key];
      const path = prefix === "" ? key : `${prefix}.${key}`;
      const ptr = `${pointer}/${escapePointerToken(key)}`;
      if (value === undefined) continue; // absent, as in JSON
      if (minPhysical.has(key)) {
        physical.push({ pointer: ptr, path, value });
        continue;
      }
      const rule = rules.get(path);
      if (rule === undefined) {
        unregistered.push({ pointer: ptr, path, value });
        continue;
      }
      if (rule.class === "physical") physical.push({ pointer: ptr, path, value });
      else if (rule.class === "opaque") opaque.push({ pointer: ptr, path, value });
      else out[key] = visitValue(value, path, ptr, rule);
    }
    return out;
  };

  const visitValue = (value: unknown, path: string, pointer: string, rule: FieldRule | undefined): JsonValue => {
    if (value === null || typeof value === "boolean" || typeof value === "string") return value;
    if (typeof value === "number") {
      try {
        return fixedPoint(value);
      } catch (e) {
        if (e instanceof FixedPointError) throw new CanonicalizationError(pointer, e.message);
        throw e;
      }
    }
    if (Array.isArray(value)) {
      const itemPath = `${path}[]`;
      const items = value.map((v, i) => visitValue(v, itemPath, `${pointer}/${i}`, rules.get(itemPath)));
      const allObjects = value.length > 0 && value.every(isPlainObject);
      if (!allObjects) return items;
      const key = rule?.sortKey;
      if (key === undefined) unkeyed.add(path);
      const decorated = value.map((raw, i) => ({
        raw: raw as Record<string, unknown>,
        item: items[i]!,
        bytes: canonicalJson(items[i]),
      }));
      decorated.sort((a, b) => {
        if (key !== undefined) {
          for (const k of key) {
            const c = compareJson(a.raw[k], b.raw[k]);
            if (c !== 0) return c;
          }
        }
        return compareUtf16(a.bytes, b.bytes);
      });
      return decorated.map((d) => d.item);
    }
    if (isPlainObject(value)) return visitObject(value, path, pointer);
    // Let JCS produce the precise error (BigInt, Date, undefined in a list, …).
    canonicalJson(value);
    throw new CanonicalizationError(pointer, "not a JSON value");
  };

  let core: JsonValue;
  if (isPlainObject(doc)) core = visitObject(doc, "", "");
  else throw new CanonicalizationError("", "a receipt must be a JSON object");
  const canonical = canonicalJson(core);
  const full = sha256Hex(canonical);
  return {
    core,
    canonical,
    reproHash: full.slice(0, 16),
    digest: `sha256:${full}`,
    physical,
    opaque,
    unregistered,
    unkeyedLists: [...unkeyed].sort(compareUtf16),
  };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const p = Object.getPrototypeOf(v) as unknown;
  return p === Object.prototype || p === null;
}

const RANK: Record<string, number> = { undefined: 0, null: 1, boolean: 2, number: 3, string: 4, object: 5 };

/** Total order for sort-key values: absent < null < booleans < numbers < strings < structures. */
export function compareJson(a: unknown, b: unknown): number {
  const ta = a === null ? "null" : typeof a;
  const tb = b === null ? "null" : typeof b;
  const ra = RANK[ta] ?? 6;
  const rb = RANK[tb] ?? 6;
  if (ra !== rb) return ra - rb;
  if (ta === "boolean") return Number(a) - Number(b);
  if (ta === "number") return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
  if (ta === "string") return compareUtf16(a as string, b as string);
  if (ta === "object") return compareUtf16(canonicalJson(a), canonicalJson(b));
  return 0;
}

/** Pointers of physical fields whose values differ between two canonicalisations (or exist in only one). */
export function physicalDifference(a: Canonicalized, b: Canonicalized): string[] {
  const map = (xs: readonly ExcludedField[]) => new Map(xs.map((x) => [x.pointer, safeJson(x.value)]));
  const ma = map([...a.physical, ...a.unregistered]);
  const mb = map([...b.physical, ...b.unregistered]);
  const out = new Set<string>();
  for (const [k, v] of ma) if (mb.get(k) !== v) out.add(k);
  for (const k of mb.keys()) if (!ma.has(k)) out.add(k);
  return [...out].sort(compareUtf16);
}

function safeJson(v: unknown): string {
  try {
    return canonicalJson(v);
  } catch {
    return String(v);
  }
}
