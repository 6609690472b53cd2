import { describe, expect, test } from "vitest";
import { readVerifiedRecord, type VerifiedRecord } from "../../src/a3s/resolve/verified-record.js";
import type { CJson } from "../../src/a3s/package/cjson.js";
import { verifyLock } from "../../src/a3s/resolve/lock.js";
import { buildLock, lockDigest, resolve } from "../../src/a3s/resolve/resolver.js";
import { catalogRecordCasesOn, verifiedInput } from "./catalog-record-cases.js";
import { atlasRecord } from "./own-package.js";

/** Our own catalog-v3 record (test/a3s/own-package.ts); the reference's: test/reference/a3s-resolve.test.ts. */
const BASE = atlasRecord();
const HOST = { target: "linux-x86_64", useVersion: "0.3.0" };

interface Opts {
  deps?: [string, string][];
  registry?: string;
  channel?: string;
  target?: string;
  state?: string;
  requiresUse?: string;
}

export function verified(id: string, version: string, o: Opts = {}) {
  const record: Record<string, CJson> = {
    ...BASE,
    packageId: id,
    version,
    channel: o.channel ?? "stable",
    target: o.target ?? "linux-x86_64",
    availability: { state: o.state ?? "available" },
  };
  if (o.requiresUse) record["requiresUse"] = o.requiresUse;
  if (o.deps && o.deps.length > 0)
    record["dependencies"] = o.deps.map(([packageId, versionRequirement]) => ({ packageId, versionRequirement }));
  return verifiedInput(record, o.registry);
}

function rec(id: string, version: string, o: Opts = {}): VerifiedRecord {
  const r = readVerifiedRecord(verified(id, version, o));
  if (!r.ok) throw new Error(r.problems.join("; "));
  return r.value;
}

const versions = (sel: Map<string, VerifiedRecord>) => Object.fromEntries([...sel].map(([k, v]) => [k, v.versionText]));

describe("resolver (reference §3.3 scenarios of plugin_package_dependencies.rs)", () => {
  catalogRecordCasesOn("our record", BASE);

  test("highest compatible closure, install and removal order", () => {
    const root = rec("acme/root", "1.0.0", { deps: [["acme/base", ">=1.0.0, <2.0.0"]] });
    const cands = [
      rec("acme/base", "1.0.0", { deps: [["acme/leaf", "^2.0.0"]] }),
      rec("acme/base", "1.5.0", { deps: [["acme/leaf", "^2.0.0"]] }),
      rec("acme/leaf", "2.0.0"),
      rec("acme/leaf", "2.3.0"),
      rec("acme/leaf", "3.0.0"),
    ];
    const r = resolve(HOST, root, cands);
    if (!("ok" in r)) throw new Error(r.message);
    expect(versions(r.selected)).toEqual({ "acme/root": "1.0.0", "acme/base": "1.5.0", "acme/leaf": "2.3.0" });
    const lock = buildLock(HOST, "acme/root", r.selected);
    const v = verifyLock(JSON.parse(JSON.stringify(lock)));
    expect(v.problems).toEqual([]);
    expect(v.installOrder).toEqual(["acme/leaf", "acme/base", "acme/root"]);
    expect(v.removalOrder).toEqual(["acme/root", "acme/base", "acme/leaf"]);
    expect(v.digest).toBe(lockDigest(lock));
    expect(v.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  test("backtracking: alpha 2.0.0 needs shared ^2, beta needs shared ^1", () => {
    const root = rec("acme/root", "1.0.0", {
      deps: [
        ["acme/alpha", ">=1.0.0, <3.0.0"],
        ["acme/beta", "^1.0.0"],
      ],
    });
    const cands = [
      rec("acme/alpha", "2.0.0", { deps: [["acme/shared", "^2.0.0"]] }),
      rec("acme/alpha", "1.5.0", { deps: [["acme/shared", "^1.0.0"]] }),
      rec("acme/beta", "1.0.0", { deps: [["acme/shared", "^1.0.0"]] }),
      rec("acme/shared", "1.9.0"),
      rec("acme/shared", "2.1.0"),
    ];
    const r = resolve(HOST, root, cands);
    if (!("ok" in r)) throw new Error(r.message);
    expect(versions(r.selected)).toEqual({
      "acme/root": "1.0.0",
      "acme/alpha": "1.5.0",
      "acme/beta": "1.0.0",
      "acme/shared": "1.9.0",
    });
  });

  test("missing", () => {
    const r = resolve(HOST, rec("acme/root", "1.0.0", { deps: [["acme/base", "^1.0.0"]] }), []);
    expect(r).toMatchObject({
      kind: "missing",
      referenceCode: "use.plugin.package_dependency_missing",
      message: "No verified candidate exists for required cognitive package 'acme/base'.",
    });
  });

  test("conflict", () => {
    const r = resolve(HOST, rec("acme/root", "1.0.0", { deps: [["acme/base", "^2.0.0"]] }), [
      rec("acme/base", "1.0.0"),
    ]);
    expect(r).toMatchObject({
      kind: "conflict",
      referenceCode: "use.plugin.package_dependency_conflict",
      message: "No version of cognitive package 'acme/base' satisfies the complete dependency constraint set.",
    });
  });

  test("cycle root -> base -> root", () => {
    const r = resolve(HOST, rec("acme/root", "1.0.0", { deps: [["acme/base", "^1.0.0"]] }), [
      rec("acme/base", "1.0.0", { deps: [["acme/root", "^1.0.0"]] }),
    ]);
    expect(r).toMatchObject({ kind: "cycle", referenceCode: "use.plugin.package_dependency_cycle" });
  });

  test("registry ambiguity", () => {
    const r = resolve(HOST, rec("acme/root", "1.0.0", { deps: [["acme/base", "^1.0.0"]] }), [
      rec("acme/base", "1.0.0"),
      rec("acme/base", "1.1.0", { registry: "private" }),
    ]);
    expect(r).toMatchObject({
      kind: "registry_ambiguous",
      referenceCode: "use.plugin.package_registry_ambiguous",
      message: "Required cognitive package 'acme/base' is present in more than one registry.",
    });
  });

  test("incompatible: withdrawn, other target and other A3S Use are dropped", () => {
    const r = resolve(HOST, rec("acme/root", "1.0.0", { deps: [["acme/base", "^1.0.0"]] }), [
      rec("acme/base", "1.0.0", { state: "withdrawn" }),
      rec("acme/base", "1.1.0", { target: "darwin-arm64" }),
      rec("acme/base", "1.2.0", { requiresUse: ">=0.4.0" }),
    ]);
    expect(r).toMatchObject({ kind: "incompatible", referenceCode: "use.plugin.package_dependency_incompatible" });
    expect(resolve(HOST, rec("acme/root", "1.0.0", { target: "darwin-arm64" }), [])).toMatchObject({
      kind: "incompatible",
    });
  });

  test("candidate order: stable before beta, exact target before any", () => {
    const root = rec("acme/root", "1.0.0", { deps: [["acme/base", "^1.0.0"]] });
    const pick = (cands: VerifiedRecord[]) => {
      const r = resolve(HOST, root, cands);
      if (!("ok" in r)) throw new Error(r.message);
      return r.selected.get("acme/base")!;
    };
    expect(pick([rec("acme/base", "1.0.0", { channel: "beta" }), rec("acme/base", "1.0.0")]).channel).toBe("stable");
    expect(pick([rec("acme/base", "1.0.0", { target: "any" }), rec("acme/base", "1.0.0")]).target).toBe("linux-x86_64");
    expect(pick([rec("acme/base", "1.0.0"), rec("acme/base", "1.0.1", { channel: "nightly" })]).versionText).toBe(
      "1.0.1",
    );
  });

  test("duplicate verified records are invalid input", () => {
    const b = rec("acme/base", "1.0.0");
    expect(resolve(HOST, rec("acme/root", "1.0.0"), [b, b])).toMatchObject({
      kind: "invalid",
      referenceCode: "use.plugin.package_resolution_invalid",
    });
  });

  test("attempt bound gives limit", () => {
    // 12 packages each with 2 versions where the last one conflicts: 2^12 attempts are not enough to
    // hit 65,536, so chain with a final unsatisfiable pin that each branch reaches.
    const n = 17;
    const deps: [string, string][] = Array.from({ length: n }, (_, i) => [
      `acme/p${String(i).padStart(2, "0")}`,
      "^1.0.0",
    ]);
    deps.push(["acme/zz", "^1.0.0"]);
    const cands: VerifiedRecord[] = [];
    for (const [id] of deps.slice(0, n)) for (const v of ["1.0.0", "1.1.0"]) cands.push(rec(id, v));
    cands.push(rec("acme/zz", "1.0.0", { deps: [["acme/p00", "^2.0.0"]] }));
    const r = resolve(HOST, rec("acme/root", "1.0.0", { deps }), cands);
    expect(r).toMatchObject({ kind: "limit", referenceCode: "use.plugin.package_resolution_limit" });
  });
});

describe("lock verification rules", () => {
  const root = rec("acme/root", "1.0.0", { deps: [["acme/base", "^1.0.0"]] });
  const base = rec("acme/base", "1.2.0");
  const good = () =>
    JSON.parse(
      JSON.stringify(
        buildLock(
          HOST,
          "acme/root",
          new Map([
            ["acme/root", root],
            ["acme/base", base],
          ]),
        ),
      ),
    ) as Record<string, any>;
  const rules = (l: unknown) => verifyLock(l as CJson).problems.map((p) => p.rule);

  test("a built lock verifies", () => expect(rules(good())).toEqual([]));
  test("1: schema, unknown field", () => {
    expect(rules({ ...good(), schema: "x" })).toContain(1);
    expect(rules({ ...good(), extra: 1 })).toContain(1);
  });
  test("2: host", () => expect(rules({ ...good(), host: { target: "any", useVersion: "0.3.0" } })).toContain(2));
  test("3: record drift breaks the catalog digest", () => {
    const l = good();
    l.packages[0].catalog.record.description = "changed";
    expect(rules(l)).toContain(3);
  });
  test("3: host-incompatible node", () =>
    expect(rules({ ...good(), host: { target: "linux-x86_64", useVersion: "0.4.0" } })).toContain(3));
  test("4: unsorted packages and missing root", () => {
    const l = good();
    l.packages.reverse();
    expect(rules(l)).toContain(4);
    expect(rules({ ...good(), rootPackageId: "acme/other" })).toContain(4);
  });
  test("5: edge version mismatch", () => {
    const l = good();
    l.packages[1].dependencies[0].version = "1.3.0";
    expect(rules(l)).toContain(5);
  });
  test("6: unreachable node", () => {
    const extra = rec("acme/zzz", "1.0.0");
    const l = buildLock(
      HOST,
      "acme/root",
      new Map([
        ["acme/root", root],
        ["acme/base", base],
        ["acme/zzz", extra],
      ]),
    );
    expect(rules(JSON.parse(JSON.stringify(l)))).toEqual([6]);
  });
  test("7: cycle", () => {
    const a = rec("acme/a", "1.0.0", { deps: [["acme/b", "^1.0.0"]] });
    const b = rec("acme/b", "1.0.0", { deps: [["acme/a", "^1.0.0"]] });
    const l = buildLock(
      HOST,
      "acme/a",
      new Map([
        ["acme/a", a],
        ["acme/b", b],
      ]),
    );
    const v = verifyLock(JSON.parse(JSON.stringify(l)));
    expect(v.problems.map((p) => p.rule)).toEqual([7]);
    expect(v.installOrder).toBeNull();
  });
});
