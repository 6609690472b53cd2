/**
 * One read, one snapshot (issue 14): the Node reader records links as links (never followed), never
 * blocks on a FIFO, and what it captured is all any later step sees — changing the disk afterwards
 * changes nothing. HARP install writes its bundle from the snapshot and refuses to publish a
 * bundle whose digest differs from the checked one.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { NodeFs } from "../../src/fs/node-fs.js";
import { readPackageSnapshot } from "../../src/fs/node-snapshot.js";
import { packageView, SnapshotFs } from "../../src/fs/snapshot.js";
import { checkHarpPackage } from "../../src/harp/check.js";
import { writeBundleFromSnapshot } from "../../src/harp/host/bundle-from-snapshot.js";
import { treeDigest } from "../../src/harp/tree.js";
import { check } from "../../src/check/check.js";
import { skipUnless } from "../support/skip.js";

const REPO = resolve(__dirname, "..", "..");
const work = mkdtempSync(join(tmpdir(), "yaoc-snapshot-"));
afterAll(() => {
  spawnSync("chmod", ["-R", "u+w", work]);
  rmSync(work, { recursive: true, force: true });
});

describe("the Node package reader", () => {
  it("captures every entry with kind, size and bytes, frozen", async () => {
    const dir = join(work, "plain");
    mkdirSync(join(dir, "sub"), { recursive: true });
    writeFileSync(join(dir, "a.txt"), "alpha");
    writeFileSync(join(dir, "sub", "b.sh"), "#!/bin/sh\n", { mode: 0o755 });
    const s = await readPackageSnapshot(dir);
    expect(s.failure).toBeNull();
    expect([...s.entries.keys()].sort()).toEqual(["", "a.txt", "sub", "sub/b.sh"]);
    const b = s.entries.get("sub/b.sh")!;
    expect(b).toMatchObject({ kind: "file", size: 10, executable: true });
    expect(Object.isFrozen(s)).toBe(true);
    expect(Object.isFrozen(b)).toBe(true);
  });

  it("records a symlinked directory as a link and never reads through it", async () => {
    const dir = join(work, "linked");
    const outside = join(work, "outside-secret");
    mkdirSync(dir);
    mkdirSync(outside);
    writeFileSync(join(outside, "secret.txt"), "OUTSIDE");
    symlinkSync(outside, join(dir, "lib"));
    const s = await readPackageSnapshot(dir);
    expect(s.entries.get("lib")).toMatchObject({ kind: "symlink", target: outside });
    expect(s.entries.has("lib/secret.txt")).toBe(false);
    const fs = new SnapshotFs(s);
    await expect(fs.readFile(join(dir, "lib", "secret.txt"), 100)).rejects.toThrow(/outside the package/);
  });

  it("records a FIFO without opening it for reading (never blocks)", async (ctx) => {
    const dir = join(work, "fifo");
    mkdirSync(dir);
    skipUnless(ctx, spawnSync("mkfifo", [join(dir, "pipe")]).status === 0, "no mkfifo on this system");
    const s = await readPackageSnapshot(dir);
    expect(s.entries.get("pipe")).toMatchObject({ kind: "fifo" });
  }, 20_000);

  it("later steps see only the snapshot: a change on disk after the read changes nothing", async () => {
    const pkg = join(work, "once.hns");
    cpSync(join(REPO, "examples", "review-dir.hns"), pkg, { recursive: true });
    const view = await packageView(new NodeFs(), pkg);
    const before = await check(view, pkg, { analyze: false });
    writeFileSync(join(pkg, "contract.yao"), '(contract (purpose "changed on disk"))\n');
    rmSync(join(pkg, "functions"), { recursive: true });
    const after = await check(view, pkg, { analyze: false });
    expect(after.identity).toBe(before.identity);
    expect(after.valid).toBe(true);
    // A fresh read does see the change.
    expect((await check(new NodeFs(), pkg, { analyze: false })).identity).not.toBe(before.identity);
  });

  it("a missing path and a dangling link are reported as such, not as I/O failures", async () => {
    const missing = await readPackageSnapshot(join(work, "nope.hns"));
    expect(missing.rootState).toBe("missing");
    symlinkSync(join(work, "nowhere"), join(work, "dangling.hns"));
    const dangling = await readPackageSnapshot(join(work, "dangling.hns"));
    expect(dangling.rootState).toBe("dangling");
    expect((await check(new NodeFs(), join(work, "dangling.hns"), { analyze: false })).diagnostics[0]!.code).toBe(
      "hns.not_regular_file",
    );
  });
});

describe("harp install's bundle comes from the snapshot and is verified before publishing", () => {
  it("writes exactly the checked tree (same digest), with modes from the snapshot", async () => {
    const app = join(work, "app");
    cpSync(join(REPO, "fixtures", "harp", "valid-full"), app, { recursive: true });
    const check = await checkHarpPackage(new NodeFs(), app);
    expect(check.result.valid).toBe(true);
    const staging = join(work, "staging");
    await writeBundleFromSnapshot(check.snapshot, check.tree!, staging);
    const written = await checkHarpPackage(new NodeFs(), staging);
    expect(treeDigest(written.tree!)).toBe(treeDigest(check.tree!));
    expect(readFileSync(join(staging, "harp.json"))).toEqual(readFileSync(join(app, "harp.json")));
  });

  it("refuses to publish when the written bundle does not hash to the checked digest", async () => {
    const app = join(work, "app2");
    cpSync(join(REPO, "fixtures", "harp", "valid-full"), app, { recursive: true });
    const check = await checkHarpPackage(new NodeFs(), app);
    // A tree that claims a different digest than the snapshot's bytes produce.
    const tampered = {
      ...check.tree!,
      entries: check.tree!.entries.map((e) =>
        e.kind === "file" && e.path === "harp.json" ? { ...e, sha256: "0".repeat(64) } : e,
      ),
    };
    await expect(writeBundleFromSnapshot(check.snapshot, tampered, join(work, "staging2"))).rejects.toThrow(
      /does not match the checked package/,
    );
  });
});
