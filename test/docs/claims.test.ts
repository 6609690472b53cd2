/**
 * Issue 21, item 4: every statement the docs make with "rejected", "not checked", "not
 * implemented", "enforced" or "atomic" is backed by a named test. CLAIMS lists, for each such
 * line of docs/ (every Markdown file, subfolders included) and README.md, a fragment of the line
 * and the test that proves it. This file checks that each fragment is still in its doc, that each
 * named test still exists (a literal `it`/`test` title, a row of an `it.each` table, a fixture the
 * test runs with the code its golden holds, or a conformance case), and that every line using one
 * of the five words is covered, so a new claim without a test fails here.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { CASES } from "../../src/harp/host/conformance.js";
import { SANDBOX_CASES } from "../../src/harp/host/sandbox-cases.js";
import { REPO_ROOT } from "../support/repo.js";

/** The five words of the issue; a line holding one makes a claim that needs a test. */
const CLAIM_WORDS = /rejected|not checked|not implemented|enforced|atomic/i;

interface Proof {
  /** The test file, from the repository root. */
  readonly test: string;
  /** A fragment of a literal `it(…)`/`test(…)` title in that file. */
  readonly title?: string;
  /** A row name of an `it.each`/`test.each` table in that file (the title is generated from it). */
  readonly row?: string;
  /** A fixture the test runs (it must exist), and the code its golden file must hold. */
  readonly fixture?: string;
  readonly golden?: readonly [file: string, code: string];
  /** A case of the HARP conformance suite or the sandbox attack suite the test runs. */
  readonly caseId?: string;
}

interface Claim {
  readonly doc: string;
  /** A fragment of one line of the doc; it holds one of the five words. */
  readonly phrase: string;
  readonly proofs: readonly Proof[];
}

const HNS_FIXTURES = "test/hns/golden.test.ts";
const HNS_OUTCOME = "every fixture has the outcome its directory names";
const hnsFixture = (code: string, name: string): Proof => ({
  test: HNS_FIXTURES,
  title: HNS_OUTCOME,
  fixture: `fixtures/hns/failure/${code}/${name}`,
  golden: [`golden/hns/failure/${code}/${name}.json`, code],
});

const CLAIMS: readonly Claim[] = [
  // docs/eval.md
  {
    doc: "docs/eval.md",
    phrase: 'A refused completion prints `"rejected":true` and no state.',
    proofs: [
      {
        test: "test/eval/cli.test.ts",
        title: "suspends with requests, resumes with a completion file, and never rewrites a state in place",
      },
    ],
  },
  {
    doc: "docs/eval.md",
    phrase: '`{"outcome":"rejected","path":P,"diagnostics":[…]}`',
    proofs: [
      {
        test: "test/eval/cli.test.ts",
        title: "a static tool argument its schema forbids is refused before the run, as check refuses it",
      },
      {
        test: "test/eval/cli.test.ts",
        title: "an ill-typed program is refused with the analyzer's diagnostics, as check and ir give them",
      },
    ],
  },
  // docs/catalog.md
  {
    doc: "docs/catalog.md",
    phrase: "`check`'s own diagnostics followed by one `catalog.rejected` that says why",
    proofs: [
      {
        test: "test/hostile/surfaces/verdicts.test.ts",
        title: "covers valid and invalid HNS trees, a tree that cannot be read, and a valid package of another kind",
      },
      {
        test: "test/hostile/surfaces/verdicts.test.ts",
        title: "on every tree of the corpus, with check's codes and identity",
      },
    ],
  },
  // docs/a3s.md
  {
    doc: "docs/a3s.md",
    phrase: "NFC, floats rejected",
    proofs: [{ test: "test/a3s/cjson.test.ts", title: "floats are rejected when read and when written" }],
  },
  {
    doc: "docs/a3s.md",
    phrase: "surrogates rejected). Not RFC 8785",
    proofs: [
      { test: "test/a3s/cjson.test.ts", title: "lone surrogates are rejected, escaped or raw, in values and keys" },
      { test: "test/a3s/cjson.test.ts", title: "duplicate keys are rejected" },
    ],
  },
  {
    doc: "docs/a3s.md",
    phrase: "lenient, accepted, rejected)",
    proofs: [{ test: "test/a3s/cases.test.ts", title: "every verdict is represented" }],
  },
  {
    doc: "docs/a3s.md",
    phrase: "## Not implemented",
    proofs: [
      {
        test: "test/a3s/cli.test.ts",
        title: "resolve and lock verify say catalog signatures and TUF metadata are not verified",
      },
    ],
  },
  {
    doc: "docs/a3s.md",
    phrase: "duplicate keys rejected (`uniqueKeys`)",
    proofs: [{ test: "test/a3s/okf.test.ts", title: "duplicate frontmatter keys are invalid YAML (uniqueKeys)" }],
  },
  // docs/architecture.md (left as it is: another change is editing it)
  {
    doc: "docs/architecture.md",
    phrase: "| invariant | enforced by |",
    proofs: [
      { test: "test/architecture/code-map.test.ts", title: "names only paths that exist" },
      { test: "test/architecture/imports.test.ts", title: "hold for every file under src/, ir/ and grammar/" },
      { test: "test/repo/habits.test.ts", title: "npm test runs the Biome check first" },
    ],
  },
  {
    doc: "docs/architecture.md",
    phrase: "the on-disk store with atomic writes and",
    proofs: [
      {
        test: "test/cli/check-cache.test.ts",
        title: "leaves only whole entries when two processes write the same cache at once",
      },
      { test: "test/cli/check-cache.test.ts", title: "prunes the least recently used entries past its budget" },
    ],
  },
  {
    doc: "docs/architecture.md",
    phrase: "with editors' atomic saves reported as one change",
    proofs: [{ test: "test/cli/check-watch.test.ts", title: "re-checks the changed package" }],
  },
  {
    doc: "docs/architecture.md",
    phrase: "behind an atomically renamed pointer",
    proofs: [
      {
        test: "test/harp-sandbox/lifecycle.test.ts",
        title: "a SIGKILL at any point leaves the old or the new complete bundle",
      },
    ],
  },
  {
    doc: "docs/architecture.md",
    phrase: "duplicate tools are rejected",
    proofs: [hnsFixture("hns.bad_requires", "single-duplicate-tool.hns")],
  },
  {
    doc: "docs/architecture.md",
    phrase: "ids and versions are rejected",
    proofs: [
      hnsFixture("hns.empty_field", "single-empty-id.hns"),
      hnsFixture("hns.empty_field", "single-padded-id.hns"),
      hnsFixture("hns.empty_field", "dir-padded-version.hns"),
    ],
  },
  {
    doc: "docs/architecture.md",
    phrase: "rejected at the repeat (`harp.duplicate_key`)",
    proofs: [
      { test: "test/json/parse.test.ts", title: "duplicate names: HCP reports both spans, HARP and A3S reject" },
      {
        test: "test/json/parse.test.ts",
        title: "lone surrogates: HCP and Yao accept them, HARP rejects them as written",
      },
    ],
  },
  {
    doc: "docs/architecture.md",
    phrase: "rejected when the decoded string is not well-formed",
    proofs: [
      { test: "test/json/parse.test.ts", title: "A3S rejects them once decoded" },
      { test: "test/a3s/cjson.test.ts", title: "lone surrogates are rejected, escaped or raw, in values and keys" },
      { test: "test/a3s/cjson.test.ts", title: "duplicate keys are rejected" },
    ],
  },
  // docs/catalog.md
  {
    doc: "docs/catalog.md",
    phrase: "A different identity is rejected with `catalog.conflict`",
    proofs: [
      {
        test: "test/catalog/catalog.test.ts",
        title:
          "rejects different content under an installed (id, version), naming both identities, overwriting nothing",
      },
    ],
  },
  {
    doc: "docs/catalog.md",
    phrase: "**objects** (`writeAtomic`)",
    proofs: [
      { test: "test/catalog/processes.test.ts", title: "200 installs killed with SIGKILL at random moments" },
      { test: "test/catalog/catalog.test.ts", title: "writes the layout with no temp files left behind" },
    ],
  },
  {
    doc: "docs/catalog.md",
    phrase: "`link(2)` is atomic: among any number of callers",
    proofs: [
      {
        test: "test/catalog/processes.test.ts",
        title: "8 processes installing different contents under one (id, version): exactly one wins",
      },
    ],
  },
  {
    // A statement about NFS servers; what the catalog relies on (one link wins) is tested.
    doc: "docs/catalog.md",
    phrase: "`link` and `rename` are atomic on the server",
    proofs: [
      {
        test: "test/catalog/processes.test.ts",
        title: "8 processes installing different contents under one (id, version): exactly one wins",
      },
    ],
  },
  // docs/diagnostics.md (generated from the code tables)
  {
    doc: "docs/diagnostics.md",
    phrase: "hold non-atomic names",
    proofs: [
      hnsFixture("hns.bad_capabilities", "single-list-tool.hns"),
      hnsFixture("hns.bad_capabilities", "single-unnamed-item.hns"),
    ],
  },
  {
    doc: "docs/diagnostics.md",
    phrase: "it is rejected without being opened",
    proofs: [
      { test: "test/hns/hostile.test.ts", row: "socket manifest" },
      { test: "test/hns/hostile.test.ts", row: "character device entry" },
      { test: "test/hns/hostile.test.ts", title: "FIFO entry → hns.not_regular_file, without hanging" },
      hnsFixture("hns.not_regular_file", "dir-entry-is-directory.hns"),
    ],
  },
  {
    doc: "docs/diagnostics.md",
    phrase: "`harp.package_file_rejected`",
    proofs: [
      {
        test: "test/harp/validate.test.ts",
        title: "rejects a FIFO or directory as executable and a special file in the tree",
      },
      { test: "test/harp/validate.test.ts", title: "rejects an executable link that escapes the package" },
    ],
  },
  {
    doc: "docs/diagnostics.md",
    phrase: "`catalog.rejected`",
    proofs: [
      { test: "test/catalog/catalog.test.ts", title: "never stores an invalid package" },
      { test: "test/catalog/catalog.test.ts", title: "never stores a package the analyzer rejects" },
    ],
  },
  // docs/divergences.md and docs/divergences/
  {
    doc: "docs/divergences.md",
    phrase: "| rejected from metadata, never opened | `hns.not_regular_file` |",
    proofs: [
      { test: "test/hns/hostile.test.ts", title: "FIFO entry → hns.not_regular_file, without hanging" },
      { test: "test/hns/hostile.test.ts", row: "FIFO entry" },
    ],
  },
  {
    doc: "docs/divergences.md",
    phrase: "| rejected | `hns.bad_entry_path` |",
    proofs: [
      hnsFixture("hns.bad_entry_path", "dir-empty.hns"),
      hnsFixture("hns.bad_entry_path", "dir-dot.hns"),
      hnsFixture("hns.bad_entry_path", "dir-backslash.hns"),
      hnsFixture("hns.bad_entry_path", "dir-drive.hns"),
      hnsFixture("hns.bad_entry_path", "dir-not-yao.hns"),
    ],
  },
  {
    doc: "docs/divergences.md",
    phrase: "| rejected at load | `hns.empty_field` |",
    proofs: [
      hnsFixture("hns.empty_field", "single-empty-id.hns"),
      hnsFixture("hns.empty_field", "single-blank-version.hns"),
      hnsFixture("hns.empty_field", "single-padded-id.hns"),
    ],
  },
  {
    doc: "docs/divergences.md",
    phrase: "| rejected at load | `hns.bad_requires` |",
    proofs: [hnsFixture("hns.bad_requires", "single-duplicate-tool.hns")],
  },
  {
    doc: "docs/divergences/a3s.md",
    phrase: "rejected by the schema's type checks",
    proofs: [
      {
        test: "test/a3s/cases.test.ts",
        title: "parses canonically and is rejected by the schema's type check",
      },
    ],
  },
  {
    doc: "docs/divergences/yao.md",
    phrase: "rejected: `invalid or reserved HNS function name '…'`",
    proofs: [{ test: "test/yao/rules.test.ts", row: "reserved to-json (D-Q3)" }],
  },
  // docs/harp-conformance.md
  {
    doc: "docs/harp-conformance.md",
    phrase: "| C02 | unknown non-x- members (incl. `ready`, `operations`) rejected",
    proofs: [{ test: "test/harp-conformance/conformance.test.ts", caseId: "C02" }],
  },
  {
    doc: "docs/harp-conformance.md",
    phrase: "| C03 | unknown `runtime.kind` rejected as invalid",
    proofs: [{ test: "test/harp-conformance/conformance.test.ts", caseId: "C03" }],
  },
  {
    doc: "docs/harp-conformance.md",
    phrase: "| C24 | omitted permissions enforced as `loopback` + `data-only`",
    proofs: [{ test: "test/harp-conformance/conformance.test.ts", caseId: "C24" }],
  },
  // docs/harp.md
  {
    doc: "docs/harp.md",
    phrase: "enforced by a Linux sandbox",
    proofs: [
      { test: "test/harp-sandbox/attacks.test.ts", title: "this machine can sandbox apps" },
      { test: "test/harp-sandbox/attacks.test.ts", caseId: "C31" },
      { test: "test/harp-sandbox/attacks.test.ts", caseId: "C36" },
      { test: "test/harp-conformance/conformance.test.ts", caseId: "C23" },
    ],
  },
  {
    doc: "docs/harp.md",
    phrase: "**install/upgrade** are atomic under SIGKILL at any point",
    proofs: [
      {
        test: "test/harp-sandbox/lifecycle.test.ts",
        title: "a SIGKILL at any point leaves the old or the new complete bundle",
      },
    ],
  },
  {
    doc: "docs/harp.md",
    phrase: "(one atomic step: from then on",
    proofs: [
      {
        test: "test/harp-sandbox/lifecycle.test.ts",
        title: "an uninstall killed after its one rename has uninstalled the app",
      },
    ],
  },
  {
    doc: "docs/harp.md",
    phrase: "a bubblewrap sandbox, enforced or refused",
    proofs: [
      { test: "test/harp-conformance/conformance.test.ts", caseId: "C25" },
      { test: "test/harp-conformance/conformance.test.ts", caseId: "C22" },
    ],
  },
  {
    doc: "docs/harp.md",
    phrase: "both values are enforced identically",
    proofs: [{ test: "test/harp-conformance/conformance.test.ts", caseId: "C21" }],
  },
  {
    doc: "docs/harp.md",
    phrase: "cgroup v2 delegation is not implemented",
    proofs: [
      { test: "test/harp-sandbox/cli.test.ts", title: "limits come from cgroup v1 or rlimits, never cgroup v2" },
    ],
  },
  {
    doc: "docs/harp.md",
    phrase: "| versioned bundles + atomic pointer rename |",
    proofs: [
      {
        test: "test/harp-sandbox/lifecycle.test.ts",
        title: "a SIGKILL at any point leaves the old or the new complete bundle",
      },
    ],
  },
  // docs/hcp.md
  {
    doc: "docs/hcp.md",
    phrase: "FIFOs, devices and directories are rejected from metadata, never opened",
    proofs: [
      { test: "test/hcp/fs-hostile.test.ts", title: "rejects a FIFO, a directory and a device without reading them" },
      { test: "test/hcp/fs-hostile.test.ts", title: "rejects a FIFO protocol file without blocking" },
    ],
  },
  {
    doc: "docs/hcp.md",
    phrase: "the document is not checked further",
    proofs: [
      { test: "test/hcp/check.test.ts", title: "a lone surrogate is reported and the document is not checked further" },
    ],
  },
  {
    doc: "docs/hcp.md",
    phrase: "runtime's search path, or an absolute path, and is not checked.",
    proofs: [
      {
        test: "test/hcp/check.test.ts",
        title: "a wrap.bin that does not begin with . names a program and is not checked as a path",
      },
    ],
  },
  {
    doc: "docs/hcp.md",
    phrase: "Any `..` component is rejected.",
    proofs: [
      {
        test: "test/hcp/golden.test.ts",
        fixture: "fixtures/hcp/path-wrap-bin-dotdot",
        golden: ["golden/hcp/path-wrap-bin-dotdot.json", "hcp.path.escape"],
      },
    ],
  },
  {
    doc: "docs/hcp.md",
    phrase: "FIFOs, sockets and devices are rejected from `lstat`/`stat` and never opened",
    proofs: [
      { test: "test/hcp/fs-hostile.test.ts", title: "rejects a FIFO, a directory and a device without reading them" },
      { test: "test/hcp/fs-hostile.test.ts", title: "rejects a FIFO named by openapi.path without blocking" },
    ],
  },
  // README.md
  {
    doc: "README.md",
    phrase: "// rejected: yao.type_mismatch on line 3",
    proofs: [
      {
        test: "test/check/facade.test.ts",
        title: "check rejects the ill-typed package with the analyzer's diagnostic and admits the well-typed one",
      },
    ],
  },
  {
    doc: "README.md",
    phrase: "rewrite changed files atomically, keeping their mode",
    proofs: [
      { test: "test/fmt/cli.test.ts", title: "--write rewrites only changed files, keeping their mode" },
      {
        test: "test/fmt/cli.test.ts",
        title: "aborts with the reference message, keeps the new content and leaves no temp file",
      },
    ],
  },
];

const read = (rel: string) => readFileSync(join(REPO_ROOT, rel), "utf8");

/** docs/**\/*.md and README.md, as repository-relative paths. */
function claimDocs(): string[] {
  const out = ["README.md"];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".md")) out.push(relative(REPO_ROOT, p));
    }
  };
  walk(join(REPO_ROOT, "docs"));
  return out.sort();
}

/** The literal titles of `it(…)`/`test(…)` calls (with `.each(…)`, `.skipIf(…)`, `.fails` and the like). */
function titles(source: string): string[] {
  const call =
    /\b(?:it|test)(?:\.(?:each|skipIf|runIf|fails|concurrent|sequential|only)(?:\([^()]*(?:\([^()]*\)[^()]*)*\))?)*\(\s*(["'`])((?:\\.|(?!\1)[^\\])*)\1/g;
  return [...source.matchAll(call)].map((m) => m[2]!.replace(/\\(["'`\\])/g, "$1"));
}

function checkProof(p: Proof): void {
  expect(existsSync(join(REPO_ROOT, p.test)), `${p.test} exists`).toBe(true);
  const source = read(p.test);
  expect(
    p.title !== undefined || p.row !== undefined || p.fixture !== undefined || p.caseId !== undefined,
    "a proof names a test, a table row, a fixture or a case",
  ).toBe(true);
  if (p.title !== undefined) {
    const found = titles(source).filter((t) => t.includes(p.title!));
    expect(found, `${p.test} has a test titled …${p.title}…`).not.toEqual([]);
  }
  if (p.row !== undefined) {
    expect(source, `${p.test} runs a table`).toMatch(/\b(?:it|test)\.each\(/);
    expect(source.includes(JSON.stringify(p.row)), `${p.test} has the row ${p.row}`).toBe(true);
  }
  if (p.fixture !== undefined) {
    expect(existsSync(join(REPO_ROOT, p.fixture)), `${p.fixture} exists`).toBe(true);
    // The test discovers the fixture's family by its folder (e.g. fixtures/hcp, or the HNS walker).
    const family = p.fixture.split("/").slice(0, 2).join("/");
    expect(source.includes(family) || source.includes("discoverHnsFixtures"), `${p.test} runs ${family}`).toBe(true);
  }
  if (p.golden !== undefined) {
    const [file, code] = p.golden;
    expect(read(file), `${file} holds ${code}`).toContain(`"code": "${code}"`);
  }
  if (p.caseId !== undefined) {
    // The suite the test file iterates must hold the case.
    const suite = /for \(const c of (CASES|SANDBOX_CASES)\)/.exec(source)?.[1];
    expect(suite, `${p.test} runs every case of a suite`).toBeDefined();
    const cases = suite === "CASES" ? CASES : SANDBOX_CASES;
    expect(
      cases.some((c) => c.id === p.caseId),
      `${p.caseId} is a case of ${suite}`,
    ).toBe(true);
  }
}

describe("every claim in the docs has a test (issue 21, item 4)", () => {
  it.each(CLAIMS.map((c) => [`${c.doc}: ${c.phrase}`, c] as const))("%s", (_name, claim) => {
    const lines = read(claim.doc).split("\n");
    const line = lines.find((l) => l.includes(claim.phrase));
    expect(line, `${claim.doc} still says ${claim.phrase}`).toBeDefined();
    expect(claim.phrase, "the fragment holds the claim word").toMatch(CLAIM_WORDS);
    expect(claim.proofs.length).toBeGreaterThan(0);
    for (const p of claim.proofs) checkProof(p);
  });

  it("every line of docs/ and README.md with one of the five words is covered by a claim", () => {
    const uncovered: string[] = [];
    for (const doc of claimDocs()) {
      read(doc)
        .split("\n")
        .forEach((line, i) => {
          if (!CLAIM_WORDS.test(line)) return;
          if (!CLAIMS.some((c) => c.doc === doc && line.includes(c.phrase)))
            uncovered.push(`${doc}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(uncovered).toEqual([]);
  });

  it("the scanner sees a new claim: a line with a claim word and no entry is reported", () => {
    const line = "Unknown members are rejected.";
    expect(CLAIM_WORDS.test(line)).toBe(true);
    expect(CLAIMS.some((c) => line.includes(c.phrase))).toBe(false);
    expect(titles('it("a", () => {}); it.skipIf(x)(\n  "b c", f); test.each(rows)(`%s d`, g);')).toEqual([
      "a",
      "b c",
      "%s d",
    ]);
  });
});
