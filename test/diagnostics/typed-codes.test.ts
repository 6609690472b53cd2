/**
 * Codes are typed by their tables: `npm run typecheck` (part of `npm test`) fails if any
 * `@ts-expect-error` below stops being an error, i.e. if a frontend's `diagnostic` accepted a code
 * outside its table or a severity at the call site. At run time the severity is the row's.
 */
import { describe, expect, it } from "vitest";
import { diagnostic as a3sDiagnostic } from "../../src/a3s/codes.js";
import { diagnostic as checkDiagnostic } from "../../src/check/codes.js";
import { defineCodes, diagnosticsFor } from "../../src/diagnostics/codes.js";
import { diagnostic as evidenceDiagnostic } from "../../src/codes/evidence.js";
import { diagnostic as hnsDiagnostic } from "../../src/hns/codes.js";
import { diagnostic as readerDiagnostic } from "../../src/syntax/codes.js";
import { diagnostic as yaoDiagnostic } from "../../src/yao/codes.js";
import type { YaoCode } from "../../src/yao/error.js";

describe("typed diagnostic codes", () => {
  it("rejects codes outside the table at compile time (and at run time when types are bypassed)", () => {
    // @ts-expect-error a misspelt HNS code
    expect(() => hnsDiagnostic("hns.not_fund", "x")).toThrow(/not a row/);
    // @ts-expect-error another frontend's code
    expect(() => hnsDiagnostic("yao.bom", "x")).toThrow(/not a row/);
    // @ts-expect-error a misspelt A3S code
    expect(() => a3sDiagnostic("a3s.acl.synatx", "x")).toThrow(/not a row/);
    // @ts-expect-error a misspelt evidence code
    expect(() => evidenceDiagnostic("evidence.unstable", "x")).toThrow(/not a row/);
    // @ts-expect-error a misspelt reader code
    expect(() => readerDiagnostic("yao.unclosed", "x")).toThrow(/not a row/);
    // @ts-expect-error a misspelt analyzer code
    expect(() => yaoDiagnostic("yao.type_mismatched", "x")).toThrow(/not a row/);
    // @ts-expect-error the CLI/check table has no HNS codes
    expect(() => checkDiagnostic("hns.not_found", "x")).toThrow(/not a row/);
    // @ts-expect-error analyzer codes without their prefix come from the table too
    const bad: YaoCode = "type_mismatched";
    expect(bad).toBe("type_mismatched");
    // @ts-expect-error severity is not a call-site option
    expect(hnsDiagnostic("hns.not_found", "x", { severity: "warning" }).severity).toBe("error");
  });

  it("takes severity from the row", () => {
    expect(hnsDiagnostic("hns.empty_title", "t").severity).toBe("warning");
    expect(hnsDiagnostic("hns.not_found", "t").severity).toBe("error");
    expect(evidenceDiagnostic("evidence.golden_uncommitted", "t").severity).toBe("info");
    expect(a3sDiagnostic("a3s.acl.unknown_escape", "t").severity).toBe("warning");
    expect(checkDiagnostic("cli.not_found", "t", { file: "p" })).toEqual({
      code: "cli.not_found",
      severity: "error",
      message: "t",
      file: "p",
    });
  });

  it("downgrades only codes whose row declares downgradedTo", () => {
    expect(a3sDiagnostic("a3s.resolve.record_invalid", "t").severity).toBe("error");
    expect(a3sDiagnostic("a3s.resolve.record_invalid", "t", { downgraded: true }).severity).toBe("warning");
    const d = diagnosticsFor(
      defineCodes([
        { code: "t.x", severity: "error", summary: "a test row only", clause: "none", layer: "L1", reason: "struct_x" },
      ]),
    );
    expect(() => d("t.x", "m", { downgraded: true })).toThrow(/no downgradedTo/);
  });
});
