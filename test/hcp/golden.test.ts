/**
 * Runs every pack under fixtures/hcp through checkHcp (with the real Node file system) and compares
 * the result with golden/hcp/<name>.json. Set UPDATE_GOLDEN=1 to rewrite the golden files after
 * reviewing a deliberate change; CI never sets it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { goldenEntries, hcpGoldenRecord } from "../../src/cli/golden/suites.js";
import { HCP_CODES } from "../../src/hcp/index.js";
import { expectGoldenFile } from "../support/golden-file.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const fixtures = join(repo, "fixtures/hcp");
const golden = join(repo, "golden/hcp");

const names = goldenEntries(fixtures);

describe("hcp fixtures match golden outputs", () => {
  it("has fixtures", () => {
    expect(names.length).toBeGreaterThan(10);
  });

  for (const name of names) {
    it(name, async () => {
      const { file, text } = await hcpGoldenRecord(repo, name);
      expectGoldenFile(join(golden, file), text);
    });
  }

  it("every golden file has a fixture", () => {
    const stale = readdirSync(golden).filter((f) => !names.includes(f.replace(/\.json$/, "")));
    expect(stale).toEqual([]);
  });

  it("the valid-* fixtures pass", () => {
    for (const name of names) {
      const view = JSON.parse(readFileSync(join(golden, `${name}.json`), "utf8")) as { valid: boolean };
      if (name.startsWith("valid")) expect(view.valid, name).toBe(true);
    }
  });

  it("every error code of the table is exercised by some fixture or a unit test", () => {
    const seen = new Set<string>();
    for (const name of names) {
      const view = JSON.parse(readFileSync(join(golden, `${name}.json`), "utf8")) as {
        diagnostics: { code: string }[];
      };
      for (const d of view.diagnostics) seen.add(d.code);
    }
    // Built at test time (symlinks, FIFOs, size limits, I/O failures) in fs-hostile.test.ts; non-UTF-8 names in test/fs/non-utf8-names.test.ts.
    const builtAtTestTime = new Set([
      "hcp.pack.not_directory",
      "hcp.pack.not_regular_file",
      "hcp.pack.file_escapes",
      "hcp.pack.unreadable",
      "hcp.file.too_large",
      "hcp.pack.non_utf8_name",
      // More than 200 findings: test/hostile/many-findings.test.ts and check.test.ts build them.
      "hcp.diagnostic_limit",
    ]);
    const missing = HCP_CODES.map((r) => r.code).filter((c) => !seen.has(c) && !builtAtTestTime.has(c));
    expect(missing).toEqual([]);
  });
});
