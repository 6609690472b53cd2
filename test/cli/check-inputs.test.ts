/**
 * `yaoc check` inputs and flags: directory walks, globs, stdin, --quiet, --max-warnings, --tools,
 * --color / FORCE_COLOR / NO_COLOR, streaming and progress.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expandInputs, walkPackages } from "../../src/cli/check-inputs.js";
import { Progress } from "../../src/cli/progress.js";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { NodeFs } from "../../src/fs/node-fs.js";
import { yaoc } from "../support/cli.js";
import { REPO_ROOT } from "../support/shared.js";

const fixture = (p: string) => join(REPO_ROOT, p);
const WARN = '(manifest (id demo) (version "1") (title "Demo") (colour "red"))\n(contract (purpose "p"))\n(eval 42)\n';
const BAD = '(manifest (id demo) (version "1") (title "Demo"))\n(contract (purpose "p"))\n(eval (seq 1 2)\n';

let root: string;
beforeAll(() => {
  // A folder of mixed packages, with everything the walk must skip.
  root = mkdtempSync(join(tmpdir(), "yaoc-walk-"));
  mkdirSync(join(root, "pkgs/deep"), { recursive: true });
  cpSync(fixture("examples/review.hns"), join(root, "pkgs/review.hns"));
  cpSync(fixture("examples/review-dir.hns"), join(root, "pkgs/deep/review-dir.hns"), { recursive: true });
  cpSync(fixture("fixtures/harp/valid-full"), join(root, "apps/notes"), { recursive: true });
  cpSync(fixture("fixtures/hcp/valid"), join(root, "packs/tickets"), { recursive: true });
  cpSync(fixture("fixtures/a3s/packages/valid-okf"), join(root, "a3s/cognitive"), { recursive: true });
  writeFileSync(join(root, "apps/notes/inside-a-package.hns"), BAD); // never checked on its own
  writeFileSync(join(root, "warn.hns"), WARN);
  writeFileSync(join(root, "notes.txt"), "not a package");
  mkdirSync(join(root, "node_modules/dep"), { recursive: true });
  writeFileSync(join(root, "node_modules/dep/x.hns"), BAD);
  mkdirSync(join(root, ".git"));
  writeFileSync(join(root, ".git/x.hns"), BAD);
  mkdirSync(join(root, ".hidden"));
  writeFileSync(join(root, ".hidden/x.hns"), BAD);
  symlinkSync(join(root, "pkgs"), join(root, "loop")); // a directory link is not followed
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const EXPECTED = [
  "a3s/cognitive",
  "apps/notes",
  "packs/tickets",
  "pkgs/deep/review-dir.hns",
  "pkgs/review.hns",
  "warn.hns",
];

describe("expanding inputs", () => {
  it("walks a folder for every kind of package, skipping node_modules, .git, hidden folders and package insides", async () => {
    expect(await walkPackages(new NodeFs(), root).then((ps) => ps.map((p) => p.slice(root.length + 1)))).toEqual(
      EXPECTED,
    );
  });

  it("keeps a package path as is, and a folder without packages as itself (the per-path check explains)", async () => {
    const fs = MemoryFs.from({ "/w/a.hns": "x", "/w/empty/readme.txt": "x", "/w/app/harp.json": "{}" });
    expect(await expandInputs(fs, ["/w/a.hns", "/w/app", "/w/empty", "/w/a.hns"])).toEqual([
      { kind: "path", path: "/w/a.hns" },
      { kind: "path", path: "/w/app" },
      { kind: "path", path: "/w/empty" },
    ]);
    expect(await expandInputs(fs, ["-"])).toEqual([{ kind: "stdin" }]);
  });
});

describe("yaoc check over folders, globs and stdin", () => {
  it("with no path checks every package under the working directory", () => {
    const r = yaoc(["check", "--format", "json"], { cwd: root });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as { results: { path: string; kind: string; valid: boolean }[] };
    expect(doc.results.map((x) => x.path)).toEqual(EXPECTED);
    expect(doc.results.map((x) => x.kind)).toEqual(["a3s", "harp", "hcp", "hns", "hns", "hns"]);
  });

  it("`yaoc check .` and `yaoc check DIR` give the same packages, named from the path given", () => {
    const dot = JSON.parse(yaoc(["check", "--format", "json", "."], { cwd: root }).out) as {
      results: { path: string }[];
    };
    expect(dot.results.map((x) => x.path)).toEqual(EXPECTED);
    const named = JSON.parse(yaoc(["check", "--format", "json", "pkgs"], { cwd: root }).out) as {
      results: { path: string }[];
    };
    expect(named.results.map((x) => x.path)).toEqual(["pkgs/deep/review-dir.hns", "pkgs/review.hns"]);
  });

  it("expands a quoted glob; a glob that matches nothing is a usage error (exit 2)", () => {
    const r = yaoc(["check", "--format", "json", "pkgs/**/*.hns"], { cwd: root });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as { results: { path: string }[] }).results.map((x) => x.path)).toEqual([
      "pkgs/deep/review-dir.hns",
      "pkgs/review.hns",
    ]);
    const none = yaoc(["check", "nothing/**/*.hns"], { cwd: root });
    expect(none.code).toBe(2);
    expect(none.out).toContain("error[cli.no_match]: the pattern nothing/**/*.hns matches no file or directory");
  });

  it("reads one single-file package from stdin, named by --stdin-filename", () => {
    const ok = yaoc(["check", "-", "--stdin-filename", "piped/review.hns"], { input: WARN });
    expect(ok.code).toBe(0);
    expect(ok.out).toContain("piped/review.hns:1:");
    expect(ok.out).toContain("warning[hns.unknown_field]");
    const bad = yaoc(["check", "-", "--format", "json"], { input: BAD });
    expect(bad.code).toBe(1);
    const doc = JSON.parse(bad.out) as { results: { path: string; diagnostics: { code: string; file: string }[] }[] };
    expect(doc.results[0]!.path).toBe("stdin.hns");
    expect(doc.results[0]!.diagnostics[0]).toMatchObject({ code: "yao.unclosed_list", file: "stdin.hns" });
  });
});

describe("check flags", () => {
  it("--quiet reports errors only", () => {
    const loud = yaoc(["check", "warn.hns", "-"], { cwd: root, input: BAD });
    const quiet = yaoc(["check", "--quiet", "warn.hns", "-"], { cwd: root, input: BAD });
    expect(loud.out).toContain("warning[hns.unknown_field]");
    expect(quiet.out).not.toContain("warning[");
    expect(quiet.out).toContain("error[yao.unclosed_list]");
    expect(quiet.code).toBe(1);
  });

  it("--max-warnings N fails (exit 1) only when more than N warnings are found, quiet or not", () => {
    expect(yaoc(["check", "--max-warnings", "1", "warn.hns"], { cwd: root }).code).toBe(0);
    const over = yaoc(["check", "--max-warnings", "0", "warn.hns"], { cwd: root });
    expect(over.code).toBe(1);
    expect(over.err).toContain("1 warning found, more than --max-warnings 0");
    expect(yaoc(["check", "--quiet", "--max-warnings", "0", "warn.hns"], { cwd: root }).code).toBe(1);
    expect(yaoc(["check", "--max-warnings", "many", "warn.hns"], { cwd: root }).code).toBe(2);
  });

  it("--tools FILE types tool calls by their input schemas; an unusable file is a usage error", () => {
    const dir = mkdtempSync(join(tmpdir(), "yaoc-tools-"));
    try {
      writeFileSync(
        join(dir, "tools.json"),
        JSON.stringify({ read: { type: "object", properties: { path: { type: "integer" } }, required: ["path"] } }),
      );
      writeFileSync(join(dir, "list.json"), "[1]");
      expect(yaoc(["check", "examples/review.hns"]).code).toBe(0);
      const typed = yaoc(["check", "--tools", join(dir, "tools.json"), "examples/review.hns"]);
      expect(typed.code).toBe(1);
      expect(typed.out).toContain("error[yao.type_mismatch]");
      const bad = yaoc(["check", "--tools", join(dir, "list.json"), "examples/review.hns"]);
      expect(bad.code).toBe(2);
      expect(bad.err).toContain("expected a JSON object mapping tool names to input JSON Schemas");
      expect(yaoc(["check", "--tools", join(dir, "missing.json"), "examples/review.hns"]).code).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("--color=always|never|auto, FORCE_COLOR and NO_COLOR decide ANSI colour", () => {
    const ansi = /\x1b\[/;
    const bad = "fixtures/hns/failure/yao.unclosed_list/single.hns";
    expect(yaoc(["check", bad]).out).not.toMatch(ansi); // piped, NO_COLOR
    expect(yaoc(["check", "--color=always", bad]).out).toMatch(ansi);
    expect(yaoc(["--color", "always", "check", bad]).out).toMatch(ansi);
    expect(yaoc(["check", "--color=never", bad], { env: { FORCE_COLOR: "1" } }).out).not.toMatch(ansi);
    expect(yaoc(["check", bad], { env: { FORCE_COLOR: "1" } }).out).toMatch(ansi);
    expect(yaoc(["check", bad], { env: { FORCE_COLOR: "0", NO_COLOR: "" } }).out).not.toMatch(ansi);
    expect(yaoc(["check", "--color=auto", bad], { env: { NO_COLOR: "" } }).out).not.toMatch(ansi); // piped: auto is off
    expect(yaoc(["check", "--color=sometimes", bad]).code).toBe(2);
  });
});

describe("streaming and progress", () => {
  it("prints nothing but results when stderr is piped (no progress line)", () => {
    const r = yaoc(["check"], { cwd: root });
    expect(r.err).toBe("");
    expect(r.out).not.toContain("\r");
    // Each package's verdict follows its own diagnostics, in walk order, then the summary.
    const verdicts = r.out
      .split("\n")
      .filter((l) => / (ok|invalid) \(/.test(l))
      .map((l) => l.split(":")[0]);
    expect(verdicts).toEqual(EXPECTED);
    expect(r.out.trimEnd().split("\n").pop()).toBe("6 packages checked: 6 valid, 0 invalid; 0 errors, 2 warnings"); // warn.hns and the OKF dangling link of valid-okf
  });

  it("Progress draws on a terminal only, and only for more than one item", () => {
    const sink = (isTTY: boolean) => {
      const chunks: string[] = [];
      return {
        chunks,
        stream: { isTTY, columns: 40, write: (s: string) => (chunks.push(s), true) } as unknown as NodeJS.WriteStream,
      };
    };
    const tty = sink(true);
    const p = new Progress(tty.stream, 3, "checking");
    p.update("a.hns");
    p.done();
    p.update("a-much-longer-name-that-does-not-fit-in-forty-columns.hns");
    p.clear();
    expect(tty.chunks[0]).toBe("\r\x1b[2K[1/3] checking a.hns");
    expect(tty.chunks[1]!.length).toBeLessThanOrEqual(40 + 6);
    expect(tty.chunks[1]).toMatch(/^\r\x1b\[2K\[2\/3\] checking .*…$/);
    expect(tty.chunks[2]).toBe("\r\x1b[2K");
    const piped = sink(false);
    const q = new Progress(piped.stream, 3, "checking");
    q.update("a.hns");
    q.clear();
    expect(piped.chunks).toEqual([]);
    const single = sink(true);
    new Progress(single.stream, 1, "checking").update("a.hns");
    expect(single.chunks).toEqual([]);
  });
});
