/**
 * Our own A3S cognitive package "acme/atlas" (schema v3 manifest, an OKF 0.2 bundle and the skill
 * that needs it) and our own catalog-v3 record, written for this repository. Every A3S fixture of
 * fixtures/a3s/ and the hostile/fuzz seeds derive from them (test/a3s/fixtures-gen.ts); the
 * reference's own packages are only read by test/reference/. Digests and counts in the manifest
 * come from our code (expandedDigest), whose agreement with the reference is checked there.
 */
import { canonicalDigest, type CJson } from "../../src/a3s/package/cjson.js";
import { OKF_DOMAIN, expandedDigest } from "../../src/a3s/package/digest.js";

const enc = new TextEncoder();

/** The OKF bundle `field-guide`, relative to its root: 4 concepts, index.md, log.md and an attester script. */
export const ATLAS_BUNDLE: Readonly<Record<string, string>> = {
  "index.md": `---
okf_version: "0.2"
---

# Field guide

- [Storage policy](concepts/storage-policy.md) - Where notes live and for how long.
- [Retention](concepts/retention.md) - How long a note is kept.
- [Throughput](computations/throughput.md) - Attested notes-per-day computation.
- [Run throughput](references/run-throughput.md) - Executor instructions kept as knowledge.
`,
  "log.md": `---
type: Log
title: Field guide history
---

# History

## 2026-09-02

- **Change**: Wrote the [storage policy](concepts/storage-policy.md).

## 2026-08-15

- **Start**: Opened the guide.
`,
  "concepts/storage-policy.md": `---
type: Project-Specific Decision
title: Notes are stored per project
description: Each project keeps its own notes; nothing is shared across projects.
status: stable
---

# Decision

Notes follow the [retention rule](./retention.md); the [archive plan](./archive-plan.md) is not
written yet, so this link dangles on purpose.
`,
  "concepts/retention.md": `---
type: Guideline
title: Keep notes for one year
---

# Guideline

Notes older than a year are archived.
`,
  "computations/throughput.md": `---
type: Attested Computation
title: Notes written per day
runtime: python
parameters:
  - { name: day, type: string, required: true }
executor:
  resource: ../references/run-throughput.md
  receipt: [run_id, count]
attester:
  resource: ../references/attesters/throughput.py
---

# Computation

\`\`\`python
count_notes(day)
\`\`\`
`,
  "references/run-throughput.md": `---
type: Reference
title: Throughput executor notes
---

# Notes

Knowledge only: these lines grant no authority to run anything.
`,
  "references/attesters/throughput.py": `def attest(receipt: dict[str, object]) -> bool:
    return "run_id" in receipt and "count" in receipt
`,
};

export const ATLAS_BUNDLE_ROOT = "okf/field-guide";

export function bundleFacts(files: Readonly<Record<string, string | Uint8Array>> = ATLAS_BUNDLE): {
  contentDigest: string;
  fileCount: number;
  expandedBytes: number;
  conceptCount: number;
} {
  const list = Object.entries(files).map(([path, c]) => ({ path, bytes: typeof c === "string" ? enc.encode(c) : c }));
  return {
    contentDigest: expandedDigest(OKF_DOMAIN, list),
    fileCount: list.length,
    expandedBytes: list.reduce((n, f) => n + f.bytes.length, 0),
    conceptCount: list.filter((f) => f.path.endsWith(".md") && !/(^|\/)(index|log)\.md$/.test(f.path)).length,
  };
}

export function atlasManifest(): string {
  const f = bundleFacts();
  return `extension "acme/atlas" {
  schema_version = 3
  version        = "1.0.0"
  route          = "atlas"
  requires_use   = ">=0.3.0, <0.4.0"
  actions        = ["read"]

  repository {
    url      = "https://github.com/acme/atlas"
    revision = "89abcdef0123456789abcdef0123456789abcdef"
  }

  okf "field-guide" {
    format_version         = "0.2"
    root                   = "${ATLAS_BUNDLE_ROOT}"
    content_digest         = "${f.contentDigest}"
    concept_count          = ${f.conceptCount}
    file_count             = ${f.fileCount}
    expanded_bytes         = ${f.expandedBytes}
    max_files              = 256
    max_concepts           = 64
    max_expanded_bytes     = 67108864
    max_document_bytes     = 1048576
    max_links_per_document = 2048
    optional               = false
  }

  skill "navigate" {
    path          = "skills/navigate/SKILL.md"
    requires_tool = []
    requires_mcp  = []
    requires_okf  = ["field-guide"]
    optional      = false
  }
}
`;
}

/** Every file of the package, relative to its root. */
export function atlasPackage(): Record<string, string> {
  return {
    "a3s-use-extension.acl": atlasManifest(),
    "README.md":
      "# Atlas Notes\n\nA cognitive package written for yaoc's tests: one OKF bundle and the skill that reads it.\n",
    "skills/navigate/SKILL.md":
      "---\nname: navigate\ndescription: Find the note a question needs in the promoted field guide.\n---\n\n# Navigate\n\nAnswer only from the promoted generation of the field guide.\n",
    ...Object.fromEntries(Object.entries(ATLAS_BUNDLE).map(([p, c]) => [`${ATLAS_BUNDLE_ROOT}/${p}`, c])),
  };
}

/** Our catalog-v3 record for acme/atlas 1.0.0 (the resolver's scenarios rewrite id, version and dependencies). */
export function atlasRecord(): Record<string, CJson> {
  const f = bundleFacts();
  const permissionCeiling = { schema: "a3s.use.plugin-permissions.v1", surfaces: [] };
  return {
    archive: {
      length: 2048,
      sha256: canonicalDigest("atlas archive"),
      targetName: "extensions/acme/atlas/1.0.0/stable/linux-x86_64/acme-atlas-1.0.0-linux-x86_64.tar.gz",
    },
    availability: { state: "available" },
    categories: ["knowledge"],
    channel: "stable",
    description: "Project notes with an exact promoted OKF generation.",
    displayName: "Atlas Notes",
    keywords: ["notes", "okf"],
    license: "Apache-2.0",
    package: {
      expandedBytes: 4096,
      fileCount: 10,
      manifestSha256: canonicalDigest("atlas manifest"),
      sha256: canonicalDigest("atlas package"),
    },
    packageId: "acme/atlas",
    permissionCeiling,
    permissionCeilingDigest: canonicalDigest(permissionCeiling),
    publisher: "acme",
    repository: "https://github.com/acme/atlas",
    requiresUse: ">=0.3.0, <0.4.0",
    schema: "a3s.use.plugin-catalog.v3",
    surfaces: [
      {
        id: "field-guide",
        kind: "okf",
        okfBundle: {
          conceptCount: f.conceptCount,
          contentDigest: f.contentDigest,
          expandedBytes: f.expandedBytes,
          fileCount: f.fileCount,
          formatVersion: "0.2",
          limits: {
            maxConcepts: 64,
            maxDocumentBytes: 1048576,
            maxExpandedBytes: 67108864,
            maxFiles: 256,
            maxLinksPerDocument: 2048,
          },
          root: ATLAS_BUNDLE_ROOT,
          schema: "a3s.use.okf-bundle.v1",
        },
        optional: false,
      },
      { id: "navigate", kind: "skill", optional: false, requires: [{ id: "field-guide", kind: "okf" }] },
    ],
    target: "linux-x86_64",
    version: "1.0.0",
  };
}

/**
 * Our own schema-v3 manifest with every surface kind (task and service tools, stdio and HTTP MCP
 * servers, required and optional skills and UIs, dependencies between them): the base of the
 * manifest rule cases, the readiness and package-state tests.
 */
export const WORKBENCH_MANIFEST = `extension "acme/workbench" {
  schema_version = 3
  version        = "3.2.0"
  route          = "workbench"
  requires_use   = ">=0.3.0, <0.4.0"
  actions        = ["read", "execute"]

  repository {
    url      = "https://github.com/acme/workbench"
    revision = "fedcba9876543210fedcba9876543210fedcba98"
  }

  tool "render" {
    workload    = "task"
    interface   = "cli"
    executable  = "tools/render/bin/render"
    command     = "acme-workbench-render"
    json_output = true
    interactive = false
    timeout_ms  = 60000
    activation  = "lazy"
    optional    = false
  }

  tool "search" {
    workload   = "service"
    interface  = "http"
    release    = "releases/search-tool-v1.json"
    base_path  = "/v1"
    contract   = "tools/search/openapi.json"
    activation = "eager"
    optional   = false
  }

  mcp "local-cache" {
    transport  = "stdio"
    executable = "mcp/bin/cache"
    args       = ["run", "--stdio"]
    activation = "lazy"
    optional   = true
  }

  mcp "catalog" {
    transport  = "streamable-http"
    release    = "releases/catalog-mcp-v1.json"
    activation = "eager"
    optional   = false
  }

  skill "audit" {
    path          = "skills/audit/SKILL.md"
    requires_tool = ["render", "search"]
    requires_mcp  = ["catalog"]
    optional      = false
  }

  skill "peek" {
    path          = "skills/peek/SKILL.md"
    requires_tool = ["render"]
    requires_mcp  = []
    optional      = true
  }

  ui "audit" {
    entry     = "ui/audit/index.html"
    styles    = ["ui/audit/index.css"]
    scripts   = ["ui/audit/index.js"]
    skill     = "audit"
    bind_tool = ["search"]
    bind_mcp  = ["catalog"]
    optional  = false
  }

  ui "status" {
    entry     = "ui/status/index.html"
    styles    = []
    scripts   = []
    bind_tool = ["search"]
    bind_mcp  = []
    optional  = true
  }
}
`;
