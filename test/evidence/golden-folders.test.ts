/**
 * Issue 20: one verifier for every golden value. `yaoc golden verify` recomputes every folder of
 * golden/ (src/cli/golden/suites.ts) and compares each record with its file; a corrupted value
 * anywhere makes verify exit 1 and attest red, naming the file (and the JSON pointer). The CLI part
 * corrupts a temporary copy of the repository, never the real tree.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compareSuite } from "../../src/cli/golden/compare.js";
import { filesUnder, GOLDEN_ROOT_FILES, GOLDEN_SUITES, renderGoldenIndex } from "../../src/cli/golden/suites.js";
import { BIN } from "../support/cli.js";
import { REPO_ROOT } from "../support/repo.js";

const tmp = mkdtempSync(join(tmpdir(), "yaoc-golden-folders-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("compareSuite", () => {
  const root = join(tmp, "unit");
  const put = (rel: string, text: string) => {
    mkdirSync(join(root, rel, ".."), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  put("golden/x/same.json", '{"a":1}\n');
  put("golden/x/changed.json", '{\n  "a": {"b": [1, 2]},\n  "c": "x"\n}\n');
  put("golden/x/broken.json", '{"a": 1,');
  put("golden/x/pretty.json", '{ "a": 1 }\n');
  put("golden/x/text.formatted", "one\ntwo\nthree\n");
  put("golden/x/sub/orphan.json", "{}");
  const records = new Map([
    ["same.json", '{"a":1}\n'],
    ["changed.json", '{"a":{"b":[1,3]},"c":"x"}'],
    ["broken.json", '{"a":1}'],
    ["pretty.json", '{"a":1}\n'],
    ["text.formatted", "one\nTWO\nthree\n"],
    ["absent.json", "{}"],
  ]);
  const c = compareSuite(root, "golden/x", records);
  const by = (file: string) => c.findings.filter((d) => d.file === `golden/x/${file}`);

  it("counts the records that match and reports every other one by file", () => {
    expect([c.records, c.matched]).toEqual([6, 1]);
    expect(by("changed.json").map((d) => [d.code, d.pointer])).toEqual([["evidence.golden_mismatch", "/a/b/1"]]);
    expect(by("changed.json")[0]!.message).toContain("at /a/b/1");
    expect(by("broken.json").map((d) => d.code)).toEqual(["evidence.golden_unreadable"]);
    expect(by("broken.json")[0]!.message).toMatch(/is not JSON at 1:\d+/);
    expect(by("pretty.json")[0]!.message).toContain("formatting only");
    expect(by("text.formatted")[0]!.message).toContain("from line 2");
    expect(by("absent.json").map((d) => d.code)).toEqual(["evidence.golden_missing"]);
    expect(by("sub/orphan.json").map((d) => d.code)).toEqual(["evidence.golden_stale"]);
  });
});

describe("golden/README.md", () => {
  it("lists every folder under golden/ with the command that verifies it (generated from the suites)", () => {
    const text = readFileSync(join(REPO_ROOT, "golden/README.md"), "utf8");
    const m = /<!-- BEGIN golden-folders[^\n]*-->\n([\s\S]*?)\n<!-- END golden-folders -->/.exec(text);
    expect(m?.[1]).toBe(renderGoldenIndex());
    // Every file under golden/ belongs to a listed folder or is one of the two non-record files.
    const folders = ["golden/evidence", ...GOLDEN_SUITES.map((s) => s.folder)];
    const unclaimed = filesUnder(join(REPO_ROOT, "golden")).filter(
      (f) => !GOLDEN_ROOT_FILES.includes(f) && !folders.some((d) => `golden/${f}`.startsWith(`${d}/`)),
    );
    expect(unclaimed).toEqual([]);
  });
});

describe.skipIf(!existsSync(BIN))("a corrupted golden value anywhere (repository copy; skipped unbuilt)", () => {
  it("makes golden verify exit 1 naming each file, and attest red", () => {
    const copy = join(tmp, "repo");
    for (const d of ["examples", "fixtures", "golden"]) cpSync(join(REPO_ROOT, d), join(copy, d), { recursive: true });
    const edit = (rel: string, f: (s: string) => string) => {
      const before = readFileSync(join(copy, rel), "utf8");
      const after = f(before);
      expect(after, rel).not.toBe(before);
      writeFileSync(join(copy, rel), after);
    };
    // The reproduction: one value in a yao IR record.
    edit("golden/yao/record-box.program.json", (s) => s.replace('"owner":"runtime"', '"owner":"model"'));
    edit("golden/a3s/packages/valid-okf.json", (s) => s.replace(/"fileCount": \d+/, '"fileCount": 999'));
    edit("golden/fmt/examples/review.hns.formatted", (s) => `${s}; tampered\n`);
    writeFileSync(join(copy, "golden/hcp/valid.json"), "{ not json");
    rmSync(join(copy, "golden/harp/valid-minimal.json"));
    writeFileSync(join(copy, "golden/hns/notes.txt"), "stray\n");
    writeFileSync(join(copy, "golden/stray.json"), "{}\n");

    const verify = spawnSync(process.execPath, [BIN, "golden", "verify", "--root", copy, "--format", "json"], {
      encoding: "utf8",
      timeout: 300_000,
    });
    expect(verify.status, verify.stderr).toBe(1);
    const doc = JSON.parse(verify.stdout) as {
      ok: boolean;
      matched: number;
      cases: number;
      diagnostics: { code: string; file?: string; pointer?: string }[];
    };
    expect(doc.ok).toBe(false);
    expect(doc.matched).toBe(doc.cases); // golden/evidence untouched: only the corrupted files are reported
    const found = doc.diagnostics.map((d) => [d.code, d.file, d.pointer ?? null]).sort();
    expect(found).toEqual(
      [
        ["evidence.golden_mismatch", "golden/a3s/packages/valid-okf.json", "/extra/fileCount"],
        ["evidence.golden_mismatch", "golden/fmt/examples/review.hns.formatted", null],
        ["evidence.golden_mismatch", "golden/yao/record-box.program.json", "/owner"],
        ["evidence.golden_missing", "golden/harp/valid-minimal.json", null],
        ["evidence.golden_stale", "golden/hns/notes.txt", null],
        ["evidence.golden_stale", "golden/stray.json", null],
        ["evidence.golden_unreadable", "golden/hcp/valid.json", null],
      ].sort(),
    );

    const out = join(tmp, "reports");
    const attest = spawnSync(process.execPath, [BIN, "attest", "--root", copy, "--no-git", "--out", out], {
      encoding: "utf8",
      timeout: 300_000,
    });
    expect(attest.status, attest.stderr).toBe(1);
    const d6 = readFileSync(join(out, "attestation.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l["check"] === "D6")!;
    expect(d6["status"]).toBe("fail");
    expect(JSON.stringify(d6["findings"])).toContain("golden/yao/record-box.program.json");
  }, 600_000);
});
