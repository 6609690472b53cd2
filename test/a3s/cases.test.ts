/**
 * Our own A3S rule cases (fixtures/a3s/cases, written by test/a3s/cases-gen.ts): each case's
 * hand-written verdict must hold, and our code must still produce the recorded result. The
 * reference's cases of the same rules: test/reference/a3s-*.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { OkfLimits } from "../../src/a3s/okf/contract.js";
import {
  aclResult,
  CASES,
  manifestResult,
  okfResult,
  pathResult,
  reqResult,
  versionResult,
  writeCases,
} from "./cases-gen.js";
import { checkAclCase } from "./acl-cases.js";

if (process.env["A3S_WRITE_FIXTURES"] === "1") writeCases();

const load = <T>(name: string): T[] => JSON.parse(readFileSync(join(CASES, `${name}.json`), "utf8")) as T[];

describe("ACL reader (fixtures/a3s/cases/acl-parse.json)", () => {
  type Result = ReturnType<typeof aclResult>;
  const cases = load<{ id: string; input: string; expect: string; result: Result }>("acl-parse");
  test.each(cases.map((c) => [c.id, c] as const))("%s", (_id, c) => {
    expect(aclResult(c.input)).toEqual(c.result);
    // The check the reference's cases go through too (test/a3s/acl-cases.ts).
    checkAclCase(
      c.input,
      c.expect === "rejected"
        ? { ok: false }
        : { ok: true, ...(c.expect === "canonical" || c.expect === "lenient" ? { strict: c.expect } : {}) },
    );
  });
  test("every verdict is represented", () =>
    expect(new Set(cases.map((c) => c.expect))).toEqual(new Set(["canonical", "lenient", "accepted", "rejected"])));
});

describe("Cargo SemVer (fixtures/a3s/cases/semver-*.json)", () => {
  const reqs = load<{ requirement: string; expect: string; result: ReturnType<typeof reqResult> }>(
    "semver-requirements",
  );
  test.each(reqs.map((c) => [JSON.stringify(c.requirement), c] as const))("requirement %s", (_n, c) => {
    const r = reqResult(c.requirement);
    expect(r).toEqual(c.result);
    expect(r.ok ? "ok" : "error").toBe(c.expect);
  });
  const versions = load<{ version: string; expect: string; result: ReturnType<typeof versionResult> }>(
    "semver-versions",
  );
  test.each(versions.map((c) => [JSON.stringify(c.version), c] as const))("version %s", (_n, c) => {
    const r = versionResult(c.version);
    expect(r).toEqual(c.result);
    expect(r.ok ? "ok" : "error").toBe(c.expect);
  });
  test("caret, tilde and comparators select the documented versions", () => {
    const m = (req: string) =>
      Object.entries(reqs.find((c) => c.requirement === req)!.result).length &&
      (reqResult(req) as { matches: Record<string, boolean> }).matches;
    const selected = (req: string) =>
      Object.entries(m(req))
        .filter(([, ok]) => ok)
        .map(([v]) => v);
    expect(selected("^2.4.6")).toEqual(["2.4.6", "2.8.1"]);
    expect(selected("~2.4")).toEqual(["2.4.6"]);
    expect(selected("^0.5.0")).toEqual(["0.5.0", "0.5.4"]);
    expect(selected(">=0.5.0, <0.6.0")).toEqual(["0.5.0", "0.5.4"]);
    // A pre-release matches only a comparator naming the same major.minor.patch with a pre-release.
    expect(selected("^2.0.0-beta.1")).toEqual(["2.0.0-beta.1", "2.0.0", "2.4.6", "2.8.1"]);
  });
});

describe("Rust path semantics (fixtures/a3s/cases/rust-paths.json)", () => {
  const cases = load<{ path: string; expect: string; result: ReturnType<typeof pathResult> }>("rust-paths");
  test.each(cases.map((c) => [JSON.stringify(c.path), c] as const))("%s", (_n, c) => {
    const r = pathResult(c.path);
    expect(r).toEqual(c.result);
    expect(r.rejects ? "rejected" : "relative").toBe(c.expect);
  });
});

describe("schema v3 manifest rules (fixtures/a3s/cases/manifest-rules.json)", () => {
  const cases = load<{
    id: string;
    text: string;
    expect: { code: string | null; strict: string | null };
    result: ReturnType<typeof manifestResult>;
  }>("manifest-rules");
  test.each(cases.map((c) => [c.id, c] as const))("%s", (_id, c) => {
    const r = manifestResult(c.text);
    expect(r).toEqual(c.result);
    if (c.expect.code !== null) {
      expect(r.reference?.code).toBe(c.expect.code);
      expect(r.reference?.message.length).toBeGreaterThan(10);
      expect(r.manifestBuilt).toBe(false);
    } else if (c.expect.strict !== null) {
      expect(r.reference).toBeNull();
      expect(r.errors).toContain(c.expect.strict);
      expect(r.manifestBuilt).toBe(false);
    } else {
      expect(r.reference).toBeNull();
      expect(r.errors).toEqual([]);
      expect(r.manifestBuilt).toBe(true);
    }
  });
});

describe("OKF inspection (fixtures/a3s/cases/okf-inspection.json)", () => {
  const cases = load<{
    id: string;
    files: [string, string | number[]][];
    limits: OkfLimits;
    expect: string | null;
    result: ReturnType<typeof okfResult>;
  }>("okf-inspection");
  test.each(cases.map((c) => [c.id, c] as const))("%s", (_id, c) => {
    const r = okfResult(c.files, c.limits);
    expect(r).toEqual(c.result);
    if (c.expect === null) expect(r.ok).toBe(true);
    else expect(r.ok ? null : r.errors[0]!.code).toBe(c.expect);
  });
});

describe("calls, objects and null (docs/divergences/a3s.md)", () => {
  const base = load<{ id: string; text: string }>("manifest-rules").find((c) => c.id === "own-workbench-ok")!.text;
  const withRoute = (value: string) => base.replace(/route( *)= "workbench"/, `route$1= ${value}`);
  test.each(["null", 'lookup("x")', "{ a = 1 }"])(
    "route = %s parses canonically and is rejected by the schema's type check",
    (value) => {
      const text = withRoute(value);
      expect(text).not.toBe(base);
      const r = manifestResult(text);
      // Only the schema's type error: the ACL reader took the value as canonical syntax.
      expect(r.errors).toEqual(["a3s.manifest.attribute_type"]);
      expect(r.reference?.code).toBe("use.extension.manifest_invalid");
      expect(r.manifestBuilt).toBe(false);
    },
  );
  test("the same manifest with a string route is built", () => expect(manifestResult(base).manifestBuilt).toBe(true));
});
