/**
 * The HARP v1 host conformance suite (C01…C30, listed in docs/harp-conformance.md), each case against the real
 * host with real processes. The same cases run from `yaoc harp conformance`.
 */
import { describe, expect, it } from "vitest";
import { CASES, fixtureMatches, runCase } from "../../src/harp/host/conformance.js";
import { FIXTURE_APP } from "../harp/helpers.js";

describe("HARP v1 host conformance", () => {
  it("the published fixture app equals the embedded one", () => {
    expect(fixtureMatches(FIXTURE_APP)).toBe(true);
  });

  for (const c of CASES) {
    it(`${c.id} ${c.title} (${c.clause})`, async () => {
      const r = await runCase(c);
      expect(r.detail).toBe("");
      expect(r.passed).toBe(true);
    }, 90_000);
  }
});
