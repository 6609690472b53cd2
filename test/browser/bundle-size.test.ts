/**
 * `npm run build:browser`'s budget, asserted in `npm test` (the build script alone only fails when
 * someone runs it): the browser entry and its static imports stay within BROWSER_BUNDLE_LIMIT, and
 * the JSON Schema validator (ajv, ~145 KiB) and the evaluator that tool contract verification needs
 * only when tool schemas are given stay out of that initial load. Needs no browser: esbuild only.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BROWSER_BUNDLE_LIMIT, buildBrowserBundle } from "../../scripts/build-browser.mjs";

describe("the browser bundle", () => {
  it("loads at most its budget initially, with ajv and the evaluator in lazy chunks", async () => {
    const out = mkdtempSync(join(tmpdir(), "yaoc-bundle-size-"));
    try {
      const r = await buildBrowserBundle({ outdir: out });
      expect(existsSync(join(out, "yaoc.min.js"))).toBe(true);
      expect(r.limit).toBe(BROWSER_BUNDLE_LIMIT);
      expect(BROWSER_BUNDLE_LIMIT).toBe(400 * 1024);
      // The measurement sees the core: the reader's parser library is in the initial load.
      expect(r.initialGroups).toContain("chevrotain");
      expect(r.initialGroups).toContain("src/yao");
      for (const lazy of ["ajv", "ajv-formats", "fast-uri", "yaml", "markdown-it"])
        expect(r.initialGroups, `${lazy} must stay out of the initial load`).not.toContain(lazy);
      expect(r.lazyTop.map((t) => t.name)).toContain("ajv");
      expect(r.bytes, `initial load ${(r.bytes / 1024).toFixed(1)} KiB`).toBeLessThanOrEqual(BROWSER_BUNDLE_LIMIT);
      expect(r.totalBytes).toBeGreaterThan(r.bytes);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
