/**
 * Issue 20: a receipt's hashed fields name the package by its own name (the last segment of its
 * resolved path), so `x`, `./x`, `../here/x`, `x/` and the absolute path give one ReproHash. The
 * path as typed stays visible (`check --format json`'s `path`, the receipt's physical
 * `typed_path`) but outside the hash.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lexicalNormal, toReceipt } from "../../src/evidence/receipt.js";
import { canonicalize } from "../../src/evidence/canonicalize.js";
import { RECEIPT_TABLE } from "../../src/evidence/classification.js";
import type { CheckResult } from "../../src/diagnostics/result.js";
import { BIN, yaoc } from "../support/cli.js";
import { REPO_ROOT } from "../support/repo.js";

/** A result as a frontend spells it when the package was typed as `typed`. */
function resultAt(typed: string, spelled = typed): CheckResult {
  return {
    path: typed,
    kind: "hcp",
    valid: false,
    identity: null,
    diagnostics: [
      {
        code: "hcp.pack.missing_file",
        severity: "error",
        message: `Pack ${spelled} has no HARNESS.md at its root.`,
        file: `${spelled}/HARNESS.md`,
      },
    ],
  } as CheckResult;
}

describe("receipts do not depend on how the package path was typed", () => {
  it("names the package by its last segment in every hashed field and keeps the typed path physical", () => {
    const spellings: [string, string][] = [
      ["packs/ticket", "packs/ticket"],
      ["./packs/ticket", "packs/ticket"], // frontends that normalise the path they print
      ["./packs/ticket", "./packs/ticket"],
      ["packs/ticket/", "packs/ticket"],
      ["/home/u/w/packs/ticket", "/home/u/w/packs/ticket"],
    ];
    const receipts = spellings.map(([typed, spelled]) => toReceipt(resultAt(typed, spelled), { analyze: true }));
    expect(new Set(receipts.map((r) => r.repro_hash)).size).toBe(1);
    const core = canonicalize(receipts[4]!, RECEIPT_TABLE).core as {
      result: { path: string; diagnostics: { file: string; message: string }[] };
    };
    expect(core.result.path).toBe("ticket");
    expect(core.result.diagnostics[0]).toMatchObject({
      file: "ticket/HARNESS.md",
      message: "Pack ticket has no HARNESS.md at its root.",
    });
    expect(receipts.map((r) => r["typed_path"])).toEqual(spellings.map(([t]) => t));
    // A different package name is a different claim.
    expect(toReceipt(resultAt("packs/other"), { analyze: true }).repro_hash).not.toBe(receipts[0]!.repro_hash);
  });

  it("replaces the typed path only as a whole path, never inside another word or path", () => {
    const r = toReceipt(
      {
        path: "x",
        kind: "hcp",
        valid: false,
        identity: null,
        diagnostics: [
          {
            code: "hcp.pack.missing_file",
            severity: "error",
            message: "x/a is not xy or y/x or x.y; see x.",
            file: "x/a",
          },
        ],
      } as CheckResult,
      { analyze: true, packageName: "pack" },
    );
    const d = ((r["result"] as Record<string, unknown>)["diagnostics"] as { message: string; file: string }[])[0]!;
    expect(d.message).toBe("pack/a is not xy or y/x or x.y; see pack.");
    expect(d.file).toBe("pack/a");
  });

  it("lexicalNormal folds `.`, empty and `..` segments without touching the file system", () => {
    expect(lexicalNormal("./a//b/../c/")).toBe("a/c");
    expect(lexicalNormal("/x/./y/")).toBe("/x/y");
    expect(lexicalNormal("../here/x")).toBe("../here/x");
    expect(lexicalNormal("/..")).toBe("/");
    expect(lexicalNormal("./")).toBe(".");
  });
});

describe.skipIf(!existsSync(BIN) || !existsSync(join(REPO_ROOT, "dist")))(
  "yaoc check --format json from four spellings (built CLI; skipped unbuilt)",
  () => {
    const hashes = (rel: string) => {
      const runs = [
        yaoc(["check", "--format", "json", rel]),
        yaoc(["check", "--format", "json", `./${rel}`]),
        yaoc(["check", "--format", "json", `../${rel}`], { cwd: join(REPO_ROOT, "src") }),
        yaoc(["check", "--format", "json", join(REPO_ROOT, rel)], { cwd: "/" }),
      ];
      return runs
        .map((r) => JSON.parse(r.out) as { results: { path: string; repro_hash: string }[] })
        .map((d) => d.results[0]!);
    };

    it.each([
      "examples/review.hns",
      "fixtures/hns/failure/hns.wrong_root/dir-manifest.hns",
      "fixtures/hcp/missing-harness-md",
      "fixtures/a3s/packages/path-escape",
    ])("%s", (rel) => {
      const results = hashes(rel);
      expect(results.map((r) => r.path)).toEqual([rel, `./${rel}`, `../${rel}`, join(REPO_ROOT, rel)]);
      expect(new Set(results.map((r) => r.repro_hash)).size, JSON.stringify(results.map((r) => r.repro_hash))).toBe(1);
    });
  },
);
