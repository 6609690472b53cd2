/**
 * The harp CLI against the real host and real processes: app trees of any depth are removed
 * without following links (issue 12), every command follows the exit-code table, start never
 * ends with exit 13, `conformance` streams and cleans up on SIGINT, and the host confines apps when
 * run by an unprivileged user (issue 13).
 */
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HarpHost } from "../../src/harp/host/host.js";
import { HOSTILE_MANIFEST, HOSTILE_SERVER_MJS } from "../../src/harp/host/hostile-app.js";
import { removeTree } from "../../src/harp/host/remove-tree.js";
import { probeSandbox, resetSandboxProbe } from "../../src/harp/host/sandbox.js";
import { call, hostPidsWith, waitFor, writeApp } from "../../src/harp/host/sandbox-cases.js";
import { appWorkspace, clean, fixtureApp, yaoc } from "./helpers.js";
import { announceSandboxSkip, SKIP_WITHOUT_SANDBOX } from "../support/system-tools.js";
import { NO_NOBODY_RUN, NOBODY } from "../support/unprivileged.js";

announceSandboxSkip("test/harp-sandbox/cli.test.ts");

const { root, newHome, track } = appWorkspace("yaoc-harp-cli-");
const fixture = fixtureApp;

describe("removing app trees", () => {
  it.skipIf(SKIP_WITHOUT_SANDBOX)(
    "upgrade and uninstall remove a 3000-deep tree the app made, never following its links (skipped without bwrap)",
    async () => {
      const home = newHome("deep");
      const env = { YAOC_HARP_HOME: home };
      const bait = join(root, "bait");
      mkdirSync(bait, { recursive: true });
      writeFileSync(join(bait, "keep.txt"), "must survive");
      const pkg = writeApp(
        join(root, "pkg-deep"),
        HOSTILE_MANIFEST("deep-app", { network: "none", filesystem: "data-only" }),
        HOSTILE_SERVER_MJS,
      );
      expect((await yaoc(["harp", "install", pkg], { env })).code).toBe(0);
      const h = new HarpHost({ home });
      let st = await h.start("deep-app");
      expect(await call(st.url, "/deep", { dir: h.layout.cache("deep-app"), n: 3000, link: bait })).toMatchObject({
        ok: true,
      });
      const up = await yaoc(["harp", "upgrade", pkg], { env });
      expect(up.code, up.stderr).toBe(0);
      expect(clean(up.stderr)).toBe(true);
      expect(readdirSync(h.layout.cache("deep-app"))).toEqual([]);
      expect(readFileSync(join(bait, "keep.txt"), "utf8")).toBe("must survive");
      st = h.state("deep-app")!;
      expect(await call(st.url, "/deep", { dir: h.layout.cache("deep-app"), n: 3000, link: bait })).toMatchObject({
        ok: true,
      });
      // (Only the cache: removing 3000 directories takes seconds on a busy disk; data uses the same code.)
      const un = await yaoc(["harp", "uninstall", "--purge", "deep-app"], { env });
      expect(un.code, un.stderr).toBe(0);
      expect(clean(un.stderr)).toBe(true);
      expect((await yaoc(["harp", "status"], { env })).stdout).toContain("no apps installed");
      for (const d of [h.layout.cache("deep-app"), h.layout.data("deep-app"), h.layout.appDir("deep-app")])
        expect(existsSync(d), d).toBe(false);
      expect(readFileSync(join(bait, "keep.txt"), "utf8")).toBe("must survive");
      expect(hostPidsWith(home)).toEqual([]);
    },
    120_000,
  );

  it("removeTree deletes links, not their targets, and unreadable directories", () => {
    const t = join(root, "rt");
    const target = join(root, "rt-target");
    mkdirSync(join(t, "a", "b"), { recursive: true });
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, "x"), "x");
    symlinkSync(target, join(t, "a", "link"));
    chmodSync(join(t, "a", "b"), 0);
    removeTree(t);
    expect(existsSync(t)).toBe(false);
    expect(readFileSync(join(target, "x"), "utf8")).toBe("x");
  });
});

describe("harp CLI exit codes (0 ok, 1 invalid/failed, 2 usage or I/O)", () => {
  it("a missing path is 2, a symlink loop says so, an unknown app is 1, an unknown case is 2", async () => {
    const env = { YAOC_HARP_HOME: newHome("codes") };
    for (const cmd of ["validate", "hash", "install", "upgrade", "run"]) {
      const r = await yaoc(["harp", cmd, join(root, "missing")], { env });
      expect(r.code, `${cmd}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain("does not exist");
      expect(clean(r.stderr)).toBe(true);
    }
    const loop = join(root, "loop");
    symlinkSync(loop, loop);
    const l = await yaoc(["harp", "validate", loop], { env });
    expect(l.code).toBe(2);
    expect(l.stderr).toContain("symbolic link loop");
    const s = await yaoc(["harp", "start", "nope"], { env });
    expect(s.code).toBe(1);
    expect(s.stderr).toContain("harp.not_installed");
    const bad = await yaoc(["harp", "start", "../../etc"], { env });
    expect(bad.code).toBe(1);
    const c = await yaoc(["harp", "conformance", "--only", "C99"], { env });
    expect(c.code).toBe(2);
    expect(c.stderr).toContain("C99");
  }, 60_000);

  it.skipIf(SKIP_WITHOUT_SANDBOX)(
    "start and stop through the CLI never end with exit 13 (skipped without bwrap)",
    async () => {
      const home = newHome("exit13");
      const env = { YAOC_HARP_HOME: home };
      expect((await yaoc(["harp", "install", fixture(join(root, "pkg-13"))], { env })).code).toBe(0);
      for (let i = 0; i < 2; i++) {
        const st = await yaoc(["harp", "start", "harp-fixture"], { env });
        expect(st.code, st.stderr).toBe(0);
        expect((await yaoc(["harp", "stop", "harp-fixture"], { env })).code).toBe(0);
      }
    },
    90_000,
  );
});

describe.skipIf(SKIP_WITHOUT_SANDBOX)("yaoc harp conformance (skipped without bwrap)", () => {
  it("streams one line per case and, on SIGINT, prints what ran and stops every process it started", async () => {
    const { spawn } = await import("node:child_process");
    const { YAOC } = await import("./helpers.js");
    const c = spawn(process.execPath, [YAOC, "harp", "conformance", "--only", "C01,C09,C27,C28"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    c.stderr.on("data", (b: Buffer) => (err += b.toString()));
    const first = new Promise<void>((resolve) =>
      c.stdout.on("data", (b: Buffer) => {
        out += b.toString();
        if (/^C01 {2}PASS/m.test(out)) resolve();
      }),
    );
    await first;
    // C09 starts an app next; interrupt while it runs.
    await new Promise((r) => setTimeout(r, 700));
    c.kill("SIGINT");
    const code = await new Promise<number | null>((resolve) => c.on("close", (k) => resolve(k)));
    expect(code, err).toBe(130);
    expect(out).toMatch(/^C01 {2}PASS/m);
    expect(out).toMatch(/interrupted/);
    expect(out).not.toMatch(/^C28/m);
    expect(clean(err)).toBe(true);
    expect(hostPidsWith("yaoc-harp-conf-")).toEqual([]);
  }, 90_000);
});

describe.skipIf(SKIP_WITHOUT_SANDBOX)("as an unprivileged user (skipped without bwrap)", () => {
  const nobody = ["/usr/bin/setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups"];
  const canSwitch =
    typeof process.getuid === "function" && process.getuid() === 0 && existsSync(nobody[0]!) && NO_NOBODY_RUN === null;

  it.skipIf(!canSwitch)(
    "the host still confines apps (user namespace): no other app's data, signals or sockets, no /dev or sysctl writes, stop kills all (skipped unless root can run as nobody)",
    async () => {
      const home = join(root, "nobody-home");
      mkdirSync(home, { recursive: true });
      chownSync(home, NOBODY, NOBODY);
      track(home);
      const env = { YAOC_HARP_HOME: home, HOME: home };
      const a = writeApp(
        join(root, "nobody-attacker"),
        HOSTILE_MANIFEST("attacker", { network: "none", filesystem: "data-only" }),
        HOSTILE_SERVER_MJS,
      );
      const v = fixture(join(root, "nobody-victim"));
      const run = (args: string[]) => yaoc(["harp", ...args], { wrap: nobody, env });
      for (const p of [a, v]) expect((await run(["install", p])).code).toBe(0);
      const sa = await run(["start", "attacker"]);
      expect(sa.code, sa.stderr).toBe(0);
      expect((await run(["start", "harp-fixture"])).code).toBe(0);
      const caps = JSON.parse((await run(["capabilities"])).stdout) as {
        "x-yaoc": { sandbox: string; limits: Record<string, unknown> };
      };
      expect(caps["x-yaoc"].sandbox).toContain("user namespace");
      const h = new HarpHost({ home });
      const url = h.state("attacker")!.url;
      const me = await call(url, "/whoami");
      expect(me["capEff"]).toBe("0000000000000000");
      expect(me["pidsVisible"]).toBeLessThan(20);
      // Positive controls, then the attacks.
      expect(await call(url, "/write", { path: join(h.layout.data("attacker"), "ok") })).toMatchObject({ ok: true });
      expect(await call(url, "/read", { path: join(h.layout.bundle("attacker"), "server.mjs") })).toMatchObject({
        ok: true,
      });
      expect(await call(url, "/signal-own-child")).toMatchObject({ ok: true });
      expect(await call(url, "/read", { path: join(h.layout.data("harp-fixture"), "counter.txt") })).toMatchObject({
        ok: false,
      });
      expect(await call(url, "/write", { path: join(h.layout.data("harp-fixture"), "pwned.txt") })).toMatchObject({
        ok: false,
      });
      expect(await call(url, "/signal", { pid: h.status("harp-fixture")[0]!.pid! })).toMatchObject({ ok: false });
      expect(
        await call(url, "/unix", { path: join(h.layout.run("harp-fixture"), "sock", "bridge.sock") }),
      ).toMatchObject({ ok: false });
      expect(await call(url, "/write", { path: "/dev/yaoc-rt-escape" })).toMatchObject({ ok: false });
      expect(await call(url, "/open-write", { path: "/proc/sys/kernel/domainname" })).toMatchObject({ ok: false });
      expect(await call(url, "/read", { path: "/etc/passwd" })).toMatchObject({ ok: false });
      expect(await call(url, "/fork", { n: 5 })).toMatchObject({ ok: true });
      const bomb = await call(url, "/fork", { n: 1000 }, 60_000);
      expect(bomb["ok"]).toBe(false);
      expect(await call(url, "/alloc", { mb: 32 })).toMatchObject({ ok: true });
      expect((await call(url, "/alloc", { mb: 2048 }, 60_000))["ok"]).toBe(false);
      expect(await call(url, "/spawn-detached", { token: "424242" })).toMatchObject({ ok: true });
      // The app answers once it has spawned the child; its exec of `sleep` may come a little later.
      expect(await waitFor(() => hostPidsWith("sleep\u00003424242").length > 0, 10_000)).toBe(true);
      for (const id of ["attacker", "harp-fixture"]) expect((await run(["stop", id])).code).toBe(0);
      expect(hostPidsWith("sleep\u00003424242")).toEqual([]);
      expect(hostPidsWith(home)).toEqual([]);
    },
    120_000,
  );
});

describe("resource limits", () => {
  it("limits come from cgroup v1 or rlimits, never cgroup v2; without cgroup v1 groups the host says v2 is not implemented", () => {
    resetSandboxProbe();
    const caps = probeSandbox();
    expect(["cgroup-v1", "rlimit-data", null]).toContain(caps.limits.memory);
    expect(["cgroup-v1", "rlimit-nproc", null]).toContain(caps.limits.pids);
    expect(["cgroup-v1", null]).toContain(caps.limits.cpu);
    if (caps.tools !== null && Object.keys(caps.cgroupBases).length === 0) {
      expect(caps.notes).toContain(
        "cgroup v2 delegation is not implemented; rlimits are used where cgroup v1 is unavailable",
      );
      expect(caps.limits.memory).toBe("rlimit-data");
    }
  });
});
