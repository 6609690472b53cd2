/**
 * The host's lifecycle under stress, through the real CLI and real processes: concurrent
 * operations on one app are serialized (issue 13 item 3) and install/upgrade survive SIGKILL at
 * any point (item 4).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NodeFs } from "../../src/fs/node-fs.js";
import { checkHarp } from "../../src/harp/check.js";
import { HarpHost } from "../../src/harp/host/host.js";
import { hostPidsWith } from "../../src/harp/host/sandbox-cases.js";
import { appWorkspace, clean, fixtureApp, supervisors, yaoc } from "./helpers.js";
import { announceSandboxSkip, SKIP_WITHOUT_SANDBOX } from "../support/system-tools.js";

announceSandboxSkip("test/harp-sandbox/lifecycle.test.ts");

const { root, newHome } = appWorkspace("yaoc-harp-life-");
const fixture = fixtureApp;

describe.skipIf(SKIP_WITHOUT_SANDBOX)("one operation at a time per app (skipped without bwrap)", () => {
  it("four parallel starts: one starts, the others wait and say it is running; nothing is left untracked", async () => {
    const home = newHome("parallel");
    const env = { YAOC_HARP_HOME: home };
    expect((await yaoc(["harp", "install", fixture(join(root, "pkg-par"))], { env })).code).toBe(0);
    for (let round = 0; round < 2; round++) {
      const runs = await Promise.all([0, 1, 2, 3].map(() => yaoc(["harp", "start", "harp-fixture"], { env })));
      const codes = runs.map((r) => r.code).sort();
      expect(codes, JSON.stringify(runs.map((r) => r.stderr))).toEqual([0, 1, 1, 1]);
      for (const r of runs) {
        expect(r.signal).toBeNull();
        expect(clean(r.stderr)).toBe(true);
        if (r.code === 1) expect(r.stderr).toContain("harp.already_running");
      }
      expect(supervisors(home)).toHaveLength(1);
      const stop = await yaoc(["harp", "stop", "harp-fixture"], { env });
      expect(stop.stdout).toContain("harp-fixture stopped");
      expect(hostPidsWith(home)).toEqual([]);
    }
  }, 120_000);

  it("three concurrent installs of a running app are serialized and leave exactly one running app", async () => {
    const home = newHome("reinstall");
    const env = { YAOC_HARP_HOME: home };
    const pkg = fixture(join(root, "pkg-re"));
    expect((await yaoc(["harp", "install", pkg], { env })).code).toBe(0);
    expect((await yaoc(["harp", "start", "harp-fixture"], { env })).code).toBe(0);
    const runs = await Promise.all([0, 1, 2].map(() => yaoc(["harp", "install", pkg], { env })));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    expect(supervisors(home)).toHaveLength(1);
    const h = new HarpHost({ home });
    expect(h.isRunning("harp-fixture")).toBe(true);
    expect((await fetch(`${h.state("harp-fixture")!.url}/health`)).status).toBe(200);
    expect(readdirSync(h.layout.versions("harp-fixture"))).toHaveLength(1);
    await h.stop("harp-fixture");
    expect(hostPidsWith(home)).toEqual([]);
  }, 120_000);
});

describe.skipIf(SKIP_WITHOUT_SANDBOX)("install and upgrade are atomic under SIGKILL (skipped without bwrap)", () => {
  it("a SIGKILL at any point leaves the old or the new complete bundle, and the next install cleans up", async () => {
    const home = newHome("atomic");
    const env = { YAOC_HARP_HOME: home };
    // Enough files that the copy takes a while, so the kills land in every phase.
    const pkgs = ["1.0.0", "2.0.0"].map((v) => {
      const dir = fixture(join(root, `pkg-atomic-${v}`), v);
      for (let i = 0; i < 20; i++) {
        mkdirSync(join(dir, "assets", String(i)), { recursive: true });
        for (let j = 0; j < 20; j++) writeFileSync(join(dir, "assets", String(i), `f${j}.txt`), `${v} ${i} ${j}\n`);
      }
      return dir;
    });
    const h = new HarpHost({ home });
    // A complete install first, timed, so the kills can be spread over a whole install.
    const t0 = Date.now();
    expect((await yaoc(["harp", "install", pkgs[0]!], { env })).code).toBe(0);
    const full = Date.now() - t0;
    for (const [k, f] of [0.4, 0.55, 0.7, 0.8, 0.9, 1.1].entries()) {
      const r = await yaoc(["harp", "install", pkgs[(k + 1) % 2]!], { env, killAfterMs: Math.round(full * f) });
      const rec = h.record("harp-fixture");
      expect(rec, `no install after a kill at ${f} x ${full} ms`).not.toBeNull();
      expect(["1.0.0", "2.0.0"]).toContain(rec!.version);
      const bundle = await checkHarp(new NodeFs(), h.layout.bundle("harp-fixture"));
      expect(bundle.identity, `after a kill at ${f} x ${full} ms (${r.signal ?? r.code})`).toBe(rec!.digest);
      expect(bundle.extra?.["version"]).toBe(rec!.version);
    }
    // And one kill that certainly lands while the new bundle is being written: watch for the
    // staging directory and SIGKILL the moment it appears (timed kills alone may all miss it).
    let midCopy = false;
    for (let attempt = 0; attempt < 3 && !midCopy; attempt++) {
      const before = h.record("harp-fixture")!;
      const { spawn } = await import("node:child_process");
      const { YAOC } = await import("./helpers.js");
      const c = spawn(process.execPath, [YAOC, "harp", "install", pkgs[before.version === "1.0.0" ? 1 : 0]!], {
        env: { ...process.env, ...env },
        stdio: "ignore",
      });
      const exited = new Promise<void>((resolve) => c.on("close", () => resolve()));
      const watch = setInterval(() => {
        if (readdirSync(h.layout.versions("harp-fixture")).some((n) => n.startsWith(".staging-"))) {
          midCopy = c.kill("SIGKILL") || midCopy;
          clearInterval(watch);
        }
      }, 2);
      await exited;
      clearInterval(watch);
      if (!midCopy) continue;
      const rec = h.record("harp-fixture")!;
      expect(rec.version, "a kill during the copy changed the installed version").toBe(before.version);
      expect((await checkHarp(new NodeFs(), h.layout.bundle("harp-fixture"))).identity).toBe(rec.digest);
    }
    expect(midCopy, "never caught the install while it was copying").toBe(true);
    const done = await yaoc(["harp", "install", pkgs[1]!], { env });
    expect(done.code, done.stderr).toBe(0);
    expect(readdirSync(h.layout.versions("harp-fixture"))).toHaveLength(1);
    expect(readdirSync(h.layout.appDir("harp-fixture")).sort()).toEqual(["current", "versions"]);
    expect(existsSync(h.layout.trash()) ? readdirSync(h.layout.trash()) : []).toEqual([]);
    const st = await yaoc(["harp", "start", "harp-fixture"], { env });
    expect(st.code, st.stderr).toBe(0);
    await h.stop("harp-fixture");
  }, 180_000);

  it("an uninstall killed after its one rename has uninstalled the app; the next operation removes the rest", async () => {
    const home = newHome("uninstall");
    const env = { YAOC_HARP_HOME: home };
    const pkg = fixture(join(root, "pkg-uninstall"), "1.0.0");
    expect((await yaoc(["harp", "install", pkg], { env })).code).toBe(0);
    const h = new HarpHost({ home });
    mkdirSync(h.layout.data("harp-fixture"), { recursive: true });
    writeFileSync(join(h.layout.data("harp-fixture"), "keep.txt"), "user data\n");
    // What uninstall does first, then a SIGKILL before any removal: the app tree sits in trash/.
    mkdirSync(h.layout.trash(), { recursive: true });
    renameSync(h.layout.appDir("harp-fixture"), join(h.layout.trash(), "harp-fixture.killed-1"));
    expect(h.record("harp-fixture")).toBeNull();
    const status = await yaoc(["harp", "status", "harp-fixture"], { env });
    expect(status.code).toBe(1);
    // The next operation on the id finishes the removal (and says the app is not installed).
    const again = await yaoc(["harp", "uninstall", "harp-fixture"], { env });
    expect(again.code).toBe(1);
    expect(readdirSync(h.layout.trash())).toEqual([]);
    expect(readFileSync(join(h.layout.data("harp-fixture"), "keep.txt"), "utf8")).toBe("user data\n");
  }, 120_000);
});
