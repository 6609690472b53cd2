/**
 * Writes fixtures/a3s/ (run with A3S_WRITE_FIXTURES=1 npx vitest run test/a3s/golden.test.ts).
 * Packages derive from our own package acme/atlas (test/a3s/own-package.ts); registry records derive
 * from our own catalog-v3 record with IDs, versions and digests rewritten (as the upstream resolver
 * tests do). Every fixture is one rule family.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { canonicalDigest, olpcCanonical, type CJson } from "../../src/a3s/package/cjson.js";
import { readVerifiedRecord } from "../../src/a3s/resolve/verified-record.js";
import { buildLock, resolve } from "../../src/a3s/resolve/resolver.js";
import { REPO } from "./helpers.js";
import { ATLAS_BUNDLE, ATLAS_BUNDLE_ROOT, atlasPackage, atlasRecord, bundleFacts } from "./own-package.js";

const OUT = join(REPO, "fixtures", "a3s");

function write(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, data);
}

function basePackage(dir: string): void {
  for (const [path, content] of Object.entries(atlasPackage())) write(join(dir, path), content);
}

function edit(path: string, from: string, to: string): void {
  const s = readFileSync(path, "utf8");
  if (!s.includes(from)) throw new Error(`${path}: '${from}' not found`);
  writeFileSync(path, s.replace(from, to));
}

const BASE_RECORD = atlasRecord();

function verified(
  id: string,
  version: string,
  deps: [string, string][] = [],
  registry = "official",
): Record<string, CJson> {
  const record: Record<string, CJson> = { ...BASE_RECORD, packageId: id, version };
  if (deps.length > 0)
    record["dependencies"] = deps.map(([packageId, versionRequirement]) => ({ packageId, versionRequirement }));
  return {
    record,
    provenance: {
      registryName: registry,
      registryUrl: `https://${registry}.example`,
      rootSha256: canonicalDigest(registry),
      rootVersion: 1,
      timestampVersion: 1,
      snapshotVersion: 1,
      targetsVersion: 1,
      catalogRecordDigest: canonicalDigest(record),
    },
  };
}

export function writeFixtures(): void {
  // cases/ belongs to test/a3s/cases-gen.ts.
  for (const dir of ["packages", "okf", "registry", "locks"]) rmSync(join(OUT, dir), { recursive: true, force: true });
  const p = (n: string) => join(OUT, "packages", n);
  const acl = (n: string) => join(p(n), "a3s-use-extension.acl");

  basePackage(p("valid-okf"));
  basePackage(p("acl-unterminated-string"));
  edit(acl("acl-unterminated-string"), 'route          = "atlas"', 'route          = "atlas');
  basePackage(p("schema-reserved-route"));
  edit(acl("schema-reserved-route"), 'route          = "atlas"', 'route          = "registry"');
  basePackage(p("dependency-noncanonical"));
  edit(
    acl("dependency-noncanonical"),
    "  repository {",
    '  dependency "acme/base" {\n    version = "1.0.0"\n  }\n\n  repository {',
  );
  basePackage(p("readme-missing"));
  rmSync(join(p("readme-missing"), "README.md"));
  basePackage(p("path-escape"));
  edit(
    acl("path-escape"),
    'path          = "skills/navigate/SKILL.md"',
    'path          = "../skills/navigate/SKILL.md"',
  );
  basePackage(p("okf-contract-mismatch"));
  write(join(p("okf-contract-mismatch"), ATLAS_BUNDLE_ROOT, "references", "extra.bin"), new Uint8Array([1, 2, 3]));
  basePackage(p("okf-concept-invalid"));
  edit(
    join(p("okf-concept-invalid"), ATLAS_BUNDLE_ROOT, "concepts", "retention.md"),
    "type: Guideline",
    "type: [Guideline]",
  );

  // Bare OKF bundles.
  const o = (n: string) => join(OUT, "okf", n);
  for (const [path, content] of Object.entries(ATLAS_BUNDLE)) write(join(o("bundle-v02"), path), content);
  const facts = bundleFacts();
  const limits = {
    maxConcepts: 64,
    maxDocumentBytes: 1048576,
    maxExpandedBytes: 67108864,
    maxFiles: 256,
    maxLinksPerDocument: 2048,
  };
  write(
    join(o("bundle-v02.contract.json")),
    `${olpcCanonical({ ...facts, formatVersion: "0.2", limits, root: ATLAS_BUNDLE_ROOT, schema: "a3s.use.okf-bundle.v1" })}\n`,
  );
  write(join(o("link-escape"), "concepts", "a.md"), "---\ntype: Metric\n---\n\n[escape](../../outside.md)\n");
  write(join(o("log-order"), "a.md"), "---\ntype: Metric\n---\n");
  write(join(o("log-order"), "log.md"), "## 2026-01-01\n\n## 2026-02-01\n");
  write(join(o("unsafe-scheme"), "a.md"), "---\ntype: Metric\n---\n\n[x](javascript:alert(1))\n");

  // Registries: one directory of verified records per scenario, plus the resolve arguments.
  const host = { target: "linux-x86_64", useVersion: "0.3.0" };
  const reg = (n: string, root: string, records: Record<string, CJson>[]) => {
    write(join(OUT, "registry", n, "resolve.json"), `${JSON.stringify({ root, ...host }, null, 2)}\n`);
    for (const r of records) {
      const rec = r["record"] as Record<string, CJson>;
      const prov = r["provenance"] as Record<string, CJson>;
      write(
        join(
          OUT,
          "registry",
          n,
          "records",
          `${String(prov["registryName"])}--${String(rec["packageId"]).replace("/", "--")}--${String(rec["version"])}.json`,
        ),
        `${olpcCanonical(r)}\n`,
      );
    }
  };
  const closure = [
    verified("acme/root", "1.0.0", [["acme/base", ">=1.0.0, <2.0.0"]]),
    verified("acme/base", "1.0.0", [["acme/leaf", "^2.0.0"]]),
    verified("acme/base", "1.5.0", [["acme/leaf", "^2.0.0"]]),
    verified("acme/leaf", "2.0.0"),
    verified("acme/leaf", "2.3.0"),
    verified("acme/leaf", "3.0.0"),
  ];
  reg("closure", "acme/root", closure);
  reg("backtracking", "acme/root", [
    verified("acme/root", "1.0.0", [
      ["acme/alpha", ">=1.0.0, <3.0.0"],
      ["acme/beta", "^1.0.0"],
    ]),
    verified("acme/alpha", "2.0.0", [["acme/shared", "^2.0.0"]]),
    verified("acme/alpha", "1.5.0", [["acme/shared", "^1.0.0"]]),
    verified("acme/beta", "1.0.0", [["acme/shared", "^1.0.0"]]),
    verified("acme/shared", "1.9.0"),
    verified("acme/shared", "2.1.0"),
  ]);
  reg("missing", "acme/root", [verified("acme/root", "1.0.0", [["acme/base", "^1.0.0"]])]);
  reg("conflict", "acme/root", [
    verified("acme/root", "1.0.0", [["acme/base", "^2.0.0"]]),
    verified("acme/base", "1.0.0"),
  ]);
  reg("cycle", "acme/root", [
    verified("acme/root", "1.0.0", [["acme/base", "^1.0.0"]]),
    verified("acme/base", "1.0.0", [["acme/root", "^1.0.0"]]),
  ]);
  reg("ambiguous", "acme/root", [
    verified("acme/root", "1.0.0", [["acme/base", "^1.0.0"]]),
    verified("acme/base", "1.0.0"),
    verified("acme/base", "1.1.0", [], "private"),
  ]);
  const drift = verified("acme/leaf", "2.0.0");
  (drift["record"] as Record<string, CJson>)["description"] = "edited after signing";
  reg("record-drift", "acme/leaf", [drift]);

  // Locks: the closure lock, and copies that break rules 3, 5 and 7.
  const recs = closure.map((r) => {
    const v = readVerifiedRecord(r);
    if (!v.ok) throw new Error(v.problems.join("; "));
    return v.value;
  });
  const res = resolve(host, recs[0]!, recs.slice(1));
  if (!("ok" in res)) throw new Error(res.message);
  const lock = JSON.parse(JSON.stringify(buildLock(host, "acme/root", res.selected))) as Record<string, any>;
  const l = (n: string, v: unknown) => write(join(OUT, "locks", `${n}.json`), `${olpcCanonical(v)}\n`);
  l("closure", lock);
  const edge = JSON.parse(JSON.stringify(lock));
  edge.packages[0].dependencies[0].version = "2.0.0";
  l("edge-version-mismatch", edge);
  const drifted = JSON.parse(JSON.stringify(lock));
  drifted.packages[1].catalog.record.description = "tampered";
  l("record-drift", drifted);
  const unknown = JSON.parse(JSON.stringify(lock));
  unknown.registry = "https://elsewhere.example";
  l("unknown-field", unknown);
}
