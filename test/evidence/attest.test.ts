import { describe, expect, it } from "vitest";
// A renderer input of any code: tests may use the builder that is private to src/diagnostics.
import { diagnostic } from "../../src/diagnostics/build.js";
import { buildAttestation, renderJsonl, renderMarkdown, type AttestInputs } from "../../src/evidence/attest.js";
import type { SensitivityReport } from "../../src/evidence/golden.js";

const sens = (c: string, passed = true): SensitivityReport => ({
  case: c,
  reproTampers: [{ pointer: "/result/path", changed: passed }],
  physicalTampers: [{ pointer: "/pid", changed: false }],
  orderIndependent: true,
  passed,
});

function inputs(over: Partial<AttestInputs> = {}): AttestInputs {
  return {
    cases: ["a", "b"],
    runs: [
      { case: "a", hashes: ["1111111111111111", "1111111111111111"], agree: true, physicalDifference: ["/pid"] },
      { case: "b", hashes: ["2222222222222222", "2222222222222222"], agree: true, physicalDifference: ["/pid"] },
    ],
    runCount: 2,
    golden: [
      { case: "a", status: "match", expected: "1111111111111111", actual: "1111111111111111", differences: [] },
      { case: "b", status: "match", expected: "2222222222222222", actual: "2222222222222222", differences: [] },
    ],
    goldenFindings: [],
    sensitivity: [sens("a"), sens("b")],
    sensitivityFindings: [],
    receiptFindings: [],
    docFindings: [],
    workerFindings: [],
    emittedCodes: ["hns.bad_suffix"],
    coresNumberFree: true,
    git: { available: true, range: "HEAD", commitsTouchingGolden: 1, findings: [] },
    ci: { entry: ".ci/run", runsAttest: true, detail: "`.ci/run` runs `yaoc attest`" },
    tool: { name: "yaoc", version: "0.1.0" },
    ...over,
  };
}
const phys = (ts: string) => ({ ts_build: ts, elapsed: 12, runs: [{ pid: 1 }] });

describe("attestation", () => {
  it("green, exit 0, grade full; verdict_hash ignores ts_build and elapsed", () => {
    const a = buildAttestation(inputs(), phys("2026-01-01T00:00:00Z"));
    const b = buildAttestation(inputs(), { ts_build: "2027-05-05T00:00:00Z", elapsed: 99, runs: [{ pid: 2 }] });
    expect(a.verdict).toBe("green");
    expect(a.exitCode).toBe(0);
    expect(a.doc["grade"]).toBe("full");
    expect(a.verdictHash).toMatch(/^[0-9a-f]{16}$/);
    expect(a.verdictHash).toBe(b.verdictHash);
    expect(a.checks.map((c) => c.id)).toEqual(["D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8", "D9", "D10"]);
    expect(renderJsonl(a).trim().split("\n")).toHaveLength(11);
    expect(renderMarkdown(a)).toContain("**green** (exit 0)");
  });

  it("yellow (exit 2) on honesty or unknown-field warnings, and the hash moves with the conclusion", () => {
    const w = buildAttestation(
      inputs({ receiptFindings: [diagnostic("evidence.unregistered_field", "x", { severity: "warning" })] }),
      phys("t"),
    );
    expect([w.verdict, w.exitCode]).toEqual(["yellow", 2]);
    const h = buildAttestation(
      inputs({ docFindings: [diagnostic("evidence.hon_doc_claim_unbacked", "d", { severity: "warning" })] }),
      phys("t"),
    );
    expect([h.verdict, h.exitCode]).toEqual(["yellow", 2]);
    expect(w.verdictHash).not.toBe(buildAttestation(inputs(), phys("t")).verdictHash);
  });

  it("red (exit 1) and incompatible when runs disagree or the self-check fails", () => {
    const unstable = buildAttestation(
      inputs({
        runs: [{ case: "a", hashes: ["1", "2"], agree: false, physicalDifference: ["/pid"] }, inputs().runs[1]!],
      }),
      phys("t"),
    );
    expect([unstable.verdict, unstable.exitCode, unstable.doc["grade"]]).toEqual(["red", 1, "incompatible"]);
    const idle = buildAttestation(inputs({ sensitivity: [sens("a", false), sens("b")] }), phys("t"));
    expect([idle.verdict, idle.doc["grade"]]).toEqual(["red", "incompatible"]);
  });

  it("red when the physical difference is empty (exclusion not demonstrated)", () => {
    const same = buildAttestation(
      inputs({ runs: inputs().runs.map((r) => ({ ...r, physicalDifference: [] })) }),
      phys("t"),
    );
    expect(same.verdict).toBe("red");
    expect(same.doc["grade"]).toBe("sampled");
  });

  it("sampled when some cases lack goldens; red on an unmarked golden commit", () => {
    const partial = buildAttestation(
      inputs({
        golden: [inputs().golden[0]!, { case: "b", status: "missing", actual: "2", differences: [] }],
        goldenFindings: [diagnostic("evidence.golden_missing", "b")],
      }),
      phys("t"),
    );
    expect(partial.doc["grade"]).toBe("sampled");
    const unmarked = buildAttestation(
      inputs({
        git: {
          available: true,
          range: "HEAD",
          commitsTouchingGolden: 1,
          findings: [diagnostic("evidence.golden_unmarked_commit", "c")],
        },
      }),
      phys("t"),
    );
    expect(unmarked.verdict).toBe("red");
    expect(buildAttestation(inputs({ git: null }), phys("t")).verdict).toBe("yellow");
  });

  it("D10 passes only when the CI entry was found to run attest; otherwise yellow", () => {
    expect(buildAttestation(inputs(), phys("t")).checks.find((c) => c.id === "D10")!.status).toBe("pass");
    const none = buildAttestation(
      inputs({ ci: { entry: ".ci/run", runsAttest: false, detail: "`.ci/run` does not run `yaoc attest`" } }),
      phys("t"),
    );
    expect(none.checks.find((c) => c.id === "D10")).toMatchObject({
      status: "warn",
      evidence: expect.stringContaining("does not run"),
    });
    expect(none.verdict).toBe("yellow");
    expect(buildAttestation(inputs({ ci: undefined }), phys("t")).verdict).toBe("yellow");
  });

  it("D7 fails when an emitted code has no reason row", () => {
    const a = buildAttestation(inputs({ emittedCodes: ["nope.none"] }), phys("t"));
    expect(a.checks.find((c) => c.id === "D7")!.status).toBe("fail");
  });
});
