import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NodeFs } from "../../src/fs/node-fs.js";
import { HARP_CODES, checkHarp, detectHarp } from "../../src/harp/index.js";
import { expectGolden, FIXTURES } from "./helpers.js";

const fs = new NodeFs();
const known = new Set<string>(HARP_CODES.map((c) => c.code));

describe("HARP fixtures against golden results", () => {
  for (const name of readdirSync(FIXTURES).sort()) {
    it(name, async () => {
      const result = await checkHarp(fs, join(FIXTURES, name), { platform: "linux-x64" });
      expect(result.kind).toBe("harp");
      expect(result.valid).toBe(name.startsWith("valid-"));
      for (const d of result.diagnostics) expect(known.has(d.code), d.code).toBe(true);
      if (result.valid) expect(result.identity).toMatch(/^sha256:[0-9a-f]{64}$/);
      else expect(result.identity).toBeNull();
      expectGolden(name, {
        valid: result.valid,
        identity: result.identity,
        extra: result.extra ?? {},
        diagnostics: result.diagnostics.map((d) => ({
          code: d.code,
          severity: d.severity,
          pointer: d.pointer ?? null,
          at: d.span ? `${d.span.start.line}:${d.span.start.column}` : null,
          message: d.message,
          hint: d.hint ?? null,
        })),
      });
    });
  }

  it("detects HARP packages but not Harp static-site configs", async () => {
    expect(await detectHarp(fs, join(FIXTURES, "valid-minimal"))).toBe(true);
    expect(await detectHarp(fs, join(FIXTURES, "invalid-schema-version-2"))).toBe(true);
    expect(await detectHarp(fs, join(FIXTURES, "invalid-static-site"))).toBe(false);
    expect(await detectHarp(fs, join(FIXTURES, "invalid-no-manifest"))).toBe(false);
    expect(await detectHarp(fs, join(FIXTURES, "valid-minimal", "harp.json"))).toBe(false);
  });
});
