/** Our own OKF fixtures, one per row of the reference's message table (test/a3s/okf-messages.test.ts). */
import { DEFAULT_OKF_LIMITS, type OkfLimits } from "../../src/a3s/okf/contract.js";
import { inspectOkfBundleFiles, type OkfError } from "../../src/a3s/okf/inspect.js";

const enc = new TextEncoder();
export const CONCEPT = "---\ntype: Metric\n---\n";
export type Files = Record<string, string | Uint8Array>;
export const inspect = (files: Files, limits: OkfLimits = DEFAULT_OKF_LIMITS) =>
  inspectOkfBundleFiles(
    Object.entries(files).map(([path, c]) => ({ path, bytes: typeof c === "string" ? enc.encode(c) : c })),
    limits,
  );
export const firstError = (files: Files, limits?: OkfLimits): OkfError => {
  const r = inspect(files, limits);
  if (r.ok) throw new Error("expected the bundle to be rejected");
  return r.errors[0]!;
};

/** [row, files, code, message, [line, column] of the offending place or null] */
export const ROWS: [string, Files, string, string, [number, number] | null][] = [
  [
    "must be UTF-8",
    { "a.md": new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0xff]) },
    "use.okf.bundle_invalid",
    "OKF Markdown document 'a.md' must be UTF-8: invalid utf-8 sequence of 1 bytes from index 4",
    [2, 1],
  ],
  [
    "must be UTF-8 (cut short)",
    { "a.md": new Uint8Array([0x61, 0xe2, 0x82]) },
    "use.okf.bundle_invalid",
    "OKF Markdown document 'a.md' must be UTF-8: incomplete utf-8 byte sequence from index 1",
    [1, 2],
  ],
  ["declared more than once", { "a.md": CONCEPT, "b.md": CONCEPT }, "", "", null], // built below (an object cannot hold one key twice)
  [
    "requires a YAML frontmatter block",
    { "a.md": "# A\n" },
    "use.okf.bundle_invalid",
    "OKF concept 'a.md' requires a YAML frontmatter block.",
    [1, 1],
  ],
  [
    "requires a non-empty string type",
    { "a.md": "---\ntitle: t\ntype: 3\n---\n" },
    "use.okf.bundle_invalid",
    "OKF concept 'a.md' requires a non-empty string type.",
    [3, 1],
  ],
  [
    "frontmatter must be a YAML mapping",
    { "a.md": "---\n- type\n---\n" },
    "use.okf.bundle_invalid",
    "OKF document 'a.md' frontmatter must be a YAML mapping.",
    [2, 1],
  ],
  [
    "log frontmatter must be a YAML mapping",
    { "a.md": CONCEPT, "log.md": "---\nplain\n---\n" },
    "use.okf.bundle_invalid",
    "OKF document 'log.md' frontmatter must be a YAML mapping.",
    [2, 1],
  ],
  [
    "unterminated YAML frontmatter block",
    { "a.md": "---\ntype: Metric\n" },
    "use.okf.bundle_invalid",
    "OKF document 'a.md' has an unterminated YAML frontmatter block.",
    [1, 1],
  ],
  [
    "reference outside the bundle",
    { "d/a.md": `${CONCEPT}\ntext\n\nsee [out](../../outside.md)\n` },
    "use.okf.path_escape",
    "OKF document 'd/a.md' contains a reference outside the bundle.",
    [7, 11],
  ],
  [
    "reference outside the bundle (frontmatter)",
    { "a.md": "---\ntype: Metric\ncomputation: ../x.py\n---\n" },
    "use.okf.path_escape",
    "OKF document 'a.md' contains a reference outside the bundle.",
    [3, 1],
  ],
  [
    "unsafe URI scheme",
    { "a.md": `${CONCEPT}[x](javascript:alert(1))\n` },
    "use.okf.bundle_invalid",
    "OKF document 'a.md' contains unsafe URI scheme 'javascript'.",
    [4, 5],
  ],
  [
    "non-UTF-8 path reference",
    { "a.md": `${CONCEPT}[x](b%ff.md)\n` },
    "use.okf.path_escape",
    "OKF document 'a.md' contains a non-UTF-8 path reference.",
    [4, 5],
  ],
  [
    "oversized path reference",
    { "a.md": `${CONCEPT}[x](${"b".repeat(1100)}.md)\n` },
    "use.okf.path_escape",
    "OKF document 'a.md' contains an oversized path reference.",
    [4, 5],
  ],
  [
    "unsafe path reference",
    { "a.md": `${CONCEPT}\n[x](C:\\outside.md)\n` },
    "use.okf.path_escape",
    "OKF document 'a.md' contains an unsafe path reference.",
    [5, 5],
  ],
  [
    "unique ISO 8601 date headings",
    { "a.md": CONCEPT, "log.md": "# Log\n\n## 2026-01-01\n\n## 2026-02-01\n" },
    "use.okf.bundle_invalid",
    "OKF log 'log.md' requires unique ISO 8601 date headings in newest-first order.",
    [5, 1],
  ],
  [
    "only the bundle-root index.md",
    { "a.md": CONCEPT, "n/index.md": "---\nokf_version: '0.2'\n---\n" },
    "use.okf.bundle_invalid",
    "Only the bundle-root index.md may contain frontmatter; 'n/index.md' does not.",
    [1, 1],
  ],
  [
    "may contain only okf_version",
    { "a.md": CONCEPT, "index.md": "---\nokf_version: '0.2'\ntitle: x\n---\n" },
    "use.okf.bundle_invalid",
    "The bundle-root index.md frontmatter may contain only okf_version.",
    [3, 1],
  ],
  [
    "requires string okf_version",
    { "a.md": CONCEPT, "index.md": "---\nokf_version: 0.2\n---\n" },
    "use.okf.bundle_invalid",
    "The bundle-root index.md frontmatter requires string okf_version.",
    [2, 1],
  ],
  [
    "okf_version does not match",
    { "a.md": CONCEPT, "index.md": "---\nokf_version: '0.1'\n---\n" },
    "use.okf.bundle_invalid",
    "The bundle-root okf_version '0.1' does not match the declared format version '0.2'.",
    [2, 1],
  ],
  [
    "not a canonical bundle-relative path",
    { "./a.md": CONCEPT },
    "use.okf.path_escape",
    "The OKF bundle file './a.md' is not a canonical bundle-relative path.",
    null,
  ],
  [
    "exceeds its declared conformance limits",
    { "a.md": CONCEPT, "b.md": CONCEPT },
    "use.okf.limit_exceeded",
    "The OKF bundle exceeds its declared conformance limits.",
    null,
  ],
];
