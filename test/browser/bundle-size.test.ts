/**
 * `npm run build:browser`'s budget, asserted in `npm test` (the build script alone only fails when
 * someone runs it): the browser entry and its static imports stay within BROWSER_BUNDLE_LIMIT, and
 * the JSON Schema validator (ajv, ~145 KiB), the evaluator that tool contract verification needs
 * only when tool schemas are given, and the code table's summaries and clauses stay out of that
 * initial load, while the entry still gives every code its reason. Needs no browser: esbuild only
 * (the built entry is imported into Node, as test/hostile/surfaces/lsp.test.ts does).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BROWSER_BUNDLE_LIMIT, buildBrowserBundle } from "../../scripts/build-browser.mjs";
import * as yaoc from "../../src/index.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";

type Built = Awaited<ReturnType<typeof buildBrowserBundle>>;
type Bundle = typeof import("../../src/browser.js");

describe("the browser bundle", () => {
  let out = "";
  let r: Built;
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), "yaoc-bundle-size-"));
    r = await buildBrowserBundle({ outdir: out });
  }, 120_000);
  afterAll(() => {
    if (out !== "") rmSync(out, { recursive: true, force: true });
  });

  it("loads at most its budget initially, with ajv, the evaluator and the other frontends' code tables in lazy chunks", () => {
    expect(existsSync(join(out, "yaoc.min.js"))).toBe(true);
    expect(r.limit).toBe(BROWSER_BUNDLE_LIMIT);
    expect(BROWSER_BUNDLE_LIMIT).toBe(400 * 1024);
    // The measurement sees the core: the reader's parser library is in the initial load.
    expect(r.initialGroups).toContain("chevrotain");
    expect(r.initialGroups).toContain("src/yao");
    for (const lazy of ["ajv", "ajv-formats", "fast-uri", "yaml", "markdown-it", "src/harp", "src/hcp", "src/a3s"])
      expect(r.initialGroups, `${lazy} must stay out of the initial load`).not.toContain(lazy);
    expect(r.lazyTop.map((t) => t.name)).toContain("ajv");
    expect(r.bytes, `initial load ${(r.bytes / 1024).toFixed(1)} KiB`).toBeLessThanOrEqual(BROWSER_BUNDLE_LIMIT);
    expect(r.totalBytes).toBeGreaterThan(r.bytes);
  });

  it("gives every code the reason yaoc gives, from the reduced rows, without loading the code table", async () => {
    const bundle = (await import(/* @vite-ignore */ pathToFileURL(join(out, "yaoc.min.js")).href)) as Bundle;
    expect(yaoc.ALL_CODES.length).toBeGreaterThan(200);
    const diagnostics: Diagnostic[] = yaoc.ALL_CODES.map((row) => ({
      code: row.code,
      severity: row.downgradedTo ?? row.severity,
      message: row.summary,
    }));
    const result = { path: "p", kind: "unknown" as const, valid: false, identity: null, diagnostics };
    const inBrowser = JSON.parse(bundle.renderJson([result])).results[0].diagnostics;
    expect(inBrowser).toEqual(JSON.parse(yaoc.renderJson([result])).results[0].diagnostics);
    expect(inBrowser.map((d: { code: string; layer: string; reason: string }) => [d.code, d.layer, d.reason])).toEqual(
      yaoc.ALL_CODES.map((row) => [row.code, row.layer, row.reason]),
    );
  });

  it("exports what yaoc exports, with the code table behind codeTable()", async () => {
    const bundle = (await import(/* @vite-ignore */ pathToFileURL(join(out, "yaoc.min.js")).href)) as Bundle;
    const expected = Object.keys(yaoc)
      .filter((k) => k !== "ALL_CODES" && k !== "codeInfo")
      .concat("codeTable")
      .sort();
    expect(expected.length).toBeGreaterThan(10);
    expect(Object.keys(bundle).sort()).toEqual(expected);
    const table = await bundle.codeTable();
    expect(table.ALL_CODES).toEqual(yaoc.ALL_CODES);
    expect(table.codeInfo("harp.manifest_missing")).toEqual(yaoc.codeInfo("harp.manifest_missing"));
  });
});
