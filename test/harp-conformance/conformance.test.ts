/**
 * The HARP v1 host conformance suite (C01…C30, listed in docs/harp-conformance.md), each case against the real
 * host with real processes. The same cases run from `yaoc harp conformance`.
 */
import { describe, expect, it } from "vitest";
import { CASES, fixtureMatches, runCase } from "../../src/harp/host/conformance.js";
import { FIXTURE_APP } from "../harp/helpers.js";
import { announceSandboxSkip, SANDBOX_SKIP_NOTE, SKIP_WITHOUT_SANDBOX } from "../support/system-tools.js";

announceSandboxSkip("test/harp-conformance/conformance.test.ts");

describe("HARP v1 host conformance", () => {
  it("the published fixture app equals the embedded one", () => {
    expect(fixtureMatches(FIXTURE_APP)).toBe(true);
  });

  for (const c of CASES) {
    it(`${c.id} ${c.title} (${c.clause})`, async (ctx) => {
      const r = await runCase(c);
      // Without a sandbox the host refuses to start apps, so the cases that start one cannot be
      // judged here; the static cases (schema, argv rules, refusals) still run.
      if (!r.passed && SKIP_WITHOUT_SANDBOX && r.detail.includes("no working sandbox")) ctx.skip(SANDBOX_SKIP_NOTE);
      expect(r.detail).toBe("");
      expect(r.passed).toBe(true);
    }, 90_000);
  }
});
