/**
 * `yaoc new` / `yaoc init` when writing fails (issue 34, item 8): a directory that cannot be
 * written is a clear error (which path, why, in words) with exit 2, and a failure part-way through
 * the directory form leaves nothing half-written. The part-way failure is made by failing the
 * third file write (node:fs is mocked for this file only); the unwritable directory is a real one.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { REPO_ROOT } from "../support/repo.js";

/** How many more writes succeed before one fails with EACCES (Infinity: none fails). */
const failing = vi.hoisted(() => ({ after: Number.POSITIVE_INFINITY }));
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  return {
    ...fs,
    writeFileSync: (...args: Parameters<typeof fs.writeFileSync>) => {
      if (failing.after-- <= 0) {
        const e = new Error(`EACCES: permission denied, open '${String(args[0])}'`) as NodeJS.ErrnoException;
        e.code = "EACCES";
        e.path = String(args[0]);
        throw e;
      }
      return fs.writeFileSync(...args);
    },
  };
});

const { runInit, runNew } = await import("../../src/cli/new-command.js");

const temps: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "yaoc-new-fail-"));
  temps.push(d);
  return d;
}
afterEach(() => {
  failing.after = Number.POSITIVE_INFINITY;
  for (const d of temps.splice(0)) {
    chmodSync(d, 0o700);
    rmSync(d, { recursive: true, force: true });
  }
});

function run(f: (out: (t: string) => void, err: (t: string) => void) => number): {
  code: number;
  out: string;
  err: string;
} {
  let out = "";
  let err = "";
  const code = f(
    (t) => (out += t),
    (t) => (err += t),
  );
  return { code, out, err };
}

/**
 * A directory this process cannot create files in: a mode-555 one for an ordinary user; for root,
 * whom modes do not stop, /sys (sysfs refuses new files to everyone). Undefined when neither works.
 */
function unwritableDir(): string | undefined {
  const probe = (dir: string): boolean => {
    try {
      writeFileSync(join(dir, ".yaoc-probe"), "");
      rmSync(join(dir, ".yaoc-probe"));
      return false;
    } catch {
      return true;
    }
  };
  const d = tempDir();
  chmodSync(d, 0o555);
  if (probe(d)) return d;
  return probe("/sys") ? "/sys" : undefined;
}

describe("yaoc new and init when writing fails", () => {
  const dir = unwritableDir();
  it.skipIf(dir === undefined)(
    "an unwritable directory: exit 2, which path and why in words, nothing created (skipped only where no directory refuses this user)",
    () => {
      const before = readdirSync(dir!);
      for (const args of [
        ["new", "x"],
        ["new", "x", "--dir"],
      ]) {
        const r = spawnSync(process.execPath, [join(REPO_ROOT, "bin/yaoc.js"), ...args], {
          cwd: dir!,
          encoding: "utf8",
          env: { ...process.env, NO_COLOR: "1" },
        });
        expect(r.status, args.join(" ")).toBe(2);
        expect(r.stdout).toBe("");
        expect(r.stderr).toBe(
          `yaoc new: cannot write ${join(dir!, "x.hns")}: permission denied; nothing was written\n`,
        );
        expect(r.stderr).not.toMatch(/EACCES|open '|mkdir '|\n\s+at /);
      }
      expect(readdirSync(dir!)).toEqual(before);
    },
  );

  it("a failure part-way through new --dir removes what it created", () => {
    const d = tempDir();
    failing.after = 2; // manifest.yao and contract.yao are written, functions/read-notes.yao fails
    const r = run((out, err) => runNew("half", { dir: true }, out, err, d));
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toBe(
      `yaoc new: cannot write ${join(d, "half.hns/functions/read-notes.yao")}: permission denied; nothing was written\n`,
    );
    expect(readdirSync(d)).toEqual([]);
  });

  it("a failure part-way through init in NAME.hns/ removes what it created and keeps what was there", () => {
    const d = join(tempDir(), "pkg.hns");
    mkdirSync(d);
    writeFileSync(join(d, "NOTES.md"), "mine\n");
    failing.after = 3; // the fourth file, programs/main.yao, fails
    const r = run((out, err) => runInit(out, err, d));
    expect(r.code).toBe(2);
    expect(r.err).toContain(`cannot write ${join(d, "programs/main.yao")}: permission denied; nothing was written`);
    expect(readdirSync(d)).toEqual(["NOTES.md"]);
  });

  it("a directory that does not exist: exit 2 in words", () => {
    const d = join(tempDir(), "gone");
    const r = run((out, err) => runNew("x", {}, out, err, d));
    expect(r).toEqual({
      code: 2,
      out: "",
      err: `yaoc new: cannot write ${join(d, "x.hns")}: the directory does not exist; nothing was written\n`,
    });
  });
});
