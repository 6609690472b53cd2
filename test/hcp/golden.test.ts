/**
 * Runs every pack under fixtures/hcp through checkHcp (with the real Node file system) and compares
 * the result with golden/hcp/<name>.json. Set UPDATE_GOLDEN=1 to rewrite the golden files after
 * reviewing a deliberate change; CI never sets it.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { NodeFs } from "../../src/fs/node-fs.js";
import { checkHcp, HCP_CODES } from "../../src/hcp/index.js";
import type { CheckResult } from "../../src/diagnostics/result.js";
import { UPDATE_GOLDEN } from "../support/update-golden.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const fixtures = join(repo, "fixtures/hcp");
const golden = join(repo, "golden/hcp");
const update = UPDATE_GOLDEN;

/** The reviewed, machine-independent view of a result. */
function goldenView(result: CheckResult, absPack: string, shownPack: string): unknown {
  const rel = (s: string) => s.split(absPack).join(shownPack);
  return {
    valid: result.valid,
    identity: result.identity,
    extra: result.extra,
    diagnostics: result.diagnostics.map((d) => ({
      code: d.code,
      severity: d.severity,
      file: d.file === undefined ? undefined : rel(d.file),
      pointer: d.pointer,
      at:
        d.span === undefined
          ? undefined
          : `${d.span.start.line}:${d.span.start.column}-${d.span.end.line}:${d.span.end.column}`,
      message: rel(d.message),
      hint: d.hint === undefined ? undefined : rel(d.hint),
    })),
  };
}

const names = readdirSync(fixtures).sort();

describe("hcp fixtures match golden outputs", () => {
  it("has fixtures", () => {
    expect(names.length).toBeGreaterThan(10);
  });

  for (const name of names) {
    it(name, async () => {
      const abs = join(fixtures, name);
      const result = await checkHcp(new NodeFs(), abs);
      const view = JSON.parse(JSON.stringify(goldenView(result, abs, `fixtures/hcp/${name}`)));
      const file = join(golden, `${name}.json`);
      if (update) writeFileSync(file, `${JSON.stringify(view, null, 2)}\n`);
      expect(existsSync(file), `missing golden ${file}; run with UPDATE_GOLDEN=1 and review it`).toBe(true);
      expect(view).toEqual(JSON.parse(readFileSync(file, "utf8")));
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
    ]);
    const missing = HCP_CODES.map((r) => r.code).filter((c) => !seen.has(c) && !builtAtTestTime.has(c));
    expect(missing).toEqual([]);
  });
});
