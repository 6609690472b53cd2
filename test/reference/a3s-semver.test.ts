import { expect, test } from "vitest";
import {
  formatVersion,
  formatVersionReq,
  parseVersion,
  parseVersionReq,
  reqMatches,
} from "../../src/a3s/resolve/semver.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describeReference, REPO, referenceJson } from "./reference.js";

interface ReqCase {
  requirement: string;
  result:
    | { ok: true; display: string; canonical: boolean; matches: Record<string, boolean> }
    | { ok: false; error: string };
}
interface VersionCase {
  version: string;
  result: { ok: true; display: string; canonical: boolean } | { ok: false; error: string };
}

describeReference("Cargo SemVer against semver-1.0.27-requirement-cases.json", () => {
  const cases = referenceJson<ReqCase[]>("reference", "a3s", "semver-1.0.27-requirement-cases.json");
  test.each(cases.map((c) => [JSON.stringify(c.requirement), c] as const))("%s", (_n, c) => {
    const r = parseVersionReq(c.requirement);
    if (!c.result.ok) {
      expect(r).toEqual({ ok: false, error: c.result.error });
      return;
    }
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const display = formatVersionReq(r.value);
    expect(display).toBe(c.result.display);
    expect(display === c.requirement).toBe(c.result.canonical);
    const matches: Record<string, boolean> = {};
    for (const v of Object.keys(c.result.matches)) {
      const pv = parseVersion(v);
      if (!pv.ok) throw new Error(pv.error);
      matches[v] = reqMatches(r.value, pv.value);
    }
    expect(matches).toEqual(c.result.matches);
  });
});

describeReference("Cargo SemVer against semver-1.0.27-version-cases.json", () => {
  const cases = referenceJson<VersionCase[]>("reference", "a3s", "semver-1.0.27-version-cases.json");
  test.each(cases.map((c) => [JSON.stringify(c.version), c] as const))("%s", (_n, c) => {
    const v = parseVersion(c.version);
    if (!c.result.ok) {
      expect(v).toEqual({ ok: false, error: c.result.error });
      return;
    }
    expect(v.ok).toBe(true);
    if (v.ok) expect(formatVersion(v.value)).toBe(c.result.display);
  });
});

describeReference("our SemVer cases (fixtures/a3s/cases) against the reference on the inputs both have", () => {
  const ownReqs = JSON.parse(readFileSync(join(REPO, "fixtures/a3s/cases/semver-requirements.json"), "utf8")) as {
    requirement: string;
    expect: string;
  }[];
  const refReqs = new Map(
    referenceJson<ReqCase[]>("reference", "a3s", "semver-1.0.27-requirement-cases.json").map((c) => [
      c.requirement,
      c.result.ok,
    ]),
  );
  test("the same requirement has the same verdict", () => {
    const shared = ownReqs.filter((c) => refReqs.has(c.requirement));
    expect(shared.length).toBeGreaterThanOrEqual(4);
    for (const c of shared) expect(c.expect === "ok", c.requirement).toBe(refReqs.get(c.requirement));
  });
});
