/**
 * Golden freeze/verify and the sensitivity self-check (seed 002 §2 Golden, §3.3, §3.4), as pure
 * functions over receipts. The CLI (src/cli/evidence.ts) supplies files, fresh processes and git.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { diagnostic } from "../codes/evidence.js";
import type { CheckResult } from "../diagnostics/result.js";
import { escapePointerToken } from "../json/pointer.js";
import type { PackageFs } from "../fs/package-fs.js";
import { MemoryFs } from "../fs/memory-fs.js";
import { canonicalize, physicalDifference } from "./canonicalize.js";
import { MIN_PHYSICAL_FIELDS, RECEIPT_TABLE, ruleLookup } from "./classification.js";
import { CanonicalizationError, canonicalJson, compareUtf16, type JsonValue } from "../json/jcs.js";
import { toReceipt, type Receipt } from "./receipt.js";

/** What golden/evidence/<name>.json holds for one case. */
export interface GoldenRecord {
  readonly case: string;
  readonly receipt: string;
  readonly repro_hash: string;
  readonly identity: string | null;
  readonly valid: boolean;
  /** `code@line:column` of every diagnostic, in the canonical (sorted) order. */
  readonly diagnostics: readonly string[];
  /** The whole ReproCore, so a mismatch can be explained field by field. */
  readonly core: JsonValue;
}

/** File name of a case's golden: `fixtures/harp/valid-minimal` → `fixtures__harp__valid-minimal.json`. */
export function goldenFileName(casePath: string): string {
  return `${casePath.replace(/^\.\//, "").replace(/\/+$/, "").split("/").join("__")}.json`;
}

export function goldenRecord(casePath: string, receipt: Record<string, unknown>): GoldenRecord {
  const c = canonicalize(receipt, RECEIPT_TABLE);
  const core = c.core as Record<string, JsonValue>;
  const result = core["result"] as Record<string, JsonValue>;
  const diags = (result["diagnostics"] as Record<string, JsonValue>[] | undefined) ?? [];
  return {
    case: casePath,
    receipt: RECEIPT_TABLE.version,
    repro_hash: c.reproHash,
    identity: (result["identity"] as string | null) ?? null,
    valid: result["valid"] === true,
    diagnostics: diags.map((d) => `${String(d["code"])}@${String(d["line"] ?? "-")}:${String(d["column"] ?? "-")}`),
    core: c.core,
  };
}

export function renderGolden(record: GoldenRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}

/** Leaf pointers (RFC 6901) at which two JSON values differ. */
export function jsonDiff(a: unknown, b: unknown, pointer = ""): string[] {
  // A key present on one side only differs there (canonicalJson has no text for "absent").
  if (a === undefined || b === undefined) return a === b ? [] : [pointer === "" ? "/" : pointer];
  if (canonicalJson(a as JsonValue) === canonicalJson(b as JsonValue)) return [];
  const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object";
  if (!isObj(a) || !isObj(b) || Array.isArray(a) !== Array.isArray(b)) return [pointer === "" ? "/" : pointer];
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort(compareUtf16);
  return keys.flatMap((k) => jsonDiff(a[k], b[k], `${pointer}/${k}`));
}

export interface CaseComparison {
  readonly case: string;
  readonly status: "match" | "mismatch" | "missing" | "unreadable";
  /** Why an unreadable golden file could not be compared. */
  readonly problem?: string;
  readonly expected?: string;
  readonly actual: string;
  readonly differences: readonly string[];
}

export function compareWithGolden(
  casePath: string,
  actual: GoldenRecord,
  frozenText: string | undefined,
): CaseComparison {
  if (frozenText === undefined)
    return { case: casePath, status: "missing", actual: actual.repro_hash, differences: [] };
  const unreadable = (problem: string): CaseComparison => ({
    case: casePath,
    status: "unreadable",
    problem,
    actual: actual.repro_hash,
    differences: [],
  });
  let frozen: GoldenRecord;
  try {
    frozen = JSON.parse(frozenText) as GoldenRecord;
  } catch (e) {
    return unreadable(`not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  if (frozen === null || typeof frozen !== "object" || Array.isArray(frozen) || typeof frozen.repro_hash !== "string") {
    return unreadable("not a golden record (a JSON object with a string repro_hash)");
  }
  let differences: string[];
  try {
    differences = jsonDiff(frozen, actual);
  } catch (e) {
    // A lone surrogate or a nesting deep enough to exhaust the stack: no golden record has either.
    if (e instanceof CanonicalizationError || e instanceof RangeError)
      return unreadable(`not comparable (${e.message})`);
    throw e;
  }
  return {
    case: casePath,
    status: differences.length === 0 ? "match" : "mismatch",
    expected: frozen.repro_hash,
    actual: actual.repro_hash,
    differences,
  };
}

// ---------------------------------------------------------------------------------------------
// Sensitivity self-check (§3.4)

export interface TamperOutcome {
  readonly pointer: string;
  readonly changed: boolean;
}

export interface SensitivityReport {
  readonly case: string;
  /** Every repro leaf tampered once; each must change the hash. */
  readonly reproTampers: readonly TamperOutcome[];
  /** Every physical (and unregistered) field tampered once; none may change the hash. */
  readonly physicalTampers: readonly TamperOutcome[];
  /** Shuffling each list of objects must not change the hash (R2). */
  readonly orderIndependent: boolean;
  /** One source atom changed in the package files; undefined when no atom of the result occurs in a source. */
  readonly sourceAtom?: { readonly file: string; readonly atom: string; readonly changed: boolean };
  readonly passed: boolean;
}

/** Make a value different in the smallest way: one character, one flip, one unit. */
export function tamperValue(v: unknown): unknown {
  if (typeof v === "string") return v.length === 0 ? "x" : v.slice(0, -1) + (v.endsWith("x") ? "y" : "x");
  if (typeof v === "boolean") return !v;
  if (typeof v === "number") return v + 1;
  if (v === null) return "x";
  if (Array.isArray(v)) return [...v, "x"];
  return { ...(v as Record<string, unknown>), __tamper: "x" };
}

function setAt(doc: unknown, pointer: string, value: unknown): unknown {
  const clone = JSON.parse(JSON.stringify(doc)) as unknown;
  const parts = pointer
    .split("/")
    .slice(1)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  let cur = clone as Record<string, unknown>;
  for (let i = 0; i < parts.length - 1; i++) cur = cur[parts[i]!] as Record<string, unknown>;
  cur[parts[parts.length - 1]!] = value;
  return clone;
}

/** Pointers of every repro scalar leaf of a receipt (walking the document the way canonicalize does). */
export function reproLeaves(doc: Record<string, unknown>): string[] {
  const rules = { get: ruleLookup(RECEIPT_TABLE) };
  const minPhysical = new Set(MIN_PHYSICAL_FIELDS);
  const out: string[] = [];
  const walk = (v: unknown, path: string, pointer: string): void => {
    if (Array.isArray(v)) {
      if (v.length === 0) out.push(pointer);
      v.forEach((x, i) => walk(x, `${path}[]`, `${pointer}/${i}`));
      return;
    }
    if (v !== null && typeof v === "object") {
      for (const k of Object.keys(v).sort(compareUtf16)) {
        const p = path === "" ? k : `${path}.${k}`;
        if (minPhysical.has(k) || rules.get(p)?.class !== "repro") continue;
        walk((v as Record<string, unknown>)[k], p, `${pointer}/${escapePointerToken(k)}`);
      }
      return;
    }
    out.push(pointer);
  };
  walk(doc, "", "");
  return out;
}

export function sensitivityOfReceipt(
  casePath: string,
  receipt: Record<string, unknown>,
): Omit<SensitivityReport, "sourceAtom" | "passed"> {
  const base = canonicalize(receipt, RECEIPT_TABLE);
  const reproTampers = reproLeaves(receipt).map((pointer) => {
    const current = pointerGet(receipt, pointer);
    const h = canonicalize(setAt(receipt, pointer, tamperValue(current)), RECEIPT_TABLE).reproHash;
    return { pointer, changed: h !== base.reproHash };
  });
  const physicalTampers = [...base.physical, ...base.unregistered].map((f) => {
    const h = canonicalize(setAt(receipt, f.pointer, tamperValue(f.value)), RECEIPT_TABLE).reproHash;
    return { pointer: f.pointer, changed: h !== base.reproHash };
  });
  // Insert each §3.2 field where it is missing too: it must never reach the hash.
  for (const name of MIN_PHYSICAL_FIELDS) {
    if (Object.hasOwn(receipt, name)) continue;
    const h = canonicalize({ ...receipt, [name]: "tampered" }, RECEIPT_TABLE).reproHash;
    physicalTampers.push({ pointer: `/${name}`, changed: h !== base.reproHash });
  }
  const result = receipt["result"] as Record<string, unknown> | undefined;
  let orderIndependent = true;
  const diags = result?.["diagnostics"];
  if (Array.isArray(diags) && diags.length > 1) {
    const reversed = setAt(receipt, "/result/diagnostics", [...diags].reverse());
    orderIndependent = canonicalize(reversed, RECEIPT_TABLE).reproHash === base.reproHash;
  }
  return { case: casePath, reproTampers, physicalTampers, orderIndependent };
}

function pointerGet(doc: unknown, pointer: string): unknown {
  let cur = doc;
  for (const p of pointer.split("/").slice(1))
    cur = (cur as Record<string, unknown>)[p.replace(/~1/g, "/").replace(/~0/g, "~")];
  return cur;
}

export type Checker = (fs: PackageFs, path: string) => Promise<CheckResult>;

const decoder = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();

/** Candidate source atoms: values of the result that a source file spells out verbatim. */
function atomCandidates(receipt: Record<string, unknown>): string[] {
  const result = (receipt["result"] ?? {}) as Record<string, unknown>;
  const out: string[] = [];
  for (const k of ["id", "pack_id", "name", "owner", "version"]) {
    const v = result[k];
    if (typeof v === "string" && v.length >= 2) out.push(v);
  }
  const diags = Array.isArray(result["diagnostics"]) ? (result["diagnostics"] as Record<string, unknown>[]) : [];
  for (const d of diags) {
    const m = String(d["message"] ?? "");
    for (const q of m.matchAll(/"([^"\n]{2,60})"|'([^'\n]{2,60})'|`([^`\n]{2,60})`/g))
      out.push((q[1] ?? q[2] ?? q[3])!);
  }
  return out;
}

/** Change one character of `atom` (a letter stays a letter, a digit a digit). */
export function mutateAtom(atom: string): string {
  const chars = Array.from(atom);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (/[a-y]/.test(c)) chars[i] = String.fromCharCode(c.charCodeAt(0) + 1);
    else if (c === "z") chars[i] = "a";
    else if (/[A-Y]/.test(c)) chars[i] = String.fromCharCode(c.charCodeAt(0) + 1);
    else if (/[0-8]/.test(c)) chars[i] = String(Number(c) + 1);
    else if (c === "9") chars[i] = "0";
    else continue;
    return chars.join("");
  }
  return `${atom}x`;
}

/**
 * Re-run the check on an in-memory copy of the package with one source atom changed (every
 * occurrence of it in the first file that spells it, i.e. a rename); the ReproHash must change. `files` maps package-relative POSIX paths (under `casePath`) to bytes; a single-file
 * package is the one entry "".
 */
export async function sourceAtomCheck(
  casePath: string,
  files: ReadonlyMap<string, Uint8Array>,
  receipt: Record<string, unknown>,
  check: Checker,
  analyze: boolean,
): Promise<SensitivityReport["sourceAtom"]> {
  const texts = new Map<string, string>();
  for (const [p, bytes] of files) {
    try {
      texts.set(p, decoder.decode(bytes));
    } catch {
      /* binary files carry no atoms */
    }
  }
  const sorted = [...texts.keys()].sort(compareUtf16);
  for (const atom of atomCandidates(receipt)) {
    const file = sorted.find((p) => texts.get(p)!.includes(atom));
    if (file === undefined) continue;
    const build = (mutated: boolean) => {
      const entries: Record<string, Uint8Array> = {};
      for (const [p, bytes] of files) {
        // Every file holding the atom changes: a pack may repeat its id in a file the id is not read from.
        entries[p === "" ? `/${casePath}` : `/${casePath}/${p}`] =
          mutated && texts.get(p)?.includes(atom) === true
            ? encoder.encode(texts.get(p)!.split(atom).join(mutateAtom(atom)))
            : bytes;
      }
      return MemoryFs.from(entries);
    };
    const hashOf = async (fs: MemoryFs) => toReceipt(await check(fs, `/${casePath}`), { analyze }).repro_hash;
    const before = await hashOf(build(false));
    const after = await hashOf(build(true));
    return { file, atom, changed: before !== after };
  }
  return undefined;
}

export function sensitivityPassed(r: Omit<SensitivityReport, "passed">): boolean {
  return (
    r.reproTampers.length > 0 &&
    r.reproTampers.every((t) => t.changed) &&
    r.physicalTampers.every((t) => !t.changed) &&
    r.orderIndependent &&
    (r.sourceAtom === undefined || r.sourceAtom.changed)
  );
}

export function sensitivityFindings(r: SensitivityReport): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const t of r.reproTampers.filter((t) => !t.changed)) {
    out.push(
      diagnostic(
        "evidence.insensitive_hash",
        `${r.case}: tampering repro field ${t.pointer} did not change the ReproHash`,
        { file: r.case, pointer: t.pointer },
      ),
    );
  }
  if (r.reproTampers.length === 0)
    out.push(
      diagnostic("evidence.insensitive_hash", `${r.case}: the receipt has no repro field to tamper`, { file: r.case }),
    );
  for (const t of r.physicalTampers.filter((t) => t.changed)) {
    out.push(
      diagnostic("evidence.physical_in_hash", `${r.case}: changing physical field ${t.pointer} changed the ReproHash`, {
        file: r.case,
        pointer: t.pointer,
      }),
    );
  }
  if (!r.orderIndependent)
    out.push(
      diagnostic(
        "evidence.insensitive_hash",
        `${r.case}: reordering the diagnostics changed the ReproHash (R2 sorting broken)`,
        { file: r.case },
      ),
    );
  if (r.sourceAtom !== undefined && !r.sourceAtom.changed) {
    out.push(
      diagnostic(
        "evidence.insensitive_hash",
        `${r.case}: changing source atom "${r.sourceAtom.atom}" in ${r.sourceAtom.file || r.case} did not change the ReproHash`,
        { file: r.case },
      ),
    );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Independent runs (§3.3)

export interface RunComparison {
  readonly case: string;
  readonly hashes: readonly string[];
  readonly agree: boolean;
  readonly physicalDifference: readonly string[];
}

/** Compare the receipts of one case across ≥ 2 independent runs. */
export function compareRuns(casePath: string, receipts: readonly Record<string, unknown>[]): RunComparison {
  const cs = receipts.map((r) => canonicalize(r, RECEIPT_TABLE));
  const hashes = cs.map((c) => c.reproHash);
  const diff = new Set<string>();
  for (let i = 1; i < cs.length; i++) for (const p of physicalDifference(cs[0]!, cs[i]!)) diff.add(p);
  return {
    case: casePath,
    hashes,
    agree: hashes.length >= 2 && hashes.every((h) => h === hashes[0]),
    physicalDifference: [...diff].sort(compareUtf16),
  };
}

export type { Receipt };
