import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderCodesDoc } from "../../src/diagnostics/codes-doc.js";
import { ALL_CODES, CODE_SECTIONS } from "../../src/codes/registry.js";
import { REPO_ROOT } from "../support/repo.js";

describe("diagnostic code table", () => {
  it("has one row per code", () => {
    const codes = ALL_CODES.map((r) => r.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it("gives every row a non-empty reason in a seed-002 family and a guard layer", () => {
    for (const row of ALL_CODES) {
      expect(row.reason, row.code).toMatch(/^(struct|size|danger|perm|ident|meta|audit|hon)_[a-z0-9_]+$/);
      expect(row.layer, row.code).toMatch(/^L[1-8]$/);
      expect(row.summary.length, row.code).toBeGreaterThan(10);
      expect(row.clause.length, row.code).toBeGreaterThan(2);
    }
  });

  it("docs/diagnostics.md is generated from the table and up to date (npm run docs:diagnostics)", () => {
    expect(readFileSync(join(REPO_ROOT, "docs/diagnostics.md"), "utf8")).toBe(renderCodesDoc(CODE_SECTIONS));
  });
});

// The Node-free-core rule moved to test/architecture/imports.test.ts with the other import rules.
