import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NodeFs } from "../../src/fs/node-fs.js";
import { goldenEntries, harpGoldenRecord } from "../../src/cli/golden/suites.js";
import { HARP_CODES, detectHarp } from "../../src/harp/index.js";
import { expectGoldenFile } from "../support/golden-file.js";
import { FIXTURES, GOLDEN, REPO } from "./helpers.js";

const fs = new NodeFs();
const known = new Set<string>(HARP_CODES.map((c) => c.code));

/** The fixture corpus; an empty or missing folder must fail, not pass with no tests. */
const NAMES = goldenEntries(FIXTURES);

describe("HARP fixtures against golden results", () => {
  it("the corpus has one fixture per golden record, valid and invalid ones", () => {
    expect(NAMES.length).toBeGreaterThan(20);
    expect(NAMES).toEqual(
      readdirSync(GOLDEN)
        .map((f) => f.replace(/\.json$/, ""))
        .sort(),
    );
    expect(NAMES.some((n) => n.startsWith("valid-"))).toBe(true);
    expect(NAMES.some((n) => n.startsWith("invalid-"))).toBe(true);
  });

  for (const name of NAMES) {
    it(name, async () => {
      const { file, text, result } = await harpGoldenRecord(REPO, name);
      expect(result.kind).toBe("harp");
      expect(result.valid).toBe(name.startsWith("valid-"));
      for (const d of result.diagnostics) expect(known.has(d.code), d.code).toBe(true);
      if (result.valid) expect(result.identity).toMatch(/^sha256:[0-9a-f]{64}$/);
      else expect(result.identity).toBeNull();
      expectGoldenFile(join(GOLDEN, file), text);
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
