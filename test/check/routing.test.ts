/**
 * `yaoc check` routes a directory by its marker files (issue 12 item 5), through the real CLI: an
 * unreadable marker or an incomplete pack still reaches its own frontend; no marker, a dangling
 * link and a link loop each say so. Exit codes follow the one table: 1 invalid, 2 missing path.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/shared.js";
import { skipUnless } from "../support/skip.js";

const BIN = join(REPO_ROOT, "bin/yaoc.js");
let dir = "";

function yaoc(args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** `yaoc check PATH` in human and JSON form: exit code, codes, and no stack trace anywhere. */
function checkPath(path: string): { code: number | null; codes: string[]; kind: string; out: string } {
  const human = yaoc(["check", path]);
  const json = yaoc(["check", "--format", "json", path]);
  for (const r of [human, json]) {
    expect(r.err + r.out).not.toMatch(/\n\s+at |internal error/);
    expect(r.code).toBe(human.code);
  }
  const result = (JSON.parse(json.out) as { results: { kind: string; diagnostics: { code: string }[] }[] }).results[0]!;
  return { code: human.code, codes: result.diagnostics.map((d) => d.code), kind: result.kind, out: human.out };
}

function pack(name: string, files: Record<string, string>): string {
  const root = join(dir, name);
  mkdirSync(root, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(root, file), text);
  return root;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "yaoc-routing-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("yaoc check routes a directory by its marker file", () => {
  it("harp.json linked to /dev/zero: the HARP frontend's diagnostic, exit 1", () => {
    const root = pack("zero-app", {});
    symlinkSync("/dev/zero", join(root, "harp.json"));
    const r = checkPath(root);
    expect(r).toMatchObject({ code: 1, kind: "harp", codes: ["harp.manifest_unreadable"] });
    expect(r.codes).not.toContain("hns.bad_suffix");
  });

  it("harp.json that is a FIFO: the HARP diagnostic, without blocking on the pipe", (ctx) => {
    const root = pack("fifo-app", {});
    const made = spawnSync("mkfifo", [join(root, "harp.json")]);
    skipUnless(ctx, made.status === 0, "no mkfifo on this system (the /dev/zero case covers the route)");
    const r = checkPath(root);
    expect(r).toMatchObject({ code: 1, kind: "harp", codes: ["harp.manifest_unreadable"] });
    expect(r.out).toContain("FIFO");
  });

  it.skipIf(process.getuid?.() === 0)(
    "harp.json without read permission: the HARP diagnostic (skipped as root, who reads anything)",
    () => {
      const root = pack("locked-app", { "harp.json": '{"schemaVersion": 1}' });
      chmodSync(join(root, "harp.json"), 0o000);
      const r = checkPath(root);
      expect(r.code).toBe(1);
      expect(r.kind).toBe("harp");
    },
  );

  it("a HARP manifest that is not an object is judged by HARP, not by the HNS suffix rule", () => {
    const r = checkPath(pack("array-app", { "harp.json": "[1, 2, 3]" }));
    expect(r).toMatchObject({ code: 1, kind: "harp" });
    expect(r.codes).not.toContain("hns.bad_suffix");
  });

  it.each([["HARNESS.md"], ["policy.json"], ["surface.json"]])(
    "an HCP pack missing %s: the HCP linter says which file is missing",
    (missing) => {
      const files: Record<string, string> = {
        "surface.json": '{"id": "acme.demo"}',
        "policy.json": '{"surface_id": "acme.demo"}',
        "HARNESS.md": "# Demo\n",
      };
      delete files[missing];
      const r = checkPath(pack(`pack-without-${missing}`, files));
      expect(r).toMatchObject({ code: 1, kind: "hcp" });
      expect(r.codes).toContain("hcp.pack.missing_file");
      expect(r.out).toContain(`no ${missing}`);
    },
  );

  it("a3s-use-extension.acl that is a FIFO: the A3S frontend's diagnostic", (ctx) => {
    const root = pack("fifo-a3s", {});
    const made = spawnSync("mkfifo", [join(root, "a3s-use-extension.acl")]);
    skipUnless(ctx, made.status === 0, "no mkfifo on this system");
    const r = checkPath(root);
    expect(r).toMatchObject({ code: 1, kind: "a3s" });
    expect(r.codes).not.toContain("hns.bad_suffix");
  });

  it("a directory with no marker says what it looked for, exit 1", () => {
    const r = checkPath(pack("just-notes", { "notes.txt": "hello\n" }));
    expect(r).toMatchObject({ code: 1, kind: "unknown", codes: ["check.no_marker"] });
    for (const marker of [".hns", "harp.json", "surface.json", "policy.json", "HARNESS.md", "a3s-use-extension.acl"])
      expect(r.out).toContain(marker);
  });

  it("a misnamed HNS directory package (manifest.yao, no .hns suffix) still gets the suffix rule", () => {
    const r = checkPath(pack("review-dir", { "manifest.yao": '(manifest (id demo) (version "1") (title "Demo"))\n' }));
    expect(r).toMatchObject({ code: 1, codes: ["hns.bad_suffix"] });
  });
});

describe("yaoc check on a package path that is a broken link", () => {
  it("a dangling link says it is dangling (exit 2: a path that cannot be used)", () => {
    symlinkSync(join(dir, "nowhere"), join(dir, "dangling-pkg"));
    const r = checkPath(join(dir, "dangling-pkg"));
    expect(r).toMatchObject({ code: 2, codes: ["check.broken_link"] });
    expect(r.out).toContain("dangling symbolic link");
  });

  it("a link loop says it is a loop (exit 2: a path that cannot be used)", () => {
    symlinkSync("loop-pkg", join(dir, "loop-pkg"));
    const r = checkPath(join(dir, "loop-pkg"));
    expect(r).toMatchObject({ code: 2, codes: ["check.broken_link"] });
    expect(r.out).toContain("loop of symbolic links");
  });

  it("a path that does not exist at all is an I/O error (exit 2)", () => {
    const r = checkPath(join(dir, "no-such-package"));
    expect(r).toMatchObject({ code: 2, codes: ["cli.not_found"] });
  });
});
