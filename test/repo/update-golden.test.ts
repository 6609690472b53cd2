/**
 * One golden-update switch (issue 15): UPDATE_GOLDEN=1 for every suite, refused when CI is set.
 * The behaviour of the switch itself, and a scan that no suite grows a second, private switch
 * (A3S_WRITE_FIXTURES is not one: it regenerates fixture inputs, which the goldens then judge).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GOLDEN_SUITES } from "../../src/cli/golden/suites.js";
import { REPO_ROOT } from "../support/shared.js";
import { updateGoldenRequested } from "../support/update-golden.js";

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });
}

describe("UPDATE_GOLDEN", () => {
  it("is off unless exactly 1", () => {
    expect(updateGoldenRequested({})).toBe(false);
    expect(updateGoldenRequested({ UPDATE_GOLDEN: "true" })).toBe(false);
    expect(updateGoldenRequested({ UPDATE_GOLDEN: "1" })).toBe(true);
    expect(updateGoldenRequested({ UPDATE_GOLDEN: "1", CI: "" })).toBe(true);
  });

  it("is refused, loudly, when CI is set", () => {
    expect(() => updateGoldenRequested({ UPDATE_GOLDEN: "1", CI: "true" })).toThrow(/refused when CI is set/);
    expect(() => updateGoldenRequested({ UPDATE_GOLDEN: "1", CI: "1" })).toThrow(/refused/);
  });

  it("is the only switch: no test reads another update variable", () => {
    const offenders = files(join(REPO_ROOT, "test"))
      .filter((f) => !f.endsWith(join("support", "update-golden.ts")) && !f.endsWith("update-golden.test.ts"))
      .filter((f) => /process\.env(?:\.|\[")\w*UPDATE\w*/.test(readFileSync(f, "utf8")));
    expect(offenders).toEqual([]);
  });

  it("is the switch every golden suite's update command and every README names (no other spelling)", () => {
    for (const suite of GOLDEN_SUITES) {
      if (!suite.writtenBy.includes("vitest")) continue;
      expect(suite.writtenBy, suite.folder).toMatch(/^UPDATE_GOLDEN=1 npx vitest run test\//);
      const testFile = suite.writtenBy.split(" ").pop()!;
      expect(existsSync(join(REPO_ROOT, testFile)), testFile).toBe(true);
    }
    for (const doc of ["README.md", "golden/README.md", "fixtures/README.md", "docs/architecture.md"]) {
      const text = readFileSync(join(REPO_ROOT, doc), "utf8");
      expect(text.match(/\b\w+_UPDATE_GOLDEN\b|\bUPDATE_GOLDEN_\w+/g) ?? [], doc).toEqual([]);
    }
  });
});
