/** `yaoc fmt` on the command line: modes, exit codes, atomic writes and the changed-meanwhile abort. */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runFmt, type FmtIo } from "../../src/cli/fmt-command.js";
import { REPO_ROOT } from "../support/shared.js";

const BIN = join(REPO_ROOT, "bin/yaoc.js");
const UGLY = '(manifest (id t)(version "1")(title "t")) ; note\n(contract (identity "t"))\n(eval 1)';
const PRETTY = '(manifest (id t) (version "1") (title "t"))\n; note\n(contract (identity "t"))\n(eval 1)\n';

function yaoc(args: string[], input?: string, cwd = REPO_ROOT): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [BIN, "fmt", ...args], {
    cwd,
    input,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

const temps: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "yaoc-fmt-"));
  temps.push(d);
  return d;
}
afterEach(() => {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("yaoc fmt", () => {
  it("formats stdin to stdout", () => {
    expect(yaoc(["-"], UGLY)).toEqual({ code: 0, out: PRETTY, err: "" });
  });

  it("prints one file's formatted text without touching it", () => {
    const d = tempDir();
    writeFileSync(join(d, "p.hns"), UGLY);
    expect(yaoc([join(d, "p.hns")])).toEqual({ code: 0, out: PRETTY, err: "" });
    expect(readFileSync(join(d, "p.hns"), "utf8")).toBe(UGLY);
  });

  it("--check lists the files that would change and exits 1; 0 when all are formatted", () => {
    const d = tempDir();
    writeFileSync(join(d, "a.hns"), UGLY);
    writeFileSync(join(d, "b.yao"), "(eval 1)\n");
    const r = yaoc(["--check", d]);
    expect(r.code).toBe(1);
    expect(r.out).toBe(`${join(d, "a.hns")}\n`);
    expect(r.err).toContain("1 file would be reformatted");
    expect(yaoc(["--check", join(d, "b.yao")])).toEqual({ code: 0, out: "", err: "" });
  });

  it("--diff prints a unified diff of each change", () => {
    const r = yaoc(["--diff", "-"], "(a\n   b)\n");
    expect(r.code).toBe(1);
    expect(r.out).toBe("<stdin>\n--- <stdin>\n+++ <stdin>\n@@ -1,2 +1,1 @@\n-(a\n-   b)\n+(a b)\n");
  });

  it("--write rewrites only changed files, keeping their mode, and formats each file of a directory package", () => {
    const d = tempDir();
    const pkg = join(d, "review-dir.hns");
    cpSync(join(REPO_ROOT, "examples/review-dir.hns"), pkg, { recursive: true });
    writeFileSync(join(pkg, "contract.yao"), '(contract  (purpose "p"))');
    chmodSync(join(pkg, "contract.yao"), 0o640);
    writeFileSync(join(pkg, "manifest.yao"), yaoc([join(pkg, "manifest.yao")]).out);
    const manifestBefore = statSync(join(pkg, "manifest.yao"));
    const r = yaoc(["--write", pkg]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(pkg, "contract.yao"), "utf8")).toBe('(contract (purpose "p"))\n');
    expect(statSync(join(pkg, "contract.yao")).mode & 0o777).toBe(0o640);
    // Already formatted: not rewritten (same inode, same mtime).
    const manifestAfter = statSync(join(pkg, "manifest.yao"));
    expect([manifestAfter.ino, manifestAfter.mtimeMs]).toEqual([manifestBefore.ino, manifestBefore.mtimeMs]);
    expect(readdirSync(pkg).filter((n) => n.includes(".tmp"))).toEqual([]);
    expect(yaoc(["--check", pkg]).code).toBe(0);
  });

  it("does not follow symbolic links while searching a directory", () => {
    const d = tempDir();
    const outside = tempDir();
    writeFileSync(join(outside, "x.yao"), "(a   b)");
    symlinkSync(join(outside, "x.yao"), join(d, "link.yao"));
    symlinkSync(outside, join(d, "linked-dir"));
    writeFileSync(join(d, "own.yao"), "(c   d)");
    const r = yaoc(["--check", d]);
    expect(r.out).toBe(`${join(d, "own.yao")}\n`);
  });

  it("refuses invalid Yao with the reader's diagnostic and a code frame, exit 1, nothing written", () => {
    const d = tempDir();
    writeFileSync(join(d, "bad.yao"), '(eval "\\q")');
    const r = yaoc(["--write", join(d, "bad.yao")]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("error[yao.invalid_escape]: unknown string escape '\\q'");
    expect(r.err).toContain('1 | (eval "\\q")');
    expect(r.err).toContain("not valid Yao; nothing written");
    expect(readFileSync(join(d, "bad.yao"), "utf8")).toBe('(eval "\\q")');
  });

  it("usage and I/O errors exit 2", () => {
    expect(yaoc(["--write", "--check", "x.yao"])).toMatchObject({
      code: 2,
      err: "yaoc fmt: --write and --check are mutually exclusive\n",
    });
    expect(yaoc(["--write", "-"], "(a)")).toMatchObject({ code: 2 });
    expect(yaoc(["nope.yao"])).toMatchObject({ code: 2, err: "yaoc fmt: nope.yao does not exist\n" });
    expect(yaoc(["README.md"]).code).toBe(2);
    expect(yaoc(["examples"]).err).toContain("use --check, --diff or --write");
  });
});

describe("--write when the source changes meanwhile", () => {
  it("aborts with the reference message, keeps the new content and leaves no temp file", async () => {
    const d = tempDir();
    const file = join(d, "p.hns");
    writeFileSync(file, UGLY);
    const err: string[] = [];
    const io: FmtIo = {
      stdout: () => {},
      stderr: (s) => err.push(s),
      readStdin: () => ({ ok: true, bytes: new Uint8Array() }),
      color: false,
    };
    const code = await runFmt([file], { write: true, beforeCommit: (p) => writeFileSync(p, "(eval 2)") }, io);
    expect(code).toBe(2);
    expect(err.join("")).toBe(`yaoc fmt: ${file}: source changed during formatting; no write performed\n`);
    expect(readFileSync(file, "utf8")).toBe("(eval 2)");
    expect(readdirSync(d)).toEqual(["p.hns"]);
  });
});
