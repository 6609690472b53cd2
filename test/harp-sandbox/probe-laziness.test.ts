/**
 * The sandbox probe is paid for only where its answer matters (issue 28, HARP host performance).
 * The network "allow" measurement launches bwrap plus slirp4netns through a child Node process
 * (about 0.13 s on an idle 2-core machine, more under load); every locked host command used to run it. Now a command for an
 * app that does not ask for "allow" never launches the network helper, commands that start
 * nothing run no probe at all, and each measurement runs at most once per process.
 *
 * The observation is `sandboxProbeRuns()`, the count of measurements this process actually ran:
 * a PATH shim cannot see the helper, which is looked up in fixed system directories only.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURE_MANIFEST_JSON, FIXTURE_SERVER_MJS } from "../../src/harp/host/fixture-app.js";
import { HarpHost } from "../../src/harp/host/host.js";
import { HostError } from "../../src/harp/host/host-error.js";
import { findNetworkHelper, resetSandboxProbe, sandboxProbeRuns } from "../../src/harp/host/sandbox.js";
import { hostPidsWith, writeApp } from "../../src/harp/host/sandbox-cases.js";
import { announceSandboxSkip, SKIP_WITHOUT_SANDBOX } from "../support/system-tools.js";
import { appWorkspace } from "./helpers.js";

announceSandboxSkip("test/harp-sandbox/probe-laziness.test.ts");

const { root, newHome } = appWorkspace("yaoc-harp-probe-");

/** The fixture app under `id`, asking for `network`. */
function app(dir: string, id: string, network: string): string {
  const manifest = FIXTURE_MANIFEST_JSON.replace('"harp-fixture"', JSON.stringify(id)).replace(
    '"network": "loopback"',
    `"network": ${JSON.stringify(network)}`,
  );
  expect(manifest).toContain(`"network": ${JSON.stringify(network)}`);
  expect(manifest).toContain(`"id": ${JSON.stringify(id)}`);
  return writeApp(dir, manifest, FIXTURE_SERVER_MJS);
}

/** The measurements run since `before`. */
function since(before: { base: number; networkAllow: number }): { base: number; networkAllow: number } {
  const now = sandboxProbeRuns();
  return { base: now.base - before.base, networkAllow: now.networkAllow - before.networkAllow };
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "ok";
  } catch (e) {
    if (e instanceof HostError) return e.diagnostics.map((d) => d.code).join(",");
    throw e;
  }
}

describe.skipIf(SKIP_WITHOUT_SANDBOX)("the sandbox probe runs only where it matters (skipped without bwrap)", () => {
  it("install, status, logs, stop, upgrade and uninstall of a loopback app run no probe; its start never launches the network helper", async () => {
    resetSandboxProbe();
    const before = sandboxProbeRuns();
    const home = newHome("loopback");
    const h = new HarpHost({ home });
    const pkg = app(join(root, "pkg-loop"), "probe-loop", "loopback");
    await h.install(pkg);
    h.status();
    await h.stop("probe-loop");
    await h.upgrade(pkg);
    expect(since(before)).toEqual({ base: 0, networkAllow: 0 });

    const st = await h.start("probe-loop");
    expect((await fetch(`${st.url}/health`)).status).toBe(200);
    await h.stop("probe-loop");
    await h.start("probe-loop");
    h.logs("probe-loop");
    await h.stop("probe-loop");
    await h.uninstall("probe-loop", { purge: true });
    // One base measurement for two starts (cached per process), and no network "allow" launch.
    expect(since(before)).toEqual({ base: 1, networkAllow: 0 });
    expect(hostPidsWith(home)).toEqual([]);
  }, 120_000);

  it('only a consented start of an "allow" app measures "allow", once per process; the capability set measures it too', async () => {
    resetSandboxProbe();
    const before = sandboxProbeRuns();
    const home = newHome("allow");
    const h = new HarpHost({ home });
    await h.install(app(join(root, "pkg-allow"), "probe-allow", "allow"));
    // Without consent nothing is measured: the refusal comes first.
    expect(await codeOf(h.start("probe-allow"))).toBe("harp.network_consent_required");
    expect(since(before)).toEqual({ base: 0, networkAllow: 0 });

    const first = await codeOf(h.start("probe-allow", { allowNetwork: true }));
    // Where slirp4netns works the app runs; elsewhere the measured refusal says why.
    expect(first).toBe(findNetworkHelper() === null ? "harp.permission_unenforceable" : "ok");
    expect(since(before)).toEqual({ base: 1, networkAllow: 1 });
    await h.stop("probe-allow");
    await codeOf(h.start("probe-allow", { allowNetwork: true }));
    await h.stop("probe-allow");
    const caps = h.capabilities() as { permissions: { network: string[] } };
    expect(caps.permissions.network.includes("allow")).toBe(first === "ok");
    expect(since(before)).toEqual({ base: 1, networkAllow: 1 });
    await h.uninstall("probe-allow", { purge: true });
    expect(hostPidsWith(home)).toEqual([]);
  }, 120_000);

  it("the capability set of a fresh process measures both launches", () => {
    resetSandboxProbe();
    const before = sandboxProbeRuns();
    const caps = new HarpHost({ home: newHome("caps") }).capabilities() as { permissions: { network: string[] } };
    expect(caps.permissions.network).toEqual(expect.arrayContaining(["none", "loopback"]));
    expect(since(before)).toEqual({ base: 1, networkAllow: 1 });
  }, 60_000);
});
