/**
 * Issue 35 item 9: the duplicate-parameter check finds a repeat in one lookup. 20,000 parameters
 * with the repeat last still name it and point at the first declaration; the time is the bench's
 * business (growth per doubling), not this test's.
 */
import { describe, expect, it } from "vitest";
import { checkSource } from "../../../src/check/check.js";

describe("duplicate parameters over many parameters", () => {
  it("20,000 parameters with the repeat last give one duplicate_name with the first as related", async () => {
    const params = Array.from({ length: 20_000 }, (_, i) => `(p${i} Int)`).join(" ");
    const src = `(manifest (id acme.x) (version "1.0.0") (title "t") (capabilities (tools read)))
(contract (purpose "p"))
(fn f (visibility exported) (description "d") (params ${params} (p7 Int)) (returns Int) (effects) (body 1))
(eval (requires (tools read)) 1)
`;
    const r = await checkSource("d.hns", src);
    const dup = r.diagnostics.filter((d) => d.code === "yao.duplicate_name");
    expect(dup).toHaveLength(1);
    expect(dup[0]!.message).toBe("invalid or duplicate fn parameter 'p7'");
    expect(dup[0]!.related?.[0]?.message).toBe("first declared here");
    expect(dup[0]!.related?.[0]?.span?.start.byte).toBe(src.indexOf("(p7 Int)"));
  });
});
