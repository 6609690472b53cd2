/**
 * `yaoc check --watch` in a real child process: the first run prints what `yaoc check` prints; a
 * change to one package re-checks only that package and prints the whole output again after a
 * separator, equal to a fresh `yaoc check` of the changed tree; a new package is picked up; SIGINT
 * (Ctrl-C) ends it cleanly with exit 130, no stack trace and no temporary file left in the cache.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, yaoc } from "../support/cli.js";
import { REPO_ROOT } from "../support/shared.js";

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "yaoc-watch-"));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A child's output so far, and a way to wait until stderr shows a status line `n` times. */
function watchChild(args: string[], cwd: string) {
  const child: ChildProcess = spawn(process.execPath, [BIN, ...args], {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: undefined },
  });
  const io = { out: "", err: "" };
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (io.out += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (io.err += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const statusCount = (): number => io.err.match(/Watching for changes/g)?.length ?? 0;
  const until = async (n: number, what: string): Promise<void> => {
    const deadline = Date.now() + 60_000;
    while (statusCount() < n) {
      if (Date.now() > deadline) throw new Error(`no ${what} after 60 s; stderr: ${io.err}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { child, io, exited, until };
}

describe("check --watch", () => {
  it("re-checks the changed package, prints the whole output again, and stops cleanly on SIGINT", async () => {
    const cwd = join(tmp, "tree");
    mkdirSync(join(cwd, "pkgs"), { recursive: true });
    cpSync(join(REPO_ROOT, "examples/review.hns"), join(cwd, "pkgs/a.hns"));
    cpSync(join(REPO_ROOT, "examples/review-dir.hns"), join(cwd, "pkgs/b.hns"), { recursive: true });
    const first = yaoc(["check", "pkgs"], { cwd });
    expect(first.code).toBe(0);

    const w = watchChild(["check", "--watch", "pkgs"], cwd);
    await w.until(1, "first run");
    expect(w.io.out).toBe(first.out);
    expect(w.io.err).toMatch(/2 packages checked\. Watching for changes \(Ctrl-C to stop\)\./);

    // One package made invalid, saved the way editors do (a new file renamed over the old one):
    // only it is re-checked, and the output is that of a fresh check.
    writeFileSync(join(cwd, "pkgs/.a.hns.swp"), `${readFileSync(join(cwd, "pkgs/a.hns"), "utf8")}\n(`);
    renameSync(join(cwd, "pkgs/.a.hns.swp"), join(cwd, "pkgs/a.hns"));
    await w.until(2, "re-check after a change");
    const second = yaoc(["check", "pkgs"], { cwd });
    expect(second.code).toBe(1);
    expect(w.io.out).toBe(`${first.out}---\n${second.out}`);
    expect(w.io.err).toMatch(/1 path changed; 1 of 2 packages re-checked\./);

    // A new package appears: the inputs are expanded again and it is checked.
    cpSync(join(REPO_ROOT, "examples/review.hns"), join(cwd, "pkgs/c.hns"));
    await w.until(3, "re-check after a new package");
    const third = yaoc(["check", "pkgs"], { cwd });
    expect(w.io.out).toBe(`${first.out}---\n${second.out}---\n${third.out}`);
    expect(third.out).toMatch(/3 packages checked/);

    w.child.kill("SIGINT");
    expect(await w.exited).toBe(130);
    expect(w.io.err).toMatch(/Stopped watching\.\n$/);
    expect(w.io.err).not.toMatch(/Error|at .*\.js:\d+/);
    expect(readdirSync(join(cwd, ".yaoc-cache", "tmp"))).toEqual([]);
  }, 120_000);

  it("refuses to watch standard input", () => {
    const r = yaoc(["check", "--watch", "-"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--watch cannot watch standard input/);
  });
});
