import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { OKF_DOMAIN, expandedDigest, rawDigest } from "../../src/a3s/package/digest.js";
import { checkManifestText } from "../../src/a3s/manifest/check.js";
import { readinessLevels, surfaceGraph } from "../../src/a3s/surfaces/readiness.js";
import { executableBitCaseOn, packageFactsCaseOn } from "../a3s/package-cases.js";
import { A3S as SHARED_A3S, describeReference, referenceJson } from "./reference.js";

const FIXTURES = join(SHARED_A3S, "Use", "crates", "extension", "fixtures");

interface Snapshot {
  source: string;
  files: { path: string; base64: string }[];
  expectedInspection: { contentDigest: string; fileCount: number; expandedBytes: number; conceptCount: number };
}

function walk(dir: string, prefix = ""): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const rel = prefix ? `${prefix}/${name}` : name;
    if (statSync(p).isDirectory()) Object.assign(out, walk(p, rel));
    else out[rel] = readFileSync(p);
  }
  return out;
}

describeReference("digests of the A3S Use fixtures", () => {
  const snapshots = referenceJson<Snapshot[]>("reference", "a3s", "okf-bundle-snapshots.json");
  test("raw manifest digests equal the fixtures' .sha256", () => {
    for (const name of ["plugin-v3", "plugin-v3-okf"]) {
      const bytes = readFileSync(join(FIXTURES, "manifests", `${name}.acl`));
      expect(rawDigest(bytes)).toBe(readFileSync(join(FIXTURES, "manifests", `${name}.sha256`), "utf8").trim());
    }
  });

  test.each(snapshots.map((s) => [s.source.split(":")[1]!, s] as const))(
    "OKF content digest and counts of %s",
    (_n, s) => {
      const files = s.files.map((f) => ({ path: f.path, bytes: Buffer.from(f.base64, "base64") }));
      expect(expandedDigest(OKF_DOMAIN, files)).toBe(s.expectedInspection.contentDigest);
      expect(files.length).toBe(s.expectedInspection.fileCount);
      expect(files.reduce((n, f) => n + f.bytes.length, 0)).toBe(s.expectedInspection.expandedBytes);
      const concepts = files.filter((f) => f.path.endsWith(".md") && !/(^|\/)(index|log)\.md$/.test(f.path));
      expect(concepts.length).toBe(s.expectedInspection.conceptCount);
    },
  );

  // The shared copy lacks the bundle's non-Markdown file; the OKF snapshot carries its bytes.
  const dir = join(FIXTURES, "packages", "plugin-v3-okf");
  const files = walk(join(dir, "package"));
  const snap = snapshots.find((s) => s.source.endsWith("plugin-v3-okf/package/okf/domain-knowledge"))!;
  for (const f of snap.files) files[`okf/domain-knowledge/${f.path}`] ??= Buffer.from(f.base64, "base64");
  const stats = JSON.parse(readFileSync(join(dir, "package.stats.json"), "utf8"));
  test("package.sha256 and package.stats.json agree", () =>
    expect(readFileSync(join(dir, "package.sha256"), "utf8").trim()).toBe(stats.sha256));
  packageFactsCaseOn(
    "plugin-v3-okf",
    Object.fromEntries(Object.entries(files).map(([k, v]) => [k, new Uint8Array(v)])),
    {
      fingerprint: stats.sha256,
      identity: stats.sha256,
      fileCount: stats.fileCount,
      byteCount: stats.byteCount,
      danglingLinkIn: "okf/domain-knowledge/concepts/package-lifecycle.md",
    },
  );
});

describeReference("readiness against manifest-models.json", () => {
  const models = referenceJson<{ file: string; surfaceGraph: unknown; readiness: unknown }[]>(
    "reference",
    "a3s",
    "manifest-models.json",
  );
  // Doc snippets are shared under doc-snippets/; the science package's manifest is not shared.
  const sharedPath = (file: string): string =>
    file.startsWith("generated/doc-snippets/")
      ? join(SHARED_A3S, "doc-snippets", file.slice("generated/doc-snippets/".length))
      : join(SHARED_A3S, "Use", file);
  const available = models.filter((m) => {
    try {
      statSync(sharedPath(m.file));
      return true;
    } catch {
      return false;
    }
  });
  test("five shared manifests are available", () => expect(available.length).toBe(5));
  test.each(available.map((m) => [m.file, m] as const))("%s", (file, m) => {
    const r = checkManifestText(readFileSync(sharedPath(file), "utf8"), "a3s-use-extension.acl");
    const graph = surfaceGraph(r.manifest!);
    expect(graph).toEqual(m.surfaceGraph);
    expect(readinessLevels(graph)).toEqual(m.readiness);
  });
});

describeReference("executable bit on plugin-v3-cognitive (use.extension.surface_not_executable)", () => {
  const root = join(SHARED_A3S, "Use", "crates", "extension", "fixtures", "packages", "plugin-v3-cognitive", "package");
  const files = (dir: string, prefix = ""): Record<string, string> =>
    Object.fromEntries(
      readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((e) => {
        const rel = prefix === "" ? e.name : `${prefix}/${e.name}`;
        return e.isDirectory() ? Object.entries(files(dir, rel)) : [[rel, readFileSync(join(dir, rel), "utf8")]];
      }),
    );

  executableBitCaseOn(files(root), "tools/echo", "mcp/context", false);
});
