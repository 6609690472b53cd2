/**
 * Issue 28, item 4: two HARP host rules that were enforced but never tested.
 *
 * §8.4: "the grace period SHOULD be 5 s, MAY be configurable, MUST NOT exceed 30 s". The clamp is
 * tested on the computed value, never by waiting: the host's `graceMs`, and the value the
 * supervisor is handed (run/<id>/supervisor.json) and says it uses (its log line), for a host
 * configured with 60 s.
 *
 * §17, host toward agents, 4: "do not uninstall an app before the user explicitly asks". A failed
 * upgrade (invalid package, changed id, new version that exits before ready), a failed start, a
 * stop (also a forced one), a crashed supervisor and the sweeps every later command runs all leave
 * the app installed, its bundle readable and its data in place; only `uninstall` removes it (the
 * control that shows the "still installed" observation can fail).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURE_MANIFEST_JSON, FIXTURE_SERVER_MJS } from "../../src/harp/host/fixture-app.js";
import { DEFAULT_GRACE_MS, HarpHost, MAX_GRACE_MS, processAlive } from "../../src/harp/host/host.js";
import { HostError } from "../../src/harp/host/host-error.js";
import { hostPidsWith, waitFor, writeApp } from "../../src/harp/host/sandbox-cases.js";
import { announceSandboxSkip, SKIP_WITHOUT_SANDBOX } from "../support/system-tools.js";
import { appWorkspace, supervisors } from "./helpers.js";

announceSandboxSkip("test/harp-sandbox/host-rules.test.ts");

const { root, newHome } = appWorkspace("yaoc-harp-rules-");
const ID = "harp-fixture";

/** The fixture app at `version`, started with the misbehaviour words `modes` (fixture-app.ts). */
function fixture(dir: string, version: string, modes: readonly string[] = [], edit = (m: string) => m): string {
  const argv = JSON.stringify(["node", "server.mjs", ...modes]);
  const manifest = edit(
    FIXTURE_MANIFEST_JSON.replace('"1.0.0"', JSON.stringify(version)).replace('["node", "server.mjs"]', argv),
  );
  expect(manifest).toContain(argv);
  return writeApp(dir, manifest, FIXTURE_SERVER_MJS);
}

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof HostError) return e.diagnostics.map((d) => d.code).join(",");
    throw e;
  }
  return "no failure";
}

describe("§8.4: the grace period is clamped at 30 s", () => {
  it("the host's grace period: default 5 s, configurable, never above 30 s, never below 0", () => {
    const grace = (graceMs?: number) =>
      new HarpHost({ home: join(root, "unused"), ...(graceMs !== undefined ? { graceMs } : {}) }).graceMs;
    expect(MAX_GRACE_MS).toBe(30_000);
    expect(grace()).toBe(DEFAULT_GRACE_MS);
    expect(DEFAULT_GRACE_MS).toBe(5_000);
    expect(grace(1_000)).toBe(1_000);
    expect(grace(29_999)).toBe(29_999);
    expect(grace(30_000)).toBe(30_000);
    expect(grace(30_001)).toBe(30_000);
    expect(grace(60_000)).toBe(30_000);
    expect(grace(Number.MAX_SAFE_INTEGER)).toBe(30_000);
    expect(grace(-5)).toBe(0);
  });

  it.skipIf(SKIP_WITHOUT_SANDBOX)(
    "a host configured with 60 s hands its supervisor 30 s, and the supervisor stops with 30 s (skipped without bwrap)",
    async () => {
      const home = newHome("grace");
      const h = new HarpHost({ home, graceMs: 60_000 });
      await h.install(fixture(join(root, "pkg-grace"), "1.0.0"));
      await h.start(ID);
      const cfg = JSON.parse(readFileSync(join(h.layout.run(ID), "supervisor.json"), "utf8")) as { graceMs: number };
      expect(cfg.graceMs).toBe(30_000);
      await h.stop(ID);
      expect(h.logs(ID)).toContain("grace 30000 ms");
      expect(hostPidsWith(home)).toEqual([]);
    },
    120_000,
  );
});

describe.skipIf(SKIP_WITHOUT_SANDBOX)("§17 host 4: nothing is uninstalled unless asked (skipped without bwrap)", () => {
  it("failed upgrades, failed starts, stops, a crash and later sweeps keep the app installed; uninstall removes it", async () => {
    const home = newHome("keep");
    const h = new HarpHost({ home, graceMs: 1_000 });
    await h.install(fixture(join(root, "pkg-v1"), "1.0.0"));
    const marker = join(h.layout.data(ID), "marker");
    const still = (version: string, why: string) => {
      expect(h.installedIds(), why).toEqual([ID]);
      expect(h.record(ID)?.version, why).toBe(version);
      expect(existsSync(join(h.layout.bundle(ID), "server.mjs")), why).toBe(true);
      expect(readFileSync(marker, "utf8"), why).toBe("kept");
    };
    writeFileSync(marker, "kept");
    const st = await h.start(ID);
    expect((await fetch(`${st.url}/health`)).status).toBe(200);

    // Upgrades that fail before anything is replaced: the running v1 stays installed.
    const invalid = fixture(join(root, "pkg-bad"), "2.0.0", [], (m) => m.replace('"runtime"', '"runtime-typo"'));
    expect(await failure(h.upgrade(invalid))).toMatch(/^harp\./);
    still("1.0.0", "invalid upgrade");
    const renamed = fixture(join(root, "pkg-renamed"), "2.0.0", [], (m) => m.replace(`"${ID}"`, '"other-app"'));
    expect(await failure(h.upgrade(renamed, ID))).toBe("harp.id_changed");
    still("1.0.0", "upgrade that changes the id");
    expect(h.isRunning(ID)).toBe(true);

    // An upgrade whose new version exits before ready: installed (as the new version), not running.
    expect(await failure(h.upgrade(fixture(join(root, "pkg-v2"), "2.0.0", ["exit-early"])))).toBe("harp.start_failed");
    expect(h.isRunning(ID)).toBe(false);
    still("2.0.0", "upgrade whose restart failed");
    expect(await failure(h.start(ID))).toBe("harp.start_failed");
    still("2.0.0", "start that failed");

    // A start that times out, a forced stop and an ordinary stop.
    await h.install(fixture(join(root, "pkg-v3"), "3.0.0", ["never-ready"]));
    expect(await failure(h.start(ID, { timeoutMs: 1_500 }))).toBe("harp.ready_timeout");
    still("3.0.0", "start that timed out");
    await h.install(fixture(join(root, "pkg-v4"), "4.0.0", ["ignore-term"]));
    await h.start(ID);
    expect((await h.stop(ID)).forced).toBe(true);
    still("4.0.0", "forced stop");

    // A supervisor killed with SIGKILL (a crash), then the sweeps of later locked commands.
    await h.start(ID);
    const [sup] = supervisors(home);
    expect(sup).toBeGreaterThan(0);
    process.kill(sup!, "SIGKILL");
    expect(await waitFor(() => !processAlive(sup!), 10_000)).toBe(true);
    expect(await waitFor(() => !h.isRunning(ID), 10_000)).toBe(true);
    still("4.0.0", "crashed supervisor");
    await h.stop(ID);
    expect(h.status().map((s) => s.id)).toEqual([ID]);
    still("4.0.0", "sweep after the crash");

    // The CLI's read-only and lifecycle commands too.
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [join(process.cwd(), "bin/yaoc.js"), "harp", ...args], {
        encoding: "utf8",
        timeout: 60_000,
        env: { ...process.env, YAOC_HARP_HOME: home },
      });
    for (const args of [["status"], ["logs", ID], ["stop", ID]]) expect(cli(...args).status).toBe(0);
    still("4.0.0", "status, logs, stop through the CLI");

    // Control: asked to uninstall, the host removes the app (the data stays without --purge).
    expect(cli("uninstall", ID).status).toBe(0);
    expect(h.installedIds()).toEqual([]);
    expect(h.record(ID)).toBeNull();
    expect(readFileSync(marker, "utf8")).toBe("kept");
    expect(hostPidsWith(home)).toEqual([]);
  }, 180_000);
});
