/**
 * The human renderer on hostile volumes: linear in the number of diagnostics (each source is split
 * once, not rescanned per diagnostic), at most HUMAN_DIAGNOSTIC_LIMIT diagnostics per package with
 * one line saying how many more, and a bounded window of a very long line.
 */
import { describe, expect, it } from "vitest";
// A renderer input of any code: tests may use the builder that is private to src/diagnostics.
import { diagnostic } from "../../src/diagnostics/build.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { HUMAN_DIAGNOSTIC_LIMIT, renderHuman } from "../../src/diagnostics/render.js";
import type { CheckResult } from "../../src/diagnostics/result.js";

const at = (line: number, column: number, width = 1) => ({
  start: { byte: 0, line, column },
  end: { byte: 0, line, column: column + width },
});

function result(diagnostics: Diagnostic[], source: string): CheckResult {
  return { path: "pkg", kind: "a3s", valid: false, identity: null, diagnostics, sources: new Map([["x.acl", source]]) };
}

describe("renderHuman", () => {
  it("prints the first 1,000 diagnostics of a package and says how many more there are; the totals count all", () => {
    const n = 120_000;
    const source = "x=1\n".repeat(n);
    const ds = Array.from({ length: n }, (_, i) =>
      diagnostic("a3s.test", `problem ${i + 1}`, {
        file: "x.acl",
        span: at(i + 1, 1),
        severity: i % 2 === 0 ? "error" : "warning",
      }),
    );
    const t0 = Date.now();
    const text = renderHuman([result(ds, source)], { color: false });
    // A generous bound that only a per-diagnostic rescan of the source (quadratic) would exceed.
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(HUMAN_DIAGNOSTIC_LIMIT).toBe(1000);
    expect(text).toContain("x.acl:1000:1: warning[a3s.test]: problem 1000\n");
    expect(text).not.toContain("problem 1001\n");
    expect(text).toContain(
      "pkg: 119000 more diagnostics not shown (the first 1000 are above; `--format json` lists all)\n",
    );
    expect(text).toContain("60000 errors, 60000 warnings");
    expect(text.length).toBeLessThan(200_000);
  });

  it("says nothing more at exactly the limit", () => {
    const ds = Array.from({ length: HUMAN_DIAGNOSTIC_LIMIT }, (_, i) =>
      diagnostic("a3s.test", `problem ${i + 1}`, { file: "x.acl", severity: "error" }),
    );
    const text = renderHuman([result(ds, "")], { color: false });
    expect(text).toContain(`problem ${HUMAN_DIAGNOSTIC_LIMIT}\n`);
    expect(text).not.toContain("not shown");
  });

  it("shows a window of a megabyte-long line, with the caret under the span", () => {
    const line = `${"a".repeat(500_000)}BAD${"b".repeat(500_000)}`;
    const ds = Array.from({ length: 1000 }, () =>
      diagnostic("a3s.test", "bad", { file: "x.acl", span: at(1, 500_001, 3), severity: "error" }),
    );
    const t0 = Date.now();
    const text = renderHuman([result(ds, `${line}\n`)], { color: false });
    expect(Date.now() - t0).toBeLessThan(10_000);
    const frame = text.split("\n").slice(0, 4);
    expect(frame[2]!.length).toBeLessThan(200);
    expect(frame[2]).toMatch(/^1 \| …a+BADb+…$/);
    expect(frame[2]!.indexOf("BAD")).toBe(frame[3]!.indexOf("^^^"));
    expect(frame[3]).toMatch(/^ {2}\| +\^\^\^$/);
  });

  it("keeps short lines whole, tabs in the padding and a CRLF line's \\r out of the frame", () => {
    const text = renderHuman(
      [
        result(
          [diagnostic("a3s.test", "bad", { file: "x.acl", span: at(2, 3, 2), severity: "error" })],
          "first\n\tab cd\r\n",
        ),
      ],
      { color: false },
    );
    expect(text).toContain("2 | \tab cd\n  | \t ^^\n");
  });
});
