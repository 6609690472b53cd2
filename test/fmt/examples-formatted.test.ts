/**
 * Issue 34, item 9: the shipped examples are what `yaoc fmt` prints, and the README's commands
 * never rewrite a tracked file (a `--write` example works on a copy outside the repository).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/repo.js";

const BIN = resolve(REPO_ROOT, "bin/yaoc.js");

/** The shell lines of the README's ```sh blocks, split on `&&` into single commands. */
function readmeCommands(): string[][] {
  const text = readFileSync(resolve(REPO_ROOT, "README.md"), "utf8");
  const commands: string[][] = [];
  for (const block of text.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const line of block[1]!.split("\n")) {
      const code = line.replace(/\s+#.*$/, "").trim();
      if (code === "") continue;
      for (const part of code.split("&&")) commands.push(part.trim().split(/\s+/));
    }
  }
  return commands;
}

function insideRepo(path: string): boolean {
  const rel = relative(REPO_ROOT, resolve(REPO_ROOT, path));
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

describe("shipped examples", () => {
  it("yaoc fmt --check examples finds nothing to change", () => {
    const r = spawnSync(process.execPath, [BIN, "fmt", "--check", "examples"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });
    expect({ code: r.status, out: r.stdout, err: r.stderr }).toEqual({ code: 0, out: "", err: "" });
  });

  it("no README command writes over a file of the repository: no redirect, new or fmt --write onto one", () => {
    // What each command writes: a `> FILE` redirect, `new NAME` (NAME.hns), `fmt --write PATH`.
    const targets: string[] = [];
    for (const c of readmeCommands()) {
      const redirect = c.indexOf(">");
      if (redirect >= 0) targets.push(c[redirect + 1]!);
      const made = c.indexOf("new");
      if (c[0]!.endsWith("yaoc.js") && made === 1) targets.push(`${c[2]!.replace(/\.hns$/, "")}.hns`);
    }
    expect(targets).toEqual(expect.arrayContaining(["yaoc.sarif", "my-harness.hns"]));
    // The files of the repository as it is shipped (git's list where there is one, else what exists).
    const listed = spawnSync("git", ["ls-files", "-z"], { cwd: REPO_ROOT, encoding: "utf8" });
    const shipped = listed.status === 0 ? new Set(listed.stdout.split("\0")) : undefined;
    for (const t of targets) {
      const rel = relative(REPO_ROOT, resolve(REPO_ROOT, t));
      expect(shipped === undefined ? existsSync(resolve(REPO_ROOT, t)) : shipped.has(rel), `README writes ${t}`).toBe(
        false,
      );
    }
  });

  it("no README command writes into the repository with fmt --write", () => {
    const writes = readmeCommands().filter((c) => c.includes("fmt") && c.includes("--write"));
    expect(writes.length).toBeGreaterThan(0);
    for (const command of writes) {
      const paths = command.slice(command.indexOf("--write") + 1).filter((a) => !a.startsWith("-"));
      expect(paths.length).toBeGreaterThan(0);
      for (const p of paths) expect(insideRepo(p), `${command.join(" ")} rewrites ${p}`).toBe(false);
    }
  });
});
