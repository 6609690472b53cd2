/**
 * `yaoc attest` through the built CLI (issue 20, seed 002 §5.3): verdict_hash is a function of the
 * commit's evidence alone. Two runs into one --out directory (the second finds a last-green record
 * an earlier run left there), and one run into another directory from another working directory,
 * give one verdict_hash; what an earlier run left is reported as history,
 * outside the hash.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BIN } from "../support/cli.js";
import { REPO_ROOT } from "../support/repo.js";

const tmp = mkdtempSync(join(tmpdir(), "yaoc-attest-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Attested {
  readonly status: number | null;
  readonly lines: Record<string, unknown>[];
  readonly md: string;
}

function attest(out: string, cwd: string): Attested {
  const r = spawnSync(process.execPath, [BIN, "attest", "--root", REPO_ROOT, "--out", out], {
    cwd,
    encoding: "utf8",
    timeout: 300_000,
  });
  expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  const lines = readFileSync(join(out, "attestation.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { status: r.status, lines, md: readFileSync(join(out, "attestation.md"), "utf8") };
}

describe.skipIf(!existsSync(BIN))("yaoc attest (built CLI; skipped unbuilt)", () => {
  it("gives one verdict_hash for two runs into one --out, and for another --out from another directory", () => {
    const same = join(tmp, "same");
    const first = attest(same, REPO_ROOT);
    // Whatever the first run kept, the next runs find a last-green record (planted if the tree is not green).
    const planted = { commit: "0123456789abcdef0123456789abcdef01234567", verdict_hash: "feedfacefeedface" };
    if (!existsSync(join(same, "last-green.json")))
      writeFileSync(join(same, "last-green.json"), `${JSON.stringify(planted)}\n`);
    const recorded = JSON.parse(readFileSync(join(same, "last-green.json"), "utf8")) as { commit: string };
    // (Each run recomputes every golden value in fresh processes, ~10 s: a third run into the same
    // directory would meet the same situation as the second.)
    const second = attest(same, REPO_ROOT);
    const elsewhere = attest(join(tmp, "elsewhere", "reports"), tmp);
    const runs = [first, second, elsewhere];
    const verdicts = runs.map((r) => r.lines.at(-1)!);
    expect(
      new Set(verdicts.map((v) => v["verdict_hash"])).size,
      JSON.stringify(verdicts.map((v) => v["verdict_hash"])),
    ).toBe(1);
    for (const r of runs) {
      expect(r.lines.map((l) => l["check"])).toEqual([
        "D1",
        "D2",
        "D3",
        "D4",
        "D5",
        "D6",
        "D7",
        "D8",
        "D9",
        "D10",
        "verdict",
      ]);
      const v = r.lines.at(-1)!;
      expect(v["exit_code"]).toBe(r.status);
      expect(v["verdict"]).not.toBe("red");
      expect(v["grade"]).toBe("full");
      expect((v["physical_difference"] as string[]).length).toBeGreaterThan(0);
      expect(r.md).toContain(`verdict_hash: \`${String(v["verdict_hash"])}\``);
    }
    // History is reported, outside the hash.
    expect(first.lines.at(-1)!["history"]).toEqual({ last_green: null });
    expect((second.lines.at(-1)!["history"] as { last_green: { commit: string } }).last_green.commit).toBe(
      recorded.commit,
    );
    expect(second.md).toContain(
      `history (not hashed): last green attestation in this report directory: commit ${recorded.commit.slice(0, 12)}`,
    );
    expect(elsewhere.md).toContain("history (not hashed): no earlier green attestation");
    // D6 names the range it checked from the rule's start, never from a previous run.
    const d6 = second.lines.find((l) => l["check"] === "D6")!;
    expect(String(d6["evidence"])).toContain(
      `${readFileSync(join(REPO_ROOT, "golden/EVIDENCE_RULE_SINCE"), "utf8").trim()}..HEAD`,
    );
  }, 600_000);
});
