import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import type { OkfLimits } from "../../src/a3s/okf/contract.js";
import { inspectOkfBundleFiles } from "../../src/a3s/okf/inspect.js";
import { okfContractCasesOn } from "../a3s/okf-contract-cases.js";
import { A3S as SHARED_A3S, describeReference, referenceJson } from "./reference.js";

interface Case {
  id: string;
  files: { path: string; content: string }[];
  limits: OkfLimits;
  expectedErrorCode: string | null;
  observed: {
    errorCode?: string;
    message?: string;
    conceptCount?: number;
    fileCount?: number;
    expandedBytes?: number;
    contentDigest?: string;
    concepts?: unknown[];
    diagnostics?: [string, string][];
  };
}
interface Snapshot {
  source: string;
  files: { path: string; base64: string }[];
  expectedInspection: Record<string, unknown>;
}

const enc = new TextEncoder();
/**
 * The cases file stores contents as JSON strings, so the one binary file (`data.bin`, bytes 00 FF)
 * was written with U+FFFD; its expandedBytes (23) and digest pin the original byte 0xFF, which is
 * what this decoding restores (checked: no other byte gives the recorded digest).
 */
const caseBytes = (content: string) =>
  content.includes("\ufffd")
    ? new Uint8Array([...content].map((c) => (c === "\ufffd" ? 0xff : c.charCodeAt(0))))
    : enc.encode(content);

describeReference("okf-inspection-cases.json", () => {
  const cases = referenceJson<Case[]>("reference", "a3s", "okf-inspection-cases.json");
  test("14 cases", () => expect(cases.length).toBe(14));
  test.each(cases.map((c) => [c.id, c] as const))("%s", (_id, c) => {
    const r = inspectOkfBundleFiles(
      c.files.map((f) => ({ path: f.path, bytes: caseBytes(f.content) })),
      c.limits,
    );
    if (c.expectedErrorCode !== null) {
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.errors[0]!.code).toBe(c.expectedErrorCode);
      expect(r.errors[0]!.message).toBe(c.observed.message);
      return;
    }
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const i = r.inspection;
    expect({
      conceptCount: i.conceptCount,
      fileCount: i.fileCount,
      expandedBytes: i.expandedBytes,
      contentDigest: i.contentDigest,
      concepts: i.concepts,
    }).toEqual({
      conceptCount: c.observed.conceptCount,
      fileCount: c.observed.fileCount,
      expandedBytes: c.observed.expandedBytes,
      contentDigest: c.observed.contentDigest,
      concepts: c.observed.concepts,
    });
    expect(i.diagnostics.map((d) => [d.path, d.target])).toEqual(c.observed.diagnostics);
  });
});

describeReference("okf-bundle-snapshots.json: full inspection equality", () => {
  const snapshots = referenceJson<Snapshot[]>("reference", "a3s", "okf-bundle-snapshots.json");
  test.each(snapshots.map((s) => [s.source.split(":")[1]!, s] as const))("%s", (_n, s) => {
    const files = s.files.map((f) => ({ path: f.path, bytes: new Uint8Array(Buffer.from(f.base64, "base64")) }));
    const r = inspectOkfBundleFiles(files, s.expectedInspection["limits"] as OkfLimits);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.inspection).toEqual(s.expectedInspection);
    // File order does not matter (okf_bundle_contracts.rs "file order reversed").
    const rev = inspectOkfBundleFiles([...files].reverse(), s.expectedInspection["limits"] as OkfLimits);
    expect(rev).toEqual(r);
  });
});

describeReference("OKF contract JSON of the A3S Use core fixtures", () => {
  // The core fixture's contract describes the first snapshot's bundle; the cases: test/a3s/okf-contract-cases.ts.
  const snapshots = referenceJson<Snapshot[]>("reference", "a3s", "okf-bundle-snapshots.json");
  okfContractCasesOn(
    "the reference's contract",
    readFileSync(join(SHARED_A3S, "Use", "crates", "core", "fixtures", "okf", "bundle-contract-v1.json")),
    snapshots[0]!.files.map((f) => ({ path: f.path, bytes: new Uint8Array(Buffer.from(f.base64, "base64")) })),
  );
});
