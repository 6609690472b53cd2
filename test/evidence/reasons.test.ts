/**
 * Reason codes (seed 002 §4, D7): every code any frontend emits has a row, hence `{action, layer,
 * reason}`. The scan finds every code-shaped string literal in src/ and grammar/ (multi-segment
 * codes such as `hcp.identity.id_length` included) and requires a row in ALL_CODES.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ALL_CODES } from "../../src/codes/registry.js";
import { EVIDENCE_CODES } from "../../src/codes/evidence.js";
import { ACTIONS, LAYERS, REASON_PATTERN, REASON_TABLE, reasonFor, reasonOrMissing } from "../../src/codes/reasons.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const CODE_LITERAL =
  /["'`]((?:yao|hns|harp|a3s|hcp|catalog|okf|evidence|cli)\.[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*)["'`]/g;
/** Code-shaped literals that are not diagnostic codes, with the reason. */
const NOT_CODES: Readonly<Record<string, string>> = {
  "harp.json": "the HARP manifest file name",
  "evidence.commit": "a Yao host tool name",
};

function files(dir: string): string[] {
  try {
    return readdirSync(dir).flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
    });
  } catch {
    return [];
  }
}

const rows = new Map(ALL_CODES.map((r) => [r.code, r]));
const literals: { code: string; file: string; area: string }[] = [];
for (const file of [...files(join(repo, "src")), ...files(join(repo, "grammar"))]) {
  const rel = relative(repo, file).split("\\").join("/");
  for (const m of readFileSync(file, "utf8").matchAll(CODE_LITERAL)) {
    const code = m[1]!;
    // `"evidence.hon_"`-style prefixes (codes never end in "_") and the listed non-codes are skipped.
    if (code in NOT_CODES || code.endsWith("_")) continue;
    literals.push({ code, file: rel, area: code.split(".")[0]! });
  }
}
const areas = [...new Set(literals.map((l) => l.area))].sort();

describe("reason-code completeness (§4, D7)", () => {
  it("finds code literals in src/", () => {
    expect(literals.length).toBeGreaterThan(50);
  });

  for (const area of areas) {
    it(`every ${area}.* code used in src/ has a row`, () => {
      const missing = [
        ...new Set(literals.filter((l) => l.area === area && !rows.has(l.code)).map((l) => `${l.code} (${l.file})`)),
      ];
      expect(missing).toEqual([]);
    });
  }

  it("src/evidence codes are all in EVIDENCE_CODES", () => {
    const ours = literals
      .filter((l) => l.file.startsWith("src/evidence/") || l.file === "src/cli/evidence.ts")
      .map((l) => l.code);
    const table = new Set<string>(EVIDENCE_CODES.map((r) => r.code));
    expect(ours.filter((c) => c.startsWith("evidence.") && !table.has(c))).toEqual([]);
  });
});

describe("reasonFor", () => {
  it("reads the registry's rows, in its order, though it imports the tables itself", () => {
    expect(ALL_CODES.length).toBeGreaterThan(200);
    expect([...REASON_TABLE.values()]).toEqual(ALL_CODES);
  });

  it("maps every row to a valid {action, layer, reason}", () => {
    expect(REASON_TABLE.size).toBeGreaterThanOrEqual(ALL_CODES.length);
    for (const [code, row] of REASON_TABLE) {
      const r = reasonFor(code)!;
      expect(ACTIONS).toContain(r.action);
      expect(LAYERS).toContain(r.layer);
      expect(r.reason, code).toMatch(REASON_PATTERN);
      expect(r.action).toBe(row.severity === "error" ? "block" : row.severity === "warning" ? "advise" : "allow");
    }
  });

  it("is a pure function of the code (same input → same reason)", () => {
    for (const code of [...REASON_TABLE.keys()].slice(0, 50)) expect(reasonFor(code)).toEqual(reasonFor(code));
  });

  it("knows this layer's codes and the frontends' codes", () => {
    expect(reasonFor("evidence.hon_measured_no_source")).toEqual({
      action: "advise",
      layer: "L7",
      reason: "hon_measured_no_source",
    });
    expect(reasonFor("cli.not_found")?.reason).toBe("struct_path_not_found");
    expect(reasonFor("yao.unclosed_list")?.action).toBe("block");
  });

  it("explains a code without a row instead of leaving the reason empty", () => {
    expect(reasonFor("nope.none")).toBeUndefined();
    expect(reasonOrMissing("nope.none", "warning")).toEqual({
      action: "advise",
      layer: "L6",
      reason: "meta_no_reason_row",
      missing: true,
    });
  });

  it("evidence rows are well-formed", () => {
    expect(new Set(EVIDENCE_CODES.map((r) => r.code)).size).toBe(EVIDENCE_CODES.length);
    for (const r of EVIDENCE_CODES) {
      expect(r.code).toMatch(/^evidence\.[a-z_]+$/);
      expect(r.reason).toMatch(REASON_PATTERN);
    }
    expect(
      EVIDENCE_CODES.filter((r) => r.code.startsWith("evidence.hon_")).every((r) => r.reason.startsWith("hon_")),
    ).toBe(true);
  });
});
