/**
 * The [golden] title rule (`yaoc golden verify --git`) over a real git history: an ordinary commit
 * that changes golden/ needs the marker; a merge needs it only when it brings golden content of
 * its own (a file under golden/ matching none of its parents), not when it joins two sides whose
 * golden commits were each marked. CI failed on four such joining merges before the rule knew this.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { gitGoldenCheck } from "../../src/cli/evidence.js";

let repo: string;
const git = (...args: string[]): string =>
  execFileSync(
    "git",
    ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", ...args],
    { encoding: "utf8" },
  );
function commit(file: string, text: string, title: string): string {
  mkdirSync(join(repo, file, ".."), { recursive: true });
  writeFileSync(join(repo, file), text);
  git("add", "-A");
  git("commit", "-q", "-m", title);
  return git("rev-parse", "HEAD").trim();
}
const flagged = (): string[] => gitGoldenCheck(repo, undefined).findings.map((d) => d.message);

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), "yaoc-golden-git-"));
  git("init", "-q", "-b", "main");
  commit("golden/a.json", "a1\n", "[golden] first record");
  commit("golden/b.json", "b1\n", "[golden] second record");
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

describe("golden verify --git", () => {
  it("flags an ordinary commit that changes golden/ without [golden]", () => {
    commit("golden/a.json", "a2\n", "tweak a");
    commit("src.txt", "x\n", "unrelated change");
    const found = flagged();
    expect(found).toHaveLength(1);
    expect(found[0]).toContain('"tweak a" changes golden/ without [golden]');
  });

  it("passes a merge that only joins two sides' marked golden changes", () => {
    git("checkout", "-q", "-b", "side");
    commit("golden/a.json", "a2\n", "[golden] side changes a");
    git("checkout", "-q", "main");
    commit("golden/b.json", "b2\n", "[golden] main changes b");
    git("merge", "-q", "--no-edit", "-m", "Merge side", "side");
    expect(gitGoldenCheck(repo, undefined).commitsTouchingGolden).toBe(4);
    expect(flagged()).toEqual([]);
  });

  it("flags a merge whose conflict resolution writes golden content neither side had", () => {
    git("checkout", "-q", "-b", "side");
    commit("golden/a.json", "side\n", "[golden] side changes a");
    git("checkout", "-q", "main");
    commit("golden/a.json", "main\n", "[golden] main changes a");
    try {
      git("merge", "-q", "side");
    } catch {
      // the expected conflict: resolve it with a third text
    }
    writeFileSync(join(repo, "golden/a.json"), "resolved\n");
    git("add", "-A");
    git("commit", "-q", "-m", "Merge side");
    const found = flagged();
    expect(found).toHaveLength(1);
    expect(found[0]).toContain('"Merge side" changes golden/ without [golden]');
  });

  it("reports uncommitted golden changes", () => {
    writeFileSync(join(repo, "golden/b.json"), "dirty\n");
    expect(gitGoldenCheck(repo, undefined).findings.map((d) => d.code)).toEqual(["evidence.golden_uncommitted"]);
  });
});
