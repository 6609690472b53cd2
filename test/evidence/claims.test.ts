/**
 * Issue 20, deliverable 4: attest holds the repository's own measured claims to §5.1 — every
 * object with `evidence_class` in a .json / .jsonl under bench/ and docs/ (a `measured` one needs
 * `measure_source` and `measure_ts`), and a document claiming measured results needs such honest
 * evidence beside it; a bare `{"evidence_class":"measured"}` backs nothing. D10 is read from the
 * real CI entry.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ciEntry, claimFindings } from "../../src/cli/evidence.js";
import { evidenceClaims } from "../../src/evidence/receipt.js";
import { REPO_ROOT } from "../support/repo.js";

const tmp = mkdtempSync(join(tmpdir(), "yaoc-claims-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
function tree(files: Record<string, string>): string {
  const root = join(tmp, String(n++));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, rel, ".."), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}
const codes = (root: string) =>
  claimFindings(root)
    .findings.map((d) => `${d.code} ${d.file ?? ""}`)
    .sort();
const CLAIM = "# Speed\n\nOur measured results: 3x faster.\n";
const HONEST = JSON.stringify({
  evidence_class: "measured",
  measure_source: "npm run bench",
  measure_ts: "2026-12-01T00:00:00Z",
  value: 3,
});

describe("measured claims under bench/ and docs/", () => {
  it("a measured bench result with source/timestamp instead of the evidence fields is H1 twice", () => {
    const root = tree({
      "bench/results.json": JSON.stringify({
        evidence_class: "measured",
        source: "npm run bench",
        timestamp: "2026-11-30T00:00:00Z",
        rows: [],
      }),
    });
    expect(codes(root)).toEqual([
      "evidence.hon_measured_no_source bench/results.json",
      "evidence.hon_measured_no_ts bench/results.json",
    ]);
    expect(claimFindings(root)).toMatchObject({ files: 1, claims: 1 });
  });

  it("a bare measured file is flagged and does not back a document's claim", () => {
    const bare = tree({ "docs/perf.md": CLAIM, "docs/figures.json": '{"evidence_class":"measured"}' });
    expect(codes(bare)).toEqual([
      "evidence.hon_doc_claim_unbacked docs/perf.md",
      "evidence.hon_measured_no_source docs/figures.json",
      "evidence.hon_measured_no_ts docs/figures.json",
    ]);
    expect(codes(tree({ "docs/perf.md": CLAIM, "docs/figures.json": HONEST }))).toEqual([]);
  });

  it("reads nested claims and .jsonl lines, naming the object, and never skips an unreadable evidence file", () => {
    const root = tree({
      "bench/runs.jsonl": `${HONEST}\n${JSON.stringify({ evidence_class: "third_party" })}\n`,
      "docs/a/nested.json": JSON.stringify({ figures: [{ evidence_class: "measured", measure_source: "x" }] }),
      "docs/broken.json": '{"evidence_class": "measured",',
    });
    expect(codes(root)).toEqual([
      "evidence.hon_invalid_evidence_class docs/broken.json",
      "evidence.hon_measured_no_ts docs/a/nested.json#/figures/0",
      "evidence.hon_third_party_no_source bench/runs.jsonl:2",
    ]);
    expect(evidenceClaims("x", JSON.parse(HONEST))).toMatchObject({ claims: 1, honest: 1, findings: [] });
  });

  it("the repository's bench/results.json is held to the rule (yellow while it lacks the evidence fields)", () => {
    const results = JSON.parse(readFileSync(join(REPO_ROOT, "bench/results.json"), "utf8")) as Record<string, unknown>;
    const about = claimFindings(REPO_ROOT)
      .findings.filter((d) => d.file === "bench/results.json")
      .map((d) => d.code);
    if (typeof results["measure_source"] === "string" && typeof results["measure_ts"] === "string")
      expect(about).toEqual([]);
    else expect(about.length).toBeGreaterThan(0);
  });
});

describe("measured claims in every Markdown file of the repository (seed 002 §5.2)", () => {
  const CN = "# 基准\n\n本实现实测 11/12 通过。\n";

  it("outside a git work tree: bench/README.md and any other folder's Markdown are scanned; node_modules, dist and dot folders are not", () => {
    const root = tree({
      "bench/README.md": CN,
      "notes/deep/perf.md": CLAIM,
      "README.md": "# plain\n",
      "node_modules/pkg/README.md": CLAIM,
      "dist/README.md": CLAIM,
      ".cache/notes.md": CLAIM,
    });
    expect(codes(root)).toEqual([
      "evidence.hon_doc_claim_unbacked bench/README.md",
      "evidence.hon_doc_claim_unbacked notes/deep/perf.md",
    ]);
  });

  it("honest evidence in the document's own folder backs it, wherever the folder is", () => {
    expect(codes(tree({ "notes/perf.md": CLAIM, "notes/figures.json": HONEST }))).toEqual([]);
    expect(codes(tree({ "bench/README.md": CN, "bench/results.json": HONEST }))).toEqual([]);
    expect(codes(tree({ "notes/perf.md": CLAIM, "other/figures.json": HONEST }))).toEqual([
      "evidence.hon_doc_claim_unbacked notes/perf.md",
    ]);
  });

  it("in a git work tree: exactly the tracked Markdown files, dot folders included, untracked ones not", () => {
    const root = tree({
      "bench/README.md": CN,
      ".github/notes.md": CLAIM,
      "scratch.md": CLAIM,
      "docs/ok.md": "# fine\n",
    });
    const git = (...args: string[]) =>
      execFileSync("git", ["-C", root, ...args], { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
    git("init", "-q");
    git("add", "bench/README.md", ".github/notes.md", "docs/ok.md");
    expect(codes(root)).toEqual([
      "evidence.hon_doc_claim_unbacked .github/notes.md",
      "evidence.hon_doc_claim_unbacked bench/README.md",
    ]);
  });
});

describe("D10 from the CI entry", () => {
  it("passes when .ci/run runs attest (directly or through .ci/attest), not otherwise", () => {
    expect(ciEntry(REPO_ROOT)).toMatchObject({ entry: ".ci/run", runsAttest: true });
    expect(ciEntry(tree({ ".ci/run": 'npm test\n./bin/yaoc.js attest --out "$d"\n' })).runsAttest).toBe(true);
    expect(
      ciEntry(tree({ ".ci/run": "npm test\n# ./bin/yaoc.js attest\n./bin/yaoc.js golden verify --git\n" })).runsAttest,
    ).toBe(false);
    expect(ciEntry(tree({ ".ci/run": "npm test\n.ci/attest\n", ".ci/attest": "exit 0\n" })).runsAttest).toBe(false);
    expect(ciEntry(tree({ "README.md": "x" }))).toMatchObject({ entry: null, runsAttest: false });
  });
});
