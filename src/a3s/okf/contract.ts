/**
 * The OKF bundle contract `a3s.use.okf-bundle.v1` (reference §5.1): limits, root and evidence
 * checks, in the reference's order and words.
 */

export interface OkfLimits {
  maxFiles: number;
  maxConcepts: number;
  maxExpandedBytes: number;
  maxDocumentBytes: number;
  maxLinksPerDocument: number;
}

export interface OkfBundleContract {
  schema: "a3s.use.okf-bundle.v1";
  formatVersion: "0.2";
  root: string;
  contentDigest: string;
  conceptCount: number;
  fileCount: number;
  expandedBytes: number;
  limits: OkfLimits;
}

export const DEFAULT_OKF_LIMITS: OkfLimits = {
  maxFiles: 256,
  maxConcepts: 64,
  maxExpandedBytes: 64 * 1024 * 1024,
  maxDocumentBytes: 1024 * 1024,
  maxLinksPerDocument: 2048,
};

export interface ContractProblem {
  readonly field: "limits" | "root" | "evidence";
  /** Reference error code. */
  readonly code: "use.okf.contract_invalid" | "use.okf.path_escape";
  readonly message: string;
}

const SHA256 = /^sha256:[0-9a-f]{64}$/;

export function limitsProblem(l: OkfLimits): ContractProblem | null {
  const within = (v: number, hi: number) => Number.isInteger(v) && v >= 1 && v <= hi;
  const ok =
    within(l.maxFiles, 4096) &&
    within(l.maxConcepts, Math.min(l.maxFiles, 4096)) &&
    within(l.maxExpandedBytes, 512 * 1024 * 1024) &&
    within(l.maxDocumentBytes, Math.min(l.maxExpandedBytes, 8 * 1024 * 1024)) &&
    within(l.maxLinksPerDocument, 16384);
  return ok
    ? null
    : {
        field: "limits",
        code: "use.okf.contract_invalid",
        message: "The OKF bundle limits are outside the supported bounds.",
      };
}

/** OKF canonical bundle-relative path: no empty/`.`/`..` segments, no `\`, no controls, ≤1024 bytes. */
export function isCanonicalOkfPath(p: string): boolean {
  if (p === "" || new TextEncoder().encode(p).length > 1024) return false;
  if (p.startsWith("/") || p.endsWith("/") || p.includes("\\")) return false;
  if (/[\u0000-\u001f\u007f]/.test(p)) return false;
  return p.split("/").every((s) => s !== "" && s !== "." && s !== "..");
}

export function validateOkfContract(c: OkfBundleContract): ContractProblem | null {
  const limits = limitsProblem(c.limits);
  if (limits !== null) return limits;
  if (!isCanonicalOkfPath(c.root)) {
    return {
      field: "root",
      code: "use.okf.path_escape",
      message: `The OKF bundle root '${c.root}' is not a canonical bundle-relative path.`,
    };
  }
  const l = c.limits;
  const evidenceOk =
    SHA256.test(c.contentDigest) &&
    c.conceptCount >= 1 &&
    c.conceptCount <= c.fileCount &&
    c.fileCount <= l.maxFiles &&
    c.conceptCount <= l.maxConcepts &&
    c.expandedBytes >= 1 &&
    c.expandedBytes <= l.maxExpandedBytes;
  return evidenceOk
    ? null
    : { field: "evidence", code: "use.okf.contract_invalid", message: "The OKF bundle evidence is invalid." };
}
