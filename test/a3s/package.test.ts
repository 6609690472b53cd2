import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { A3S_CODES } from "../../src/a3s/codes.js";
import { OKF_DOMAIN, expandedDigest, rawDigest } from "../../src/a3s/package/digest.js";
import { checkA3s, detectA3s } from "../../src/a3s/index.js";
import { checkManifestText } from "../../src/a3s/manifest/check.js";
import { readinessLevels, surfaceGraph } from "../../src/a3s/surfaces/readiness.js";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { REPO } from "./helpers.js";
import { executableBitCaseOn, packageFactsCaseOn } from "./package-cases.js";
import { ATLAS_BUNDLE, atlasPackage, WORKBENCH_MANIFEST } from "./own-package.js";

const enc = new TextEncoder();
const atlasFiles = atlasPackage();

describe("digests (our package acme/atlas)", () => {
  test("the raw manifest digest is SHA-256 over the manifest bytes", () => {
    const bytes = enc.encode(atlasFiles["a3s-use-extension.acl"]!);
    expect(rawDigest(bytes)).toBe(`sha256:${createHash("sha256").update(bytes).digest("hex")}`);
  });

  test("the OKF content digest ignores file order and changes with any byte", () => {
    const files = Object.entries(ATLAS_BUNDLE).map(([path, c]) => ({ path, bytes: enc.encode(c) }));
    const digest = expandedDigest(OKF_DOMAIN, files);
    expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(expandedDigest(OKF_DOMAIN, [...files].reverse())).toBe(digest);
    const changed = files.map((f) =>
      f.path.endsWith(".py") ? { ...f, bytes: enc.encode(`${ATLAS_BUNDLE[f.path]}#\n`) } : f,
    );
    expect(expandedDigest(OKF_DOMAIN, changed)).not.toBe(digest);
  });

  // In memory here; the golden was made from the package on disk (the same routine runs on the reference's).
  const onDisk = JSON.parse(readFileSync(join(REPO, "golden", "a3s", "packages", "valid-okf.json"), "utf8"));
  packageFactsCaseOn("acme/atlas", atlasFiles, {
    fingerprint: onDisk.extra.fingerprint,
    identity: onDisk.identity,
    fileCount: Object.keys(atlasFiles).length,
    byteCount: Object.values(atlasFiles).reduce((n, c) => n + enc.encode(c).length, 0),
    danglingLinkIn: "okf/field-guide/concepts/storage-policy.md",
  });
});

describe("package checks", () => {
  const manifest = atlasFiles["a3s-use-extension.acl"]!;
  test("missing README, missing declared file, links and FIFOs are each reported", async () => {
    const fs = MemoryFs.from({
      "/p/a3s-use-extension.acl": manifest,
      "/p/okf/field-guide/index.md": "# x\n",
      "/p/evil": { kind: "symlink", target: "/etc/passwd" },
      "/p/pipe": { kind: "fifo" },
    });
    const r = await checkA3s(fs, "/p/a3s-use-extension.acl");
    expect(r.valid).toBe(false);
    expect(r.identity).toBeNull();
    const codes = r.diagnostics.map((d) => d.code);
    expect(codes).toEqual(
      expect.arrayContaining([
        "a3s.package.readme",
        "a3s.package.declared_file",
        "a3s.package.symlink",
        "a3s.package.entry_invalid",
      ]),
    );
  });

  test("a path that is not an A3S package is not detected", async () => {
    expect(await detectA3s(MemoryFs.from({ "/x/README.md": "hi" }), "/x")).toBe(false);
  });
});

describe("readiness of our manifests", () => {
  const levels = (text: string) =>
    readinessLevels(surfaceGraph(checkManifestText(text, "a3s-use-extension.acl").manifest!));
  test("workbench: servers and tools first, then what needs them, the UI bound to a skill last", () => {
    expect(levels(WORKBENCH_MANIFEST)).toEqual([
      { surface: "mcp:catalog", level: 0, required: true },
      { surface: "mcp:local-cache", level: 0, required: false },
      { surface: "tool:render", level: 0, required: true },
      { surface: "tool:search", level: 0, required: true },
      { surface: "skill:audit", level: 1, required: true },
      { surface: "skill:peek", level: 1, required: false },
      { surface: "ui:status", level: 1, required: false },
      { surface: "ui:audit", level: 2, required: true },
    ]);
  });
  test("atlas: the OKF bundle before the skill that requires it", () => {
    expect(levels(atlasFiles["a3s-use-extension.acl"]!)).toEqual([
      { surface: "okf:field-guide", level: 0, required: true },
      { surface: "skill:navigate", level: 1, required: true },
    ]);
  });
});

test("every emitted code has a row", () => {
  const rows = new Set(A3S_CODES.map((r) => r.code));
  // Every module of the frontend, in every subfolder: a code typed anywhere must be in the table.
  const root = join(__dirname, "..", "..", "src", "a3s");
  const src = (readdirSync(root, { recursive: true }) as string[])
    .filter((f) => f.endsWith(".ts"))
    .map((f) => readFileSync(join(root, f), "utf8"))
    .join("\n");
  const emitted = [...src.matchAll(/"(a3s\.[a-z_]+\.[a-z_]+)"/g)];
  expect(emitted.length).toBeGreaterThan(20);
  for (const m of emitted) expect(rows, m[1]).toContain(m[1]);
});

describe("executable bit (use.extension.surface_not_executable)", () => {
  const manifest = `extension "acme/runner" {
  schema_version = 3
  version        = "0.1.0"
  route          = "runner"
  requires_use   = ">=0.3.0, <0.4.0"
  actions        = ["execute"]

  repository {
    url      = "https://github.com/acme/runner"
    revision = "0011223344556677889900112233445566778899"
  }

  tool "render" {
    workload    = "task"
    interface   = "cli"
    executable  = "tools/render"
    command     = "acme-runner-render"
    json_output = true
    interactive = false
    timeout_ms  = 1000
    activation  = "lazy"
    optional    = false
  }

  mcp "local-cache" {
    transport  = "stdio"
    executable = "mcp/cache"
    args       = []
    activation = "lazy"
    optional   = false
  }

  skill "run" {
    path          = "skills/run/SKILL.md"
    requires_tool = ["render"]
    requires_mcp  = ["local-cache"]
    optional      = false
  }
}
`;

  executableBitCaseOn(
    {
      "a3s-use-extension.acl": manifest,
      "README.md": "# Runner\n",
      "skills/run/SKILL.md": "---\nname: run\ndescription: Run it.\n---\n\n# Run\n",
    },
    "tools/render",
    "mcp/cache",
    true,
  );
});
