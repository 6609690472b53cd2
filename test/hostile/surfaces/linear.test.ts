/**
 * Issue 35 item 9: the duplicate-parameter check finds a repeat in one lookup. 20,000 parameters
 * with the repeat last still name it and point at the first declaration; the time is the bench's
 * business (growth per doubling: figure s-params, bench/surfaces.ts, with this test's generator),
 * not this test's.
 */
import { describe, expect, it } from "vitest";
import { manyParamsPackage } from "../../../bench/params.js";
import { checkSource } from "../../../src/check/check.js";

describe("duplicate parameters over many parameters", () => {
  it("20,000 parameters with the repeat last give one duplicate_name with the first as related", async () => {
    const { source: src, firstAt } = manyParamsPackage(20_000);
    const r = await checkSource("d.hns", src);
    const dup = r.diagnostics.filter((d) => d.code === "yao.duplicate_name");
    expect(dup).toHaveLength(1);
    expect(dup[0]!.message).toBe("invalid or duplicate fn parameter 'p7'");
    expect(dup[0]!.related?.[0]?.message).toBe("first declared here");
    expect(dup[0]!.related?.[0]?.span?.start.byte).toBe(firstAt);
  });
});
