/**
 * Issue 28, item 4: HARP v1 rules that were enforced but never tested, each through the library
 * and the real CLI, each with a control that differs only in the rule's subject and stays clear
 * of that finding.
 *   - `harp.not_a_directory` (§7.1): a HARP package is a directory; a file, a missing path and a
 *     path through a file are refused with that code.
 *   - `harp.openapi_path_invalid` (§10.2): `entrypoints.openapi` must stay inside the package;
 *     `../secret.json` is refused even when that file exists next to the package.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryFs, type MemoryEntry } from "../../src/fs/memory-fs.js";
import { checkHarp } from "../../src/harp/index.js";
import { harpJson as manifest } from "../support/harp-manifest.js";
import { REPO } from "./helpers.js";

const YAOC = join(REPO, "bin/yaoc.js");

const codes = async (files: Record<string, string | MemoryEntry>, path: string) =>
  (await checkHarp(MemoryFs.from(files), path)).diagnostics.map((d) => [d.code, d.severity]);

const root = mkdtempSync(join(tmpdir(), "yaoc-harp-rules-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function yaoc(args: readonly string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [YAOC, ...args], {
    cwd: root,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, NO_COLOR: "1", YAOC_HARP_HOME: join(root, "home") },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A real package directory under the test's root. */
function pkgDir(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  return dir;
}

describe("harp.not_a_directory (HARP §7.1)", () => {
  const files = { "/p/harp.json": manifest(), "/p/server.mjs": "", "/file.json": manifest() };

  it("library: a file, a missing path and a path through a file are each refused with the code", async () => {
    expect(await codes(files, "/file.json")).toEqual([["harp.not_a_directory", "error"]]);
    expect(await codes(files, "/missing")).toEqual([["harp.not_a_directory", "error"]]);
    expect(await codes(files, "/file.json/p")).toEqual([["harp.not_a_directory", "error"]]);
    // The manifest file itself is not the package either.
    expect(await codes(files, "/p/harp.json")).toEqual([["harp.not_a_directory", "error"]]);
  });

  it("library control: the directory holding the same harp.json is valid", async () => {
    expect(await codes(files, "/p")).toEqual([]);
  });

  it("CLI: a file is an invalid package (exit 1); a missing path is a usage error (exit 2); both name the code and how to fix it", () => {
    const dir = pkgDir("cli-pkg", { "harp.json": manifest(), "server.mjs": "" });
    const file = join(dir, "harp.json");
    for (const cmd of ["validate", "install"]) {
      const r = yaoc(["harp", cmd, file]);
      // validate reports like check (stdout); install reports its refusal on stderr.
      const text = r.stdout + r.stderr;
      expect(r.code, text).toBe(1);
      expect(text).toContain("error[harp.not_a_directory]");
      expect(text).toContain("is not a directory");
      expect(text).toMatch(/help: .*package directory/);
      expect(text).not.toMatch(/\n\s+at /);
    }
    const missing = yaoc(["harp", "validate", join(root, "nope")]);
    expect(missing.code).toBe(2);
    expect(missing.stdout + missing.stderr).toContain("error[harp.not_a_directory]");
    expect(missing.stdout + missing.stderr).toContain("does not exist");
    // Control: the directory itself validates.
    const ok = yaoc(["harp", "validate", dir]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout + ok.stderr).not.toContain("harp.not_a_directory");
  });
});

describe("harp.openapi_path_invalid on ../secret.json (HARP §10.2)", () => {
  const files = (openapi: string) => ({
    "/w/p/harp.json": manifest({ entrypoints: { openapi } }),
    "/w/p/server.mjs": "",
    "/w/p/openapi.json": '{"openapi":"3.0.0"}',
    "/w/secret.json": '{"token":"x"}',
  });

  it("library: ../secret.json is refused although the file exists; the in-package file is valid", async () => {
    expect(await codes(files("../secret.json"), "/w/p")).toEqual([["harp.openapi_path_invalid", "error"]]);
    expect(await codes(files("./../secret.json"), "/w/p")).toEqual([["harp.openapi_path_invalid", "error"]]);
    expect(await codes(files("openapi.json"), "/w/p")).toEqual([]);
    // Two checks hold the rule: the manifest check refuses the '..' in the text, and the package
    // check refuses a path that resolves outside, which is what a link to ../secret.json does.
    const linked = { ...files("link.json"), "/w/p/link.json": { kind: "symlink" as const, target: "../secret.json" } };
    expect(await codes(linked, "/w/p")).toEqual([
      ["harp.openapi_path_invalid", "error"],
      // The link itself is refused too, as any link leaving the package is.
      ["harp.package_file_rejected", "error"],
    ]);
    const inside = { ...files("link.json"), "/w/p/link.json": { kind: "symlink" as const, target: "openapi.json" } };
    expect(await codes(inside, "/w/p")).toEqual([]);
    // A path that stays inside but names nothing is a different finding.
    expect(await codes(files("missing.json"), "/w/p")).toEqual([["harp.openapi_missing", "warning"]]);
  });

  it("CLI: validate exits 1 at /entrypoints/openapi; the control exits 0", () => {
    writeFileSync(join(root, "secret.json"), '{"token":"x"}');
    const bad = pkgDir("openapi-bad", {
      "harp.json": manifest({ entrypoints: { openapi: "../secret.json" } }),
      "server.mjs": "",
    });
    const r = yaoc(["harp", "validate", "--format", "json", bad]);
    expect(r.code, r.stderr).toBe(1);
    const doc = JSON.parse(r.stdout) as { results: { diagnostics: { code: string; pointer?: string }[] }[] };
    expect(doc.results).toHaveLength(1);
    const found = doc.results.flatMap((p) => p.diagnostics).map((d) => [d.code, d.pointer]);
    expect(found).toEqual([["harp.openapi_path_invalid", "/entrypoints/openapi"]]);
    const good = pkgDir("openapi-good", {
      "harp.json": manifest({ entrypoints: { openapi: "openapi.json" } }),
      "server.mjs": "",
      "openapi.json": '{"openapi":"3.0.0"}',
    });
    expect(yaoc(["harp", "validate", good]).code).toBe(0);
  });
});
