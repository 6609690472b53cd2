/**
 * The sandbox attack suite (issue 13): the hostile app in src/harp/host/hostile-app.ts runs through
 * the real host with real processes and tries every escape; each case asserts the attempt is
 * blocked and has a positive control (src/harp/host/sandbox-cases.ts, also `yaoc harp conformance`
 * C31…C42). The cases share one installed home, built once.
 */
import { afterAll, describe, expect, it } from "vitest";
import { runCase, Shared } from "../../src/harp/host/conformance.js";
import { findNetworkHelper, probeSandbox, REQUIRED_PROPERTIES } from "../../src/harp/host/sandbox.js";
import { SANDBOX_CASES } from "../../src/harp/host/sandbox-cases.js";
import { announceSandboxSkip, REQUIRE_SYSTEM_TOOLS, SKIP_WITHOUT_SANDBOX } from "../support/system-tools.js";

announceSandboxSkip("test/harp-sandbox/attacks.test.ts");

const shared = new Shared();
afterAll(() => shared.close(), 60_000);

describe.skipIf(SKIP_WITHOUT_SANDBOX)("a hostile app through the real host (skipped without bwrap)", () => {
  it("this machine can sandbox apps (CI installs bubblewrap first; see README)", () => {
    const caps = probeSandbox();
    expect(caps.notes.filter((n) => n.includes("probe failed") || n.includes("missing"))).toEqual([]);
    expect(caps.mode).not.toBeNull();
    for (const p of REQUIRED_PROPERTIES) expect(caps.properties[p], p).toBe(true);
    // network "allow" needs slirp4netns, which CI installs (YAOC_REQUIRE_SYSTEM_TOOLS=1).
    const allow = findNetworkHelper() !== null || REQUIRE_SYSTEM_TOOLS;
    expect(caps.network).toEqual(allow ? ["none", "loopback", "allow"] : ["none", "loopback"]);
  });

  for (const c of SANDBOX_CASES) {
    it(`${c.id} ${c.title}`, async () => {
      const r = await runCase(c, shared);
      expect(r.detail).toBe("");
      expect(r.passed).toBe(true);
    }, 90_000);
  }
});
