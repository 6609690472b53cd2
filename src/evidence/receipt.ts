/**
 * Receipts: one `yaoc check --format json` result, wrapped with its evidence class (§5), the reason
 * code of every diagnostic (§4) and its ReproHash (§3). Physical fields (time, pid, run id, elapsed)
 * are carried but classified out of the hash; see classification.ts.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { diagnostic, type EVIDENCE_CODES } from "../codes/evidence.js";
import type { CodeWithSeverity } from "../diagnostics/codes.js";
import { jsonResult } from "../output/format-json.js";
import { escapePointerToken } from "../json/pointer.js";
import type { CheckResult } from "../diagnostics/result.js";
import { canonicalize, type Canonicalized } from "./canonicalize.js";
import { RECEIPT_TABLE } from "./classification.js";
import { actionForSeverity, reasonOrMissing } from "../codes/reasons.js";

export type EvidenceClass = "simulated" | "measured" | "third_party";
export const EVIDENCE_CLASSES: readonly EvidenceClass[] = ["simulated", "measured", "third_party"];

export interface RunContext {
  /** ISO-8601 time the receipt was produced. */
  readonly generated_at: string;
  readonly pid: number | null;
  /** A fresh random id per process run. */
  readonly id_runtime: string;
  /** Milliseconds spent producing the result. */
  readonly elapsed: number | null;
}

export interface Provenance {
  readonly tool: { readonly name: string; readonly version: string };
  readonly host?: { readonly platform: string; readonly node: string };
}

export interface ReceiptOptions {
  readonly analyze: boolean;
  /**
   * The package's own name: the last segment of its resolved path (the package named relative to
   * its parent directory). The CLI passes it (it can resolve `.` and `..`); without it the last
   * segment of the path as given is used.
   */
  readonly packageName?: string;
  readonly evidence_class?: EvidenceClass;
  readonly measure_source?: string | null;
  readonly measure_ts?: string | null;
  readonly run?: RunContext;
  readonly provenance?: Provenance;
}

export type Receipt = Record<string, unknown> & { readonly repro_hash: string; readonly evidence_class: EvidenceClass };

/** One check result as JSON, each diagnostic with its reason code `{action, layer, reason}` (§4). */
function resultWithReasons(result: CheckResult): Record<string, unknown> {
  const json = JSON.parse(JSON.stringify(jsonResult(result))) as Record<string, unknown>;
  const diags = Array.isArray(json["diagnostics"]) ? (json["diagnostics"] as Record<string, unknown>[]) : [];
  json["diagnostics"] = diags.map((d) => {
    const severity = d["severity"] as Diagnostic["severity"];
    const r = reasonOrMissing(String(d["code"]), severity);
    // The action follows the severity the diagnostic was reported with (strict mode promotes warnings).
    return { ...d, action: actionForSeverity(severity), layer: r.layer, reason: r.reason };
  });
  return json;
}

/** The last segment of a path as given (`a/b.hns/` → `b.hns`), `/` and `\\` both separators. */
export function lastSegment(path: string): string {
  const parts = path.split(/[\\/]+/).filter((p) => p !== "");
  return parts.at(-1) ?? path;
}

/**
 * The result with the package named by `name` instead of the path the user typed: `result.path`
 * becomes `name`, and wherever a file, message, help or label spells the typed path (as typed or
 * in its lexical normal form) as a whole path (itself, or followed by `/`), it is spelled `name`
 * too. So `x`, `./x`, `../here/x` and
 * `/abs/here/x` give the same hashed fields; the typed path is kept in the receipt's physical
 * `typed_path`. A typed path whose last segment is `.` or `..` is replaced only where it is the
 * whole field (never inside prose, where a dot is punctuation).
 */
function nameThePackage(json: Record<string, unknown>, typedAsGiven: string, name: string): Record<string, unknown> {
  // A frontend may spell the package `x`, `./x` or `x/` whichever was typed: replace every lexical
  // spelling of it (longest first, so `./x` is not left as `./name`).
  const spellings = [...new Set([typedAsGiven.replace(/(?<=.)\/+$/, ""), lexicalNormal(typedAsGiven)])]
    .filter((t) => t !== "" && t !== name)
    .sort((a, b) => b.length - a.length);
  if (spellings.length === 0) return { ...json, path: name };
  const inProse = !/^\.{1,2}$/.test(lastSegment(typedAsGiven));
  const escaped = spellings.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  // A whole path: not preceded by a path character, followed by `/` or by no path character.
  const pattern = new RegExp(`(?<![\\w./-])(?:${escaped})(?=/|(?![\\w.-])|\\.(?![\\w-]))`, "g");
  const fix = (v: unknown, prose: boolean): unknown => {
    if (typeof v !== "string") return v;
    if (prose && inProse) return v.replace(pattern, () => name);
    for (const t of spellings) {
      if (v === t) return name;
      if (v.startsWith(`${t}/`)) return `${name}${v.slice(t.length)}`;
    }
    return v;
  };
  const fixDiag = (d: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = {
      ...d,
      file: fix(d["file"], false),
      message: fix(d["message"], true),
      reference_message: fix(d["reference_message"], true),
      help: fix(d["help"], true),
      label: fix(d["label"], true),
    };
    if (Array.isArray(d["related"]))
      out["related"] = (d["related"] as Record<string, unknown>[]).map((r) => ({
        ...r,
        file: fix(r["file"], false),
        message: fix(r["message"], true),
      }));
    for (const k of ["file", "message", "reference_message", "help", "label"]) if (d[k] === undefined) delete out[k];
    return out;
  };
  const diags = Array.isArray(json["diagnostics"]) ? (json["diagnostics"] as Record<string, unknown>[]) : [];
  return { ...json, path: name, diagnostics: diags.map(fixDiag) };
}

/** `./a//b/../c/` → `a/c`, `/x/./y` → `/x/y`: the POSIX lexical normal form (no file system access). */
export function lexicalNormal(path: string): string {
  const absolute = path.startsWith("/");
  const out: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === ".." && out.length > 0 && out.at(-1) !== "..") out.pop();
    else if (seg !== ".." || !absolute) out.push(seg);
  }
  const joined = out.join("/");
  return absolute ? `/${joined}` : joined === "" ? "." : joined;
}

/** The receipt of one check result; its `repro_hash` is computed over the repro fields only. */
export function toReceipt(result: CheckResult, options: ReceiptOptions): Receipt {
  const json = resultWithReasons(result);
  const typed = String(json["path"] ?? "");
  const doc: Record<string, unknown> = {
    receipt: RECEIPT_TABLE.version,
    command: "check",
    options: { analyze: options.analyze },
    evidence_class: options.evidence_class ?? "simulated",
    measure_source: options.measure_source ?? null,
    measure_ts: options.measure_ts ?? null,
    result: nameThePackage(json, typed, options.packageName ?? lastSegment(typed)),
    typed_path: typed,
  };
  if (options.provenance !== undefined) {
    doc["tool"] = options.provenance.tool;
    if (options.provenance.host !== undefined) doc["host"] = options.provenance.host;
  }
  if (options.run !== undefined) Object.assign(doc, options.run);
  return seal(doc);
}

/** Recompute `repro_hash`, `repro_digest` and the `canonical` summary of a receipt document. */
export function seal(doc: Record<string, unknown>): Receipt {
  const c = canonicalize(doc, RECEIPT_TABLE);
  return {
    ...doc,
    repro_hash: c.reproHash,
    repro_digest: c.digest,
    canonical: { unregistered: c.unregistered.map((u) => u.pointer), unkeyed_lists: [...c.unkeyedLists] },
  } as unknown as Receipt;
}

export function canonicalizeReceipt(receipt: Record<string, unknown>): Canonicalized {
  return canonicalize(receipt, RECEIPT_TABLE);
}

/**
 * What a receipt itself says is wrong with the evidence: unregistered fields (R1), unkeyed object
 * lists (R2), diagnostics without a reason row (§4), and the honesty warnings H1/H2 (§5.2).
 */
export function receiptFindings(receipt: Record<string, unknown>, subject: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const c = canonicalizeReceipt(receipt);
  for (const u of c.unregistered) {
    out.push(
      diagnostic(
        "evidence.unregistered_field",
        `${subject}: field ${u.pointer} (${u.path}) is not in the classification table; treated as physical and excluded from the ReproHash`,
        { file: subject, pointer: u.pointer, hint: "add a row to src/evidence/classification.ts" },
      ),
    );
  }
  for (const path of c.unkeyedLists) {
    out.push(
      diagnostic(
        "evidence.unkeyed_list",
        `${subject}: list of objects ${path} has no declared sort key; ordered by canonical bytes`,
        { file: subject, hint: "declare a sortKey for it in src/evidence/classification.ts" },
      ),
    );
  }
  const result = receipt["result"] as Record<string, unknown> | undefined;
  const diags = Array.isArray(result?.["diagnostics"]) ? (result["diagnostics"] as Record<string, unknown>[]) : [];
  for (const d of diags) {
    if (d["reason"] === "meta_no_reason_row") {
      out.push(
        diagnostic(
          "evidence.reason_missing",
          `${subject}: diagnostic code ${String(d["code"])} has no row in the code table`,
          { file: subject, hint: "add a row to the frontend's code table and register it in ALL_CODES" },
        ),
      );
    }
  }
  for (const d of honestyFindings(receipt, subject)) out.push(d);
  return out;
}

/** §5.1–5.2: evidence_class present and valid; measured/third_party carry their source (and time). */
export function honestyFindings(doc: Record<string, unknown>, subject: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const warn = (code: CodeWithSeverity<typeof EVIDENCE_CODES, "warning">, message: string) =>
    out.push(diagnostic(code, `${subject}: ${message}`, { file: subject }));
  if (!Object.hasOwn(doc, "evidence_class") || doc["evidence_class"] === null || doc["evidence_class"] === undefined) {
    warn("evidence.hon_missing_evidence_class", "H2: the receipt has no evidence_class");
    return out;
  }
  const cls = doc["evidence_class"];
  const source = doc["measure_source"];
  const ts = doc["measure_ts"];
  const present = (v: unknown) => typeof v === "string" && v.trim() !== "";
  if (cls === "measured") {
    if (!present(source)) warn("evidence.hon_measured_no_source", "H1: measured evidence without measure_source");
    if (!present(ts)) warn("evidence.hon_measured_no_ts", "H1: measured evidence without measure_ts");
  } else if (cls === "third_party") {
    if (!present(source))
      warn("evidence.hon_third_party_no_source", "H1: third_party evidence without a verifiable measure_source");
  } else if (cls === "simulated") {
    if ((source !== null && source !== undefined) || (ts !== null && ts !== undefined)) {
      warn("evidence.hon_simulated_with_measure", "simulated evidence must have measure_source and measure_ts null");
    }
  } else {
    warn(
      "evidence.hon_invalid_evidence_class",
      `H2: evidence_class ${JSON.stringify(cls)} is not simulated, measured or third_party`,
    );
  }
  return out;
}

/**
 * Every evidence claim in one JSON document (a bench result, a file of figures beside a doc): each
 * object, at any depth, that has an `evidence_class` is held to §5.1 like a receipt. `subject` names
 * the file; a finding's subject is the file with the object's JSON pointer. `honest` counts the
 * claims that carry what their class requires (a measured one its source and time), i.e. the ones
 * that can back a document's claim of measured results.
 */
export function evidenceClaims(
  subject: string,
  doc: unknown,
): { claims: number; honest: number; findings: Diagnostic[] } {
  let claims = 0;
  let honest = 0;
  const findings: Diagnostic[] = [];
  const walk = (v: unknown, pointer: string, depth: number): void => {
    if (v === null || typeof v !== "object" || depth > 64) return;
    if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, `${pointer}/${i}`, depth + 1));
      return;
    }
    const o = v as Record<string, unknown>;
    if (Object.hasOwn(o, "evidence_class")) {
      claims++;
      const fs = honestyFindings(o, pointer === "" ? subject : `${subject}#${pointer}`);
      if (fs.length === 0 && (o["evidence_class"] === "measured" || o["evidence_class"] === "third_party")) honest++;
      for (const f of fs) findings.push(f);
    }
    for (const [k, x] of Object.entries(o)) walk(x, `${pointer}/${escapePointerToken(k)}`, depth + 1);
  };
  walk(doc, "", 0);
  return { claims, honest, findings };
}

/** A measured figure (e.g. a benchmark time): carries where it was measured and when (§5.1). */
export function measuredFigure(
  name: string,
  value: number,
  unit: string,
  measureSource: string,
  measureTs: string,
): Record<string, unknown> {
  return { name, value, unit, evidence_class: "measured", measure_source: measureSource, measure_ts: measureTs };
}

/** Words that claim real, measured effect (§5.2: 「实测」「真实生效」 and their English equivalents). */
export const CLAIM_PATTERN =
  /实测|真实生效|\bmeasured (?:results?|speed-?ups?|throughput|latenc(?:y|ies))\b|\breally (?:takes|took) effect\b|\bverified in production\b/i;

/**
 * §5.2 third bullet: a document that claims measured / really-in-effect results while its directory
 * holds no non-simulated evidence gets H1. Code spans and fenced blocks are ignored (quoting the rule
 * is not claiming it). `evidenceClassesInDir` lists the classes of the honest evidence beside the
 * document (a measured claim counts only with its source and time: see evidenceClaims).
 */
export function docClaimFindings(docPath: string, text: string, evidenceClassesInDir: readonly string[]): Diagnostic[] {
  const prose = text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  const lines = prose.split("\n");
  const hit = lines.findIndex((l) => CLAIM_PATTERN.test(l));
  if (hit < 0) return [];
  if (evidenceClassesInDir.some((c) => c === "measured" || c === "third_party")) return [];
  return [
    diagnostic(
      "evidence.hon_doc_claim_unbacked",
      `${docPath}: H1: claims measured results (${lines[hit]!.trim().slice(0, 80)}) but no measured or third_party evidence is beside it`,
      {
        file: docPath,
        hint: "publish the measurement as evidence with measure_source and measure_ts, or drop the claim",
      },
    ),
  ];
}

/**
 * The `yaoc check --format json` document with every result as a receipt view: the usual result
 * fields (unchanged, so existing consumers keep working), each diagnostic with `action`, `layer`,
 * `reason`, plus `evidence_class`, `measure_source`, `measure_ts` and `repro_hash`. No physical
 * fields, so the output stays byte-stable.
 */
export function renderEvidenceJson(
  results: readonly CheckResult[],
  options: { analyze: boolean; packageName?: (path: string) => string },
): string {
  const out = results.map((r) => {
    const receipt = toReceipt(r, {
      analyze: options.analyze,
      ...(options.packageName ? { packageName: options.packageName(r.path) } : {}),
    });
    return {
      // The result as checked, with the path as typed; only repro_hash is path-independent.
      ...resultWithReasons(r),
      // Report-only fields (the tool contract report): printed, never part of the receipt or its hash.
      ...r.report,
      evidence_class: receipt.evidence_class,
      measure_source: receipt["measure_source"],
      measure_ts: receipt["measure_ts"],
      repro_hash: receipt.repro_hash,
    };
  });
  return `${JSON.stringify({ results: out })}\n`;
}
