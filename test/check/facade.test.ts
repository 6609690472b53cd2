/**
 * The library facade admits exactly what `yaoc check` admits: for every golden case (every kind,
 * valid and invalid) the library's `check` and one spawned `yaoc check --format json` agree on the
 * verdict, the diagnostic codes, the identity, `program_hash` and the receipt's ReproHash.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { discoverCases } from "../../src/cli/evidence.js";
import { check, checkSource, loadPackage, MemoryFs, toReceipt } from "../../src/index.js";
import { NodeFs } from "../../src/node.js";
import { REPO_ROOT } from "../support/shared.js";

const BIN = `${REPO_ROOT}bin/yaoc.js`;

interface CliResult {
  path: string;
  valid: boolean;
  identity: string | null;
  program_hash?: string | null;
  repro_hash: string;
  diagnostics: { code: string; line: number | null }[];
}

describe("check (library) and yaoc check (CLI)", () => {
  const cases = discoverCases(REPO_ROOT);

  it("agree on every golden case: verdict, codes, identity, program_hash, repro_hash", async () => {
    expect(cases.length).toBeGreaterThan(200);
    const kinds = new Set<string>();
    const r = spawnSync(process.execPath, [BIN, "check", "--format", "json", ...cases], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      maxBuffer: 64 << 20,
    });
    expect([0, 1]).toContain(r.status);
    const cli = (JSON.parse(r.stdout) as { results: CliResult[] }).results;
    expect(cli.map((c) => c.path)).toEqual(cases);
    const fs = new NodeFs();
    let valid = 0;
    for (const [i, path] of cases.entries()) {
      const lib = await check(fs, path);
      kinds.add(lib.kind);
      const fromCli = cli[i]!;
      const receipt = toReceipt(lib, { analyze: true });
      const result = receipt["result"] as Record<string, unknown>;
      expect({
        path,
        valid: lib.valid,
        identity: lib.identity,
        program_hash: result["program_hash"],
        codes: lib.diagnostics.map((d) => d.code),
      }).toEqual({
        path,
        valid: fromCli.valid,
        identity: fromCli.identity,
        program_hash: fromCli.program_hash,
        codes: fromCli.diagnostics.map((d) => d.code),
      });
      expect(receipt.repro_hash, path).toBe(fromCli.repro_hash);
      if (lib.valid) valid++;
    }
    expect([...kinds].sort()).toEqual(["a3s", "harp", "hcp", "hns", "unknown"]);
    expect(valid).toBeGreaterThan(10);
    expect(valid).toBeLessThan(cases.length);
  }, 300_000);
});

describe("the README's library example", () => {
  const illTyped = [
    '(manifest (id demo) (version "1") (title "Demo"))',
    '(contract (purpose "Show a type error"))',
    '(fn answer (params) (returns Int) (body "forty-two"))',
    "(eval (requires (tools)) (answer))",
  ].join("\n");
  const wellTyped = illTyped.replace('"forty-two"', "42");

  it("loadPackage is only the structural step: it accepts an ill-typed package", async () => {
    const loaded = await loadPackage(MemoryFs.from({ "/demo.hns": illTyped }), "/demo.hns");
    expect(loaded.ok).toBe(true);
  });

  it("check rejects the ill-typed package with the analyzer's diagnostic and admits the well-typed one", async () => {
    const bad = await check(MemoryFs.from({ "/demo.hns": illTyped }), "/demo.hns");
    expect(bad.valid).toBe(false);
    expect(bad.identity).toBeNull();
    expect(bad.diagnostics.map((d) => [d.code, d.span?.start.line])).toEqual([["yao.type_mismatch", 3]]);
    const good = await checkSource("demo.hns", wellTyped);
    expect(good.valid).toBe(true);
    expect(good.identity).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(good.extra?.["program_hash"]).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("checkSource names the file as given and agrees with the CLI on the same text", async () => {
    const text = wellTyped;
    const lib = await checkSource("demo.hns", text);
    expect(lib.path).toBe("demo.hns");
    const fs = MemoryFs.from({ "/d/demo.hns": text });
    expect((await check(fs, "/d/demo.hns")).identity).toBe(lib.identity);
  });

  it("strict mode turns warnings into errors, as yaoc check --strict", async () => {
    const warned = wellTyped.replace('(title "Demo")', '(title "Demo") (colour "blue")');
    const plain = await checkSource("demo.hns", warned);
    expect(plain.valid).toBe(true);
    expect(plain.diagnostics.some((d) => d.severity === "warning")).toBe(true);
    const strict = await checkSource("demo.hns", warned, { strict: true });
    expect(strict.valid).toBe(false);
    expect(strict.diagnostics.every((d) => d.severity === "error")).toBe(true);
  });
});

describe("check options: one way in for every caller", () => {
  const hns = [
    '(manifest (id demo) (version "1") (title "Demo") (capabilities (tools read)))',
    '(contract (purpose "options"))',
    "(fn answer (params) (returns Int) (body 42))",
    '(eval (requires (tools read)) (call read (path "a")))',
  ].join("\n");

  it("keeps the loaded package and the typed IR only when asked (keepAnalysis)", async () => {
    const plain = await checkSource("demo.hns", hns);
    expect(plain.valid).toBe(true);
    expect("package" in plain || "analysis" in plain).toBe(false);
    const kept = await checkSource("demo.hns", hns, { keepAnalysis: true });
    expect(kept.identity).toBe(plain.identity);
    expect(kept.package?.functions.map((f) => f.name)).toEqual(["answer"]);
    expect(kept.analysis?.programHash).toBe(plain.extra?.["program_hash"]);
    // Without the analysis there is no typed IR to keep and no program hash.
    const structural = await checkSource("demo.hns", hns, { keepAnalysis: true, analyze: false });
    expect(structural.analysis).toBeUndefined();
    expect(structural.extra?.["program_hash"]).toBeNull();
  });

  it("toolSchemas reach the analysis: a call whose input breaks the tool's schema is an error", async () => {
    const schema = { type: "object", properties: { path: { type: "integer" } }, required: ["path"] };
    const free = await checkSource("demo.hns", hns);
    const typed = await checkSource("demo.hns", hns, { toolSchemas: { read: schema } });
    expect(free.valid).toBe(true);
    expect(typed.valid).toBe(false);
    expect(typed.diagnostics.map((d) => d.code)).toContain("yao.type_mismatch");
  });

  it("kind skips detection: the frontend itself says what is missing, where detection finds no marker", async () => {
    const fs = MemoryFs.from({ "/app/readme.txt": "not a package" });
    const detected = await check(fs, "/app");
    expect(detected.diagnostics.map((d) => d.code)).toEqual(["check.no_marker"]);
    for (const kind of ["harp", "hcp", "a3s", "hns"] as const) {
      const r = await check(fs, "/app", { kind });
      expect(r.kind === kind || r.kind === "unknown", kind).toBe(true);
      expect(r.valid).toBe(false);
      expect(r.diagnostics[0]!.code.startsWith(`${kind}.`), `${kind}: ${r.diagnostics[0]!.code}`).toBe(true);
    }
  });
});
