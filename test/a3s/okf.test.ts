import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { DEFAULT_OKF_LIMITS, type OkfLimits } from "../../src/a3s/okf/contract.js";
import { inspectOkfBundleFiles, markdownFacts, verifyInspection } from "../../src/a3s/okf/inspect.js";
import { REPO } from "./helpers.js";
import { okfContractCasesOn } from "./okf-contract-cases.js";
import { ATLAS_BUNDLE, bundleFacts } from "./own-package.js";

const enc = new TextEncoder();
// The upstream cases of reference §6.3, rebuilt from its table, on our own bundle (test/a3s/own-package.ts).
const bundle = Object.entries(ATLAS_BUNDLE).map(([path, c]) => ({ path, bytes: enc.encode(c) }));
const codeOf = (files: Record<string, string>, limits: OkfLimits = DEFAULT_OKF_LIMITS) => {
  const r = inspectOkfBundleFiles(
    Object.entries(files).map(([path, c]) => ({ path, bytes: enc.encode(c) })),
    limits,
  );
  return r.ok ? null : r.errors[0]!.code;
};
const concept = "---\ntype: Metric\n---\n";

describe("okf_bundle_contracts.rs cases (reference §6.3)", () => {
  test.each([
    ["missing frontmatter", "# no frontmatter\n"],
    ["no type", "---\ntitle: x\n---\n"],
    ["empty type", '---\ntype: ""\n---\n'],
    ["list type", "---\ntype: [Metric]\n---\n"],
    ["invalid YAML", "---\ntype: [unclosed\n---\n"],
    ["' ---' opening", " ---\ntype: Metric\n---\n"],
    ["'--- ' closing", "---\ntype: Metric\n--- \n"],
  ])("concept with %s is bundle_invalid", (_n, content) =>
    expect(codeOf({ "concept.md": content })).toBe("use.okf.bundle_invalid"),
  );

  test("duplicate frontmatter keys are invalid YAML (uniqueKeys), and 0.2 stays a float", () => {
    expect(codeOf({ "concept.md": "---\ntype: Metric\ntype: Other\n---\n" })).toBe("use.okf.bundle_invalid");
    expect(codeOf({ "concept.md": "---\ntype: Metric\ntitle: x\n---\n" })).toBeNull();
    // YAML 1.2 core schema: an unquoted 0.2 is a number, so it is not the string "0.2".
    expect(codeOf({ "index.md": "---\nokf_version: 0.2\n---\n", "a.md": concept })).toBe("use.okf.bundle_invalid");
  });
  test("file path ../concept.md", () => expect(codeOf({ "../concept.md": concept })).toBe("use.okf.path_escape"));
  test("link escaping the root", () =>
    expect(codeOf({ "concepts/concept.md": `${concept}\n[escape](../../outside.md)\n` })).toBe("use.okf.path_escape"));
  test("computation escaping the root", () =>
    expect(codeOf({ "concept.md": "---\ntype: Metric\ncomputation: ../../outside.py\n---\n" })).toBe(
      "use.okf.path_escape",
    ));
  test("limits 1/1/64/64/1 with two files", () =>
    expect(
      codeOf(
        { "a.md": concept, "b.md": concept },
        { maxFiles: 1, maxConcepts: 1, maxExpandedBytes: 64, maxDocumentBytes: 64, maxLinksPerDocument: 1 },
      ),
    ).toBe("use.okf.limit_exceeded"));
  test("changing revenue.py changes the digest", () => {
    const a = inspectOkfBundleFiles(bundle, DEFAULT_OKF_LIMITS);
    const b = inspectOkfBundleFiles(
      bundle.map((f) => (f.path.endsWith(".py") ? { ...f, bytes: enc.encode("changed") } : f)),
      DEFAULT_OKF_LIMITS,
    );
    expect(a.ok && b.ok && a.inspection.contentDigest !== b.inspection.contentDigest).toBe(true);
  });
  test("contract with a different digest is a contract_mismatch", () => {
    const a = inspectOkfBundleFiles(bundle, DEFAULT_OKF_LIMITS);
    if (!a.ok) throw new Error("bundle");
    const { conceptCount, fileCount, expandedBytes } = bundleFacts();
    const contract = {
      schema: "a3s.use.okf-bundle.v1" as const,
      formatVersion: "0.2" as const,
      root: "okf",
      contentDigest: `sha256:${"f".repeat(64)}`,
      conceptCount,
      fileCount,
      expandedBytes,
      limits: DEFAULT_OKF_LIMITS,
    };
    expect(verifyInspection(contract, a.inspection)?.code).toBe("use.okf.contract_mismatch");
    expect(verifyInspection({ ...contract, contentDigest: a.inspection.contentDigest }, a.inspection)).toBeNull();
  });
  test("root index.md with okf_version 0.1", () =>
    expect(codeOf({ "index.md": '---\nokf_version: "0.1"\n---\n', "a.md": concept })).toBe("use.okf.bundle_invalid"));
  test("root index.md with okf_version 0.2 is fine", () =>
    expect(codeOf({ "index.md": '---\nokf_version: "0.2"\n---\n', "a.md": concept })).toBeNull());
  test("nested/index.md with frontmatter", () =>
    expect(codeOf({ "nested/index.md": '---\nokf_version: "0.2"\n---\n', "a.md": concept })).toBe(
      "use.okf.bundle_invalid",
    ));
  test("log.md with ascending H2 dates", () =>
    expect(codeOf({ "log.md": "## 2026-01-01\n\n## 2026-02-01\n", "a.md": concept })).toBe("use.okf.bundle_invalid"));
  test("log.md with descending H2 dates", () =>
    expect(codeOf({ "log.md": "## 2026-02-01\n\n## 2026-01-01\n", "a.md": concept })).toBeNull());
  test("log.md with '## not-a-date' in a code fence", () =>
    expect(codeOf({ "log.md": "```\n## not-a-date\n```\n", "a.md": concept })).toBeNull());
  test("percent-encoded escape", () =>
    expect(codeOf({ "concepts/a.md": `${concept}\n[unsafe](%2e%2e/%2e%2e/outside.md)\n` })).toBe(
      "use.okf.path_escape",
    ));
  test("javascript: link", () =>
    expect(codeOf({ "a.md": `${concept}\n[x](javascript:alert(1))\n` })).toBe("use.okf.bundle_invalid"));
  test("backslash path", () =>
    expect(codeOf({ "a.md": `${concept}\n[unsafe](C:\\outside.md)\n` })).toBe("use.okf.path_escape"));
  test("out-of-bounds limits are contract_invalid", () =>
    expect(codeOf({ "a.md": concept }, { ...DEFAULT_OKF_LIMITS, maxFiles: 5000 })).toBe("use.okf.contract_invalid"));
  test("every broken document is reported, first in path order", () => {
    const r = inspectOkfBundleFiles(
      [
        { path: "b.md", bytes: enc.encode("x") },
        { path: "a.md", bytes: enc.encode("y") },
        { path: "c.md", bytes: enc.encode(concept) },
      ],
      DEFAULT_OKF_LIMITS,
    );
    expect(r.ok ? [] : r.errors.map((e) => e.path)).toEqual(["a.md", "b.md"]);
  });
});

describe("Markdown link extraction (pulldown-cmark Options::all behaviour)", () => {
  test("reference links, autolinks, images and wikilinks count; code does not", () => {
    const f = markdownFacts("[a][r] <https://x.y> ![i](img.png) [[w|label]] `[no](x)`\n\n    [no](y)\n\n[r]: ref.md\n");
    expect(f.destinations).toEqual(["ref.md", "https://x.y", "img.png", "w"]);
  });
  test("H2 text: setext and ATX, code joined, trimmed", () => {
    expect(markdownFacts("## 2026-01-`02`  \n\nA\n---\n").h2).toEqual(["2026-01-02", "A"]);
  });
});

describe("OKF contract JSON (reference §5.1, okf_bundle_contracts.rs; fixtures/a3s/okf/bundle-v02.contract.json)", () => {
  okfContractCasesOn(
    "our contract",
    readFileSync(join(REPO, "fixtures", "a3s", "okf", "bundle-v02.contract.json")),
    bundle,
  );
});
