/**
 * Writes fixtures/a3s/cases/*.json: our own rule cases for the ACL reader, Cargo SemVer, Rust path
 * semantics, the schema-v3 manifest rules and OKF inspection (run with
 * A3S_WRITE_FIXTURES=1 npx vitest run test/a3s/cases.test.ts). Inputs and the verdict each case
 * must have (`expect`) are written here by hand from the rules (docs/a3s.md); the full `result`
 * (messages, trees, displays) is recorded from our code and then reviewed. The reference's own
 * cases of the same rules are compared in test/reference/a3s-*.test.ts.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseAcl } from "../../src/a3s/acl/parse.js";
import { blockToReferenceJson } from "../../src/a3s/acl/ast.js";
import { checkManifestText } from "../../src/a3s/manifest/check.js";
import { DEFAULT_OKF_LIMITS, type OkfLimits } from "../../src/a3s/okf/contract.js";
import { inspectOkfBundleFiles } from "../../src/a3s/okf/inspect.js";
import { components, extension, fileName, rejectsRelativePath } from "../../src/a3s/manifest/rust-path.js";
import {
  formatVersion,
  formatVersionReq,
  parseVersion,
  parseVersionReq,
  reqMatches,
} from "../../src/a3s/resolve/semver.js";
import { REPO } from "./helpers.js";
import { atlasManifest, WORKBENCH_MANIFEST } from "./own-package.js";

export const CASES = join(REPO, "fixtures", "a3s", "cases");
const enc = new TextEncoder();

/** ACL inputs: [id, input, verdict]; "lenient" = the reference accepts it only through a leniency we report. */
export const ACL_INPUTS: [string, string, "canonical" | "lenient" | "accepted" | "rejected"][] = [
  ["own-atlas", atlasManifest(), "canonical"],
  ["own-atlas-crlf", atlasManifest().replaceAll("\n", "\r\n"), "canonical"],
  ["own-atlas-bom", `\ufeff${atlasManifest()}`, "canonical"],
  ["own-workbench", WORKBENCH_MANIFEST, "canonical"],
  ["empty", "", "accepted"],
  ["only-comments", "# one\n// two\n", "accepted"],
  ["comment-hash-inline", 'box { y = "2" # note\n}', "accepted"],
  ["comment-slashslash-inline", 'box { y = "2" // note\n}', "accepted"],
  ["comment-single-slash", "box { y = 4 / 8\n}", "lenient"],
  ["comment-block-style", "box { /* y = 3 */\n z = 4 }", "lenient"],
  ["url-in-string", 'box { link = "https://example.org/a#b" }', "accepted"],
  ["url-unquoted", "box { link = https://example.org/a }", "lenient"],
  ["string-escapes-double", 'box { t = "x\\"y\\\\z\\nw\\tv\\ru\\p\\u0042\\$" }', "accepted"],
  ["string-escapes-single", "box { t = 'don\\'t \\n \\\\ y' }", "accepted"],
  ["string-unterminated-newline", 'box { t = "open\n u = "y" }', "lenient"],
  ["string-unterminated-eof", 'box { t = "open', "lenient"],
  ["string-multiline-attempt", 'box { t = "first\nsecond" }', "lenient"],
  ["heredoc", "box {\n t = <<END\nbody\nEND\n}", "lenient"],
  ["string-interpolation", 'box { t = "${name}" }', "accepted"],
  ["numbers", "box {\n a = 7\n b = 7.5\n c = -3\n d = 2e4\n e = .25\n f = 2e\n g = 0x1f\n}", "lenient"],
  ["bools-null", "box { p = true\n q = false\n r = null\n s = True }", "accepted"],
  ["bare-ident-value", "box { mode = fast\n kind = batch }", "lenient"],
  ["colon-separator", 'box { release: "2.0.0" }', "accepted"],
  ["lists", 'box {\n p = ["x", "y"]\n q = ["x" "y"]\n r = ["x", "y",]\n}', "lenient"],
  ["list-unterminated", 'box { l = ["x", "y"\n}', "rejected"],
  ["list-leading-comma", 'box { l = [, "x"] }', "lenient"],
  ["object-value", 'box { o = { m = 2, n = "y" } }', "accepted"],
  ["object-value-nested-block-dropped", "box { o = { m = 2\n child { w = 3 } } }", "lenient"],
  ["ident-block-value", "box { o = thing { m = 2 } }", "lenient"],
  ["call-value", 'box { v = lookup("Y") }', "accepted"],
  ["call-unterminated", 'box { v = lookup("Y" }', "rejected"],
  ["call-missing-comma", 'box { v = lookup("Y" "Z") }', "rejected"],
  ["duplicate-attribute", 'box { v = "one"\n v = "two" }', "lenient"],
  ["block-string-label", 'item "y" { v = 2 }', "accepted"],
  ["block-multi-label", 'item "y" "z" { v = 2 }', "accepted"],
  ["block-ident-label", 'ext "m/n" {\n item render {\n  v = 2\n }\n later = 3\n}', "lenient"],
  ["block-newline-before-brace", 'ext "m/n"\n{\n v = 2\n}', "accepted"],
  ["nested-labelled-block", 'ext "m/n" {\n item "y" {\n  v = 2\n }\n later = 3\n}', "accepted"],
  ["missing-close-brace", 'ext "m/n" {\n v = 2\n', "lenient"],
  ["missing-close-brace-nested", 'ext "m/n" {\n item "y" {\n  v = 2\n\n later = 3\n', "lenient"],
  ["extra-close-brace", 'ext "m/n" {\n v = 2\n}\n}', "rejected"],
  ["two-top-level-blocks", 'ext "m/n" { v = 2 }\next "o/p" { v = 3 }', "accepted"],
  ["top-level-string", '"y"', "rejected"],
  ["top-level-number", "456", "rejected"],
  ["plus-equal-top", "items += 2", "lenient"],
  ["plus-equal-in-block", "box { items += 2\n v = 3 }", "lenient"],
  ["semicolons-and-junk", 'box { v = 2; w = "y"; % ^ & }', "lenient"],
  ["ident-without-equals", "box { enabled yes\n v = 2 }", "lenient"],
  ["ident-ident-newline", 'box {\n kind pod\n label = "t"\n}\nafter = 2', "lenient"],
  ["hyphen-key", 'box { root-dir = "/y" }', "lenient"],
  ["dotted-key", "box { m.n = 2 }", "lenient"],
  ["quoted-key", 'box { "v" = 2 }', "lenient"],
  ["keyword-as-key", "box { false = 2\n v = 3 }", "lenient"],
  ["value-missing-eof", "box { v =", "rejected"],
  ["value-missing-brace", "box { v = }", "rejected"],
  ["value-missing-newline-then-attr", "box { v =\n w = 2 }", "lenient"],
  ["value-close-bracket", "box { v = ] }", "rejected"],
  ["value-comma", "box { v = , }", "rejected"],
  ["unicode-ident", '盒子 { 键 = "数值" }', "accepted"],
  ["tabs", 'box {\n\tv\t=\t"w"\n}', "accepted"],
  ["number-label", "item 2 { v = 2 }", "lenient"],
  ["equals-in-label-position", 'item = "y" { v = 2 }', "rejected"],
  ["ident-ident-equals", "box { m n = 2 }", "rejected"],
  ["backslash-newline-in-string", 'box { v = "w\\\nmore" }', "lenient"],
  ["block-without-braces", "top\n v = 2\n}\n", "lenient"],
  ["nested-list-unterminated", "box { v = [3, [4, }", "rejected"],
  ["exponent-then-dot", "box { v = 2e4.5 }", "lenient"],
];

/** SemVer requirement inputs with the versions each is matched against, and whether it must parse. */
export const SEMVER_VERSIONS = [
  "0.1.9",
  "0.5.0",
  "0.5.4",
  "0.6.0-rc.2",
  "0.6.0",
  "2.0.0-beta.1",
  "2.0.0",
  "2.4.6",
  "2.8.1",
  "3.0.0",
  "3.2.0",
  "3.2.0-alpha.1",
];
export const SEMVER_REQS: [string, boolean][] = [
  ["^2.4.6", true],
  ["2.4.6", true],
  ["=2.4.6", true],
  [">=2.0.0, <3.0.0", true],
  [">=2.0.0,<3.0.0", true],
  [">=2.0.0 <3.0.0", false],
  ["~2.4", true],
  ["~2.4.6", true],
  ["~2", true],
  ["*", true],
  ["2.*", true],
  ["2.x", true],
  ["2.4.*", true],
  ["^2", true],
  ["^2.4", true],
  [">= 2.0.0", true],
  [" ^2.0.0", true],
  ["^2.0.0 ", true],
  ["^2.0.0-beta.1", true],
  ["^2.0.0+meta", true],
  ["^02.0.0", false],
  ["", false],
  ["^2.0.0 || ^3.0.0", false],
  ["newest", false],
  ["<3", true],
  [">2.0.0", true],
  ["<=2.0.0", true],
  ["^0.5.0", true],
  [">=0.5.0, <0.6.0", true],
  ["^0.5", true],
  ["^0.5.4", true],
  ["~0.5", true],
  ["^0.0.3", true],
  ["*, *", false],
  ["2.0.0 - 3.0.0", false],
  ["v2.4.6", false],
  ["x", true],
  [">=2.0.0, <3.0.0, !=2.4.6", false],
  ["^2.0.0-0", true],
  ["~>2.0", false],
  ["==2.0.0", false],
  ["^ 2.0.0", true],
  ["2", true],
  ["2.4", true],
  [">=0.5.0, <0.6.0-0", true],
  ["^2.0.0, ^2.4.0", true],
];
export const SEMVER_VERSION_INPUTS: [string, boolean][] = [
  ["2.4.6", true],
  ["2.4", false],
  ["02.4.6", false],
  ["2.4.6-beta.2", true],
  ["2.4.6+build.9", true],
  ["2.4.6-beta+b", true],
  [" 2.4.6", false],
  ["v2.4.6", false],
  ["2.4.6-07", false],
  ["2.4.6-a..b", false],
  ["0.0.0", true],
  ["18446744073709551615.1.0", true],
  ["18446744073709551616.1.0", false],
];

/** Rust `Path` inputs: [path, rejected by validate_relative_path]. */
export const RUST_PATHS: [string, boolean][] = [
  ["tools/render/bin/render", false],
  ["./tools/y", true],
  ["tools/./y", false],
  ["tools//y", false],
  ["tools/y/", false],
  ["../y", true],
  ["tools/../y", true],
  ["/root/y", true],
  ["", true],
  ["tools\\..\\y", false],
  ["D:\\y", false],
  ["D:/y", false],
  ["skills/audit/SKILL.md", false],
  ["skills/audit/SKILL.md/", false],
  ["AUDIT.md", false],
  ["flows/plan.ts", false],
  ["flows/.ts", false],
  ["flows/plan.d.ts", false],
  ["ui/main.html", false],
  ["ui/.css", false],
  ["tools/search/openapi.YAML", false],
  ["m/n/..", true],
  ["~/y", false],
  ["p q/r s", false],
  [".", true],
];

const M = WORKBENCH_MANIFEST;
const edit = (from: string, to: string): string => {
  if (!M.includes(from)) throw new Error(`'${from}' not in the workbench manifest`);
  return M.replace(from, to);
};
const add = (text: string): string => M.replace(/}\n$/, `${text}\n}\n`);
/** Manifest rule cases: [id, text, expected reference code (null = accepted), strict code when accepted only leniently]. */
export const MANIFEST_CASES: [string, string, string | null, string?][] = [
  ["own-workbench-ok", M, null],
  ["requires-use-missing", edit('  requires_use   = ">=0.3.0, <0.4.0"\n', ""), "use.extension.manifest_invalid"],
  ["requires-use-not-semver", edit('">=0.3.0, <0.4.0"', '"current"'), "use.extension.manifest_invalid"],
  ["requires-use-caret-ok", edit('">=0.3.0, <0.4.0"', '"^0.3.0"'), null],
  ["requires-use-star", edit('">=0.3.0, <0.4.0"', '"*"'), "use.extension.manifest_invalid"],
  [
    "repository-missing",
    edit(
      '  repository {\n    url      = "https://github.com/acme/workbench"\n    revision = "fedcba9876543210fedcba9876543210fedcba98"\n  }\n',
      "",
    ),
    "use.extension.manifest_invalid",
  ],
  [
    "repository-http",
    edit('"https://github.com/acme/workbench"', '"http://github.com/acme/workbench"'),
    "use.extension.manifest_invalid",
  ],
  [
    "repository-credentials",
    edit('"https://github.com/acme/workbench"', '"https://me:secret@github.com/acme/workbench"'),
    "use.extension.manifest_invalid",
  ],
  [
    "repository-revision-short",
    edit('"fedcba9876543210fedcba9876543210fedcba98"', '"fedcba98"'),
    "use.extension.manifest_invalid",
  ],
  [
    "repository-revision-upper",
    edit('"fedcba9876543210fedcba9876543210fedcba98"', '"FEDCBA9876543210FEDCBA9876543210FEDCBA98"'),
    "use.extension.manifest_invalid",
  ],
  ["two-extension-blocks", `${M}${M}`, "use.extension.manifest_invalid"],
  ["top-level-attribute", `owner = "x"\n${M}`, "use.extension.manifest_invalid"],
  [
    "unknown-extension-attribute",
    edit('  route          = "workbench"\n', '  route          = "workbench"\n  colour         = "blue"\n'),
    "use.extension.manifest_invalid",
  ],
  ["package-id-uppercase", edit('"acme/workbench" {', '"Acme/workbench" {'), "use.extension.manifest_invalid"],
  ["package-id-three-segments", edit('"acme/workbench" {', '"acme/work/bench" {'), "use.extension.manifest_invalid"],
  ["schema-version-string", edit("schema_version = 3", 'schema_version = "3"'), "use.extension.manifest_invalid"],
  ["version-v-prefix", edit('"3.2.0"', '"v3.2.0"'), "use.extension.manifest_invalid"],
  ["version-prerelease-ok", edit('"3.2.0"', '"3.2.0-rc.1"'), null],
  [
    "route-uppercase",
    edit('"workbench"\n  requires_use', '"Workbench"\n  requires_use'),
    "use.extension.manifest_invalid",
  ],
  ["actions-unknown", edit('["read", "execute"]', '["read", "fly"]'), "use.extension.manifest_invalid"],
  ["actions-duplicate", edit('["read", "execute"]', '["read", "read"]'), "use.extension.manifest_invalid"],
  [
    "tool-both-sources",
    edit(
      '    executable  = "tools/render/bin/render"\n',
      '    executable  = "tools/render/bin/render"\n    release     = "releases/render.json"\n',
    ),
    "use.extension.manifest_invalid",
  ],
  ["tool-timeout-zero", edit("timeout_ms  = 60000", "timeout_ms  = 0"), "use.extension.manifest_invalid"],
  ["tool-command-invalid", edit('"acme-workbench-render"', '"render now!"'), "use.extension.manifest_invalid"],
  [
    "tool-activation-invalid",
    edit('    activation  = "lazy"', '    activation  = "sometimes"'),
    "use.extension.manifest_invalid",
  ],
  [
    "tool-optional-string",
    edit("    json_output = true\n", '    json_output = "yes"\n'),
    "use.extension.manifest_invalid",
  ],
  [
    "tool-service-contract-ext",
    edit('"tools/search/openapi.json"', '"tools/search/openapi.txt"'),
    "use.extension.manifest_invalid",
  ],
  [
    "tool-bare-ident-values-ok",
    edit('    workload    = "task"\n    interface   = "cli"', "    workload    = task\n    interface   = cli"),
    null,
    "a3s.acl.unquoted_word",
  ],
  ["mcp-transport-unsupported", edit('"streamable-http"', '"carrier-pigeon"'), "use.extension.manifest_invalid"],
  ["mcp-args-non-string", edit('["run", "--stdio"]', '["run", 2]'), "use.extension.manifest_invalid"],
  ["skill-not-skill-md", edit('"skills/peek/SKILL.md"', '"skills/peek/README.md"'), "use.extension.manifest_invalid"],
  ["skill-parent-path", edit('"skills/peek/SKILL.md"', '"../skills/peek/SKILL.md"'), "use.extension.path_escape"],
  [
    "skill-duplicate-requires",
    edit('requires_tool = ["render"]', 'requires_tool = ["render", "render"]'),
    "use.extension.manifest_invalid",
  ],
  ["ui-entry-htm", edit('"ui/status/index.html"', '"ui/status/index.htm"'), "use.extension.manifest_invalid"],
  [
    "ui-binds-unknown-mcp",
    edit('bind_mcp  = ["catalog"]', 'bind_mcp  = ["nowhere"]'),
    "use.extension.manifest_invalid",
  ],
  [
    "okf-format-0.1",
    add(
      `  okf "notes" {\n    format_version = "0.1"\n    root = "okf/notes"\n    content_digest = "sha256:${"a".repeat(64)}"\n    concept_count = 1\n    file_count = 1\n    expanded_bytes = 10\n    max_files = 256\n    max_concepts = 64\n    max_expanded_bytes = 67108864\n    max_document_bytes = 1048576\n    max_links_per_document = 2048\n    optional = false\n  }`,
    ),
    "use.extension.manifest_invalid",
  ],
  [
    "duplicate-attribute-last-wins",
    edit('  route          = "workbench"\n', '  route          = "workbench"\n  route          = "workbench"\n'),
    null,
    "a3s.acl.duplicate_attribute",
  ],
  ["missing-closing-brace-ok", M.replace(/}\n$/, ""), null, "a3s.acl.unclosed_block"],
  ["acl-parse-error", edit("schema_version = 3", "schema_version = ]"), "use.extension.manifest_invalid"],
  [
    "dependency-or-range",
    add('  dependency "acme/base" {\n    version = "^1.0.0 || ^2.0.0"\n  }'),
    "use.extension.manifest_invalid",
  ],
  ["dependency-missing-version", add('  dependency "acme/base" {\n  }'), "use.extension.manifest_invalid"],
];

const concept = "---\ntype: Guideline\n---\n";
/** OKF inspection cases: [id, files, limits, expected error code (null = inspects)]. */
export const OKF_CASES: [string, [string, string | number[]][], OkfLimits, string | null][] = [
  ["no-concepts", [["index.md", "# Index only\n"]], DEFAULT_OKF_LIMITS, "use.okf.bundle_invalid"],
  [
    "duplicate-path",
    [
      ["n.md", concept],
      ["n.md", concept],
    ],
    DEFAULT_OKF_LIMITS,
    "use.okf.bundle_invalid",
  ],
  [
    "non-md-only-counts",
    [
      ["n.md", concept],
      ["blob.bin", [0x00, 0xfe, 0x10]],
    ],
    DEFAULT_OKF_LIMITS,
    null,
  ],
  [
    "wikilink-dangling",
    [
      ["concepts/n.md", `${concept}\nSee [[m]] and [[m.md]] and [[gone]].\n`],
      ["concepts/m.md", concept],
    ],
    DEFAULT_OKF_LIMITS,
    null,
  ],
  ["trailing-slash-index", [["concepts/n.md", `${concept}\n[folder](./)\n`]], DEFAULT_OKF_LIMITS, null],
  [
    "external-and-fragment-links",
    [["n.md", `${concept}\n[a](https://example.org) [b](#intro) [c](mailto:x@example.org)\n`]],
    DEFAULT_OKF_LIMITS,
    null,
  ],
  ["type-numeric", [["n.md", "---\ntype: 42\n---\n"]], DEFAULT_OKF_LIMITS, "use.okf.bundle_invalid"],
  ["type-padded", [["n.md", '---\ntype: "Guideline "\n---\n']], DEFAULT_OKF_LIMITS, "use.okf.bundle_invalid"],
  [
    "index-numeric-version",
    [
      ["index.md", "---\nokf_version: 0.2\n---\n"],
      ["n.md", concept],
    ],
    DEFAULT_OKF_LIMITS,
    "use.okf.bundle_invalid",
  ],
  [
    "log-setext-h2",
    [
      ["n.md", concept],
      ["log.md", "Heading\n---\n"],
    ],
    DEFAULT_OKF_LIMITS,
    "use.okf.bundle_invalid",
  ],
  [
    "log-invalid-date",
    [
      ["n.md", concept],
      ["log.md", "## 2026-04-31\n"],
    ],
    DEFAULT_OKF_LIMITS,
    "use.okf.bundle_invalid",
  ],
  ["crlf-frontmatter", [["n.md", "---\r\ntype: Guideline\r\n---\r\ntext\r\n"]], DEFAULT_OKF_LIMITS, null],
  ["root-absolute-link", [["concepts/n.md", `${concept}\n[top](/index.md) [t2](/)\n`]], DEFAULT_OKF_LIMITS, null],
  ["path-escape-file", [["../n.md", concept]], DEFAULT_OKF_LIMITS, "use.okf.path_escape"],
  [
    "limit-exceeded",
    [
      ["a.md", concept],
      ["b.md", concept],
    ],
    { maxFiles: 1, maxConcepts: 1, maxExpandedBytes: 64, maxDocumentBytes: 64, maxLinksPerDocument: 1 },
    "use.okf.limit_exceeded",
  ],
];

export const okfBytes = (c: string | number[]): Uint8Array =>
  typeof c === "string" ? enc.encode(c) : new Uint8Array(c);

export function aclResult(input: string) {
  const r = parseAcl(input, "a3s-use-extension.acl");
  return {
    blocks: r.blocks?.map(blockToReferenceJson) ?? null,
    referenceError: r.referenceError?.message ?? null,
    strictErrors: r.strict.filter((d) => d.severity === "error").map((d) => d.code),
  };
}

export function reqResult(req: string) {
  const r = parseVersionReq(req);
  if (!r.ok) return { ok: false as const, error: r.error };
  const matches: Record<string, boolean> = {};
  for (const v of SEMVER_VERSIONS) {
    const pv = parseVersion(v);
    if (!pv.ok) throw new Error(pv.error);
    matches[v] = reqMatches(r.value, pv.value);
  }
  return { ok: true as const, display: formatVersionReq(r.value), matches };
}

export function versionResult(v: string) {
  const r = parseVersion(v);
  return r.ok ? { ok: true as const, display: formatVersion(r.value) } : { ok: false as const, error: r.error };
}

export const pathResult = (p: string) => ({
  components: components(p),
  rejects: rejectsRelativePath(p),
  fileName: fileName(p),
  extension: extension(p),
});

export function manifestResult(text: string) {
  const r = checkManifestText(text, "a3s-use-extension.acl");
  return {
    reference: r.reference,
    errors: r.diagnostics.filter((d) => d.severity === "error").map((d) => d.code),
    manifestBuilt: r.manifest !== null,
  };
}

export function okfResult(files: [string, string | number[]][], limits: OkfLimits) {
  const r = inspectOkfBundleFiles(
    files.map(([path, c]) => ({ path, bytes: okfBytes(c) })),
    limits,
  );
  if (!r.ok) return { ok: false as const, errors: r.errors.map((e) => ({ code: e.code, message: e.message })) };
  const i = r.inspection;
  return {
    ok: true as const,
    conceptCount: i.conceptCount,
    fileCount: i.fileCount,
    expandedBytes: i.expandedBytes,
    contentDigest: i.contentDigest,
    concepts: i.concepts,
    diagnostics: i.diagnostics.map((d) => [d.path, d.target]),
  };
}

function write(name: string, value: unknown): void {
  mkdirSync(CASES, { recursive: true });
  writeFileSync(join(CASES, `${name}.json`), `${JSON.stringify(value, null, 1)}\n`);
}

export function writeCases(): void {
  write(
    "acl-parse",
    ACL_INPUTS.map(([id, input, expect]) => ({ id, input, expect, result: aclResult(input) })),
  );
  write(
    "semver-requirements",
    SEMVER_REQS.map(([requirement, ok]) => ({
      requirement,
      expect: ok ? "ok" : "error",
      result: reqResult(requirement),
    })),
  );
  write(
    "semver-versions",
    SEMVER_VERSION_INPUTS.map(([version, ok]) => ({
      version,
      expect: ok ? "ok" : "error",
      result: versionResult(version),
    })),
  );
  write(
    "rust-paths",
    RUST_PATHS.map(([path, rejects]) => ({
      path,
      expect: rejects ? "rejected" : "relative",
      result: pathResult(path),
    })),
  );
  write(
    "manifest-rules",
    MANIFEST_CASES.map(([id, text, code, strict]) => ({
      id,
      text,
      expect: { code, strict: strict ?? null },
      result: manifestResult(text),
    })),
  );
  write(
    "okf-inspection",
    OKF_CASES.map(([id, files, limits, code]) => ({
      id,
      files,
      limits,
      expect: code,
      result: okfResult(files, limits),
    })),
  );
}
