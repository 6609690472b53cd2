/** `yaoc check` keeps only the source texts a diagnostic points into (check-one.ts). */
import { describe, expect, it } from "vitest";
import { withSourcesInUse } from "../../src/cli/check-one.js";
import type { CheckResult } from "../../src/diagnostics/result.js";

const base = (diagnostics: CheckResult["diagnostics"]): CheckResult => ({
  path: "p",
  kind: "hns",
  valid: diagnostics.length === 0,
  identity: null,
  diagnostics,
  sources: new Map([
    ["a.yao", "A"],
    ["b.yao", "B"],
    ["c.yao", "C"],
  ]),
});

describe("withSourcesInUse", () => {
  it("drops every text of a result without diagnostics", () => {
    const r = withSourcesInUse(base([]));
    expect(r.sources).toBeUndefined();
    expect(r).toMatchObject({ path: "p", valid: true, diagnostics: [] });
  });

  it("keeps the files of the diagnostics and of their related locations (a related one without a file is in its diagnostic's)", () => {
    const r = withSourcesInUse(
      base([
        { code: "x", severity: "error", message: "m", file: "a.yao", related: [{ file: "c.yao", message: "there" }] },
        { code: "y", severity: "warning", message: "n", file: "a.yao", related: [{ message: "same file" }] },
      ]),
    );
    expect([...(r.sources?.keys() ?? [])]).toEqual(["a.yao", "c.yao"]);
  });

  it("leaves a result that had no sources as it is", () => {
    const r: CheckResult = { path: "p", kind: "harp", valid: true, identity: null, diagnostics: [] };
    expect(withSourcesInUse(r)).toBe(r);
  });
});
