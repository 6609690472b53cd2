/**
 * The evidence commands (seed 002):
 *
 *   yaoc golden freeze [DIR]            write golden/evidence (default DIR) from fresh-process runs
 *   yaoc golden verify [DIR] [--git]    recompute in ≥ 2 fresh processes, compare with DIR, run the
 *                                       sensitivity self-check; exit 0 ok, 1 mismatch/failure
 *   yaoc attest [--out reports]         self-check + golden verify + D1–D10; writes attestation.md and
 *                                       attestation.jsonl; exit 0 green, 1 red, 2 yellow
 *   yaoc evidence receipt PATH...       the receipts of `yaoc check` (one JSON document)
 *   yaoc evidence canon [FILE]          RFC 8785 canonical form of a JSON file (stdin by default)
 *   yaoc evidence hash [FILE]           its ReproHash-shaped first 16 hex of SHA-256
 *   yaoc evidence table                 the field classification table (markdown)
 *
 * Fresh processes: this module doubles as the worker (`node evidence.js --worker …`), so golden
 * values are always computed by a new Node process, never by the one that compares them.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readInputBounded } from "./bounded-input.js";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import type { Diagnostic, Span } from "../diagnostics/diagnostic.js";
import { diagnostic } from "../codes/evidence.js";
// HARP's reader is the strict one with positions, duplicate and lone-surrogate rejection (the
// JSON readers are to be unified; until then this command borrows it rather than adding a fifth).
import { parseHarpJson as parseStrictJson } from "../harp/json.js";
import { NodeFs } from "../fs/node-fs.js";
import {
  buildAttestation,
  renderJsonl,
  renderMarkdown,
  type AttestHistory,
  type CiEvidence,
  type GitEvidence,
} from "../evidence/attest.js";
import { canonicalize } from "../evidence/canonicalize.js";
import { RECEIPT_TABLE, renderClassificationMarkdown } from "../evidence/classification.js";
import {
  compareRuns,
  compareWithGolden,
  goldenFileName,
  goldenRecord,
  renderGolden,
  sensitivityFindings,
  sensitivityOfReceipt,
  sensitivityPassed,
  sourceAtomCheck,
  type CaseComparison,
  type RunComparison,
  type SensitivityReport,
} from "../evidence/golden.js";
import { canonicalJson, type JsonValue } from "../json/jcs.js";
import { reproHashOf } from "../evidence/canonicalize.js";
import {
  docClaimFindings,
  evidenceClaims,
  receiptFindings,
  toReceipt,
  type EvidenceClass,
  type Receipt,
} from "../evidence/receipt.js";
import { VERSION } from "../version.js";
import { compareSuite, type SuiteComparison } from "./golden/compare.js";
import { filesUnder, GOLDEN_ROOT_FILES, GOLDEN_SUITES } from "./golden/suites.js";
import { checkPaths, closeCache, openCache, type CacheSettings } from "./check-command.js";
import { checkCachedPath } from "./check-cached.js";
import { addCacheOptions, cacheSettingsOf, type CacheCliOptions } from "./cache-options.js";
import { renderResults } from "../output/format.js";
import { jsonDiagnostics } from "../output/format-json.js";
import type { CheckResult } from "../diagnostics/result.js";
import { addFormatOption, formatOptions, type OutputFormat } from "./output.js";
import { reportUnusablePaths } from "./io.js";

const THIS_FILE = fileURLToPath(import.meta.url);
export const DEFAULT_GOLDEN_DIR = "golden/evidence";
const EXIT_OK = 0;
const EXIT_FAIL = 1;
const EXIT_USAGE = 2;

const provenance = () => ({
  tool: { name: "yaoc", version: VERSION },
  host: { platform: process.platform, node: process.version },
});

/** A package's own name: the last segment of its resolved path, however the path was typed. */
import { packageNameOf } from "./io.js";

export { packageNameOf };

export interface ReceiptRunOptions {
  readonly analyze: boolean;
  readonly evidence_class?: EvidenceClass;
  readonly measure_source?: string | null;
  readonly measure_ts?: string | null;
  /** `--cache`: each result through the result cache of `yaoc check --cache` (check-cached.ts). */
  readonly cache?: CacheSettings;
}

/** Receipts for `paths`, with this process's physical fields (time, pid, run id, elapsed). */
export async function receiptsFor(paths: readonly string[], options: ReceiptRunOptions): Promise<Receipt[]> {
  return (await checkedReceipts(paths, options)).receipts;
}

/**
 * The receipts, and whether any package could not be read (`ioError`, which `yaoc check` exits 2
 * for: a tree past the snapshot's depth limit, a package that kept changing). A receipt records
 * only the result, so the command needs this beside it to exit as `yaoc check` does.
 */
async function checkedReceipts(
  paths: readonly string[],
  options: ReceiptRunOptions,
): Promise<{ receipts: Receipt[]; ioError: boolean }> {
  const fs = new NodeFs();
  const id_runtime = randomUUID();
  const out: Receipt[] = [];
  let ioError = false;
  const cache = options.cache === undefined ? undefined : openCache(options.cache, { analyze: options.analyze });
  for (const path of paths) {
    const t0 = performance.now();
    const checked =
      cache === undefined
        ? await checkPaths(fs, [path], { analyze: options.analyze })
        : await checkCachedPath(fs, path, { analyze: options.analyze }, cache).then((r) => ({
            results: [r.result],
            ioError: r.ioError,
          }));
    ioError ||= checked.ioError;
    const results = checked.results;
    const elapsed = Math.round((performance.now() - t0) * 1000) / 1000;
    for (const r of results) {
      out.push(
        toReceipt(r, {
          ...options,
          packageName: packageNameOf(r.path),
          provenance: provenance(),
          run: { generated_at: new Date().toISOString(), pid: process.pid, id_runtime, elapsed },
        }),
      );
    }
  }
  if (cache !== undefined) await closeCache(cache.store, "golden");
  return { receipts: out, ioError };
}

/**
 * Where golden cases live, relative to the repository root; `*` matches one non-hidden entry. Every
 * match is one `yaoc check` input. Patterns whose base directory is absent match nothing.
 */
export const CASE_PATTERNS: readonly string[] = [
  "examples/*",
  "fixtures/a3s/packages/*",
  "fixtures/harp/*",
  "fixtures/hcp/*",
  "fixtures/hns/success/*",
  "fixtures/hns/failure/*/*",
];

/** The golden cases under `root`, sorted, from CASE_PATTERNS. */
export function discoverCases(root: string, patterns: readonly string[] = CASE_PATTERNS): string[] {
  const out = new Set<string>();
  const expand = (base: string, rest: readonly string[]): void => {
    if (rest.length === 0) {
      out.add(base);
      return;
    }
    const [head, ...tail] = rest;
    const dir = join(root, base);
    if (head !== "*") {
      if (existsSync(join(dir, head!))) expand(base === "" ? head! : `${base}/${head!}`, tail);
      return;
    }
    if (!existsSync(dir) || !statSync(dir).isDirectory()) return;
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith(".")) continue;
      if (tail.length > 0 && !statSync(join(dir, name)).isDirectory()) continue;
      expand(base === "" ? name : `${base}/${name}`, tail);
    }
  };
  for (const p of patterns) expand("", p.split("/"));
  return [...out].sort();
}

/** Run the worker in a fresh Node process (cwd = root), through the result cache if given, and return its receipts. */
export function freshRun(
  root: string,
  cases: readonly string[],
  analyze: boolean,
  cache?: CacheSettings,
): { receipts: Receipt[] | null; finding?: Diagnostic } {
  const cacheArgs = cache === undefined ? [] : ["--cache-dir", cache.dir, "--cache-max-bytes", String(cache.maxBytes)];
  const r = spawnSync(
    process.execPath,
    [THIS_FILE, "--worker", analyze ? "analyze" : "no-analyze", ...cacheArgs, ...cases],
    {
      cwd: root,
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  if (r.status !== 0) {
    return {
      receipts: null,
      finding: diagnostic(
        "evidence.worker_failed",
        `fresh process exited ${String(r.status)}: ${(r.stderr ?? "").slice(0, 500)}`,
      ),
    };
  }
  try {
    const receipts = JSON.parse(r.stdout) as Receipt[];
    if (!Array.isArray(receipts) || receipts.length !== cases.length) throw new Error("wrong receipt count");
    return { receipts };
  } catch (e) {
    return {
      receipts: null,
      finding: diagnostic("evidence.worker_failed", `fresh process output is not a receipt list: ${String(e)}`),
    };
  }
}

/**
 * Every other folder of golden/ (golden/README.md): each suite's records recomputed in a fresh
 * process and compared with its files; plus any file under golden/ that no verifier accounts for.
 */
export function verifySuites(root: string, evidenceDir: string): { suites: SuiteComparison[]; findings: Diagnostic[] } {
  const suites: SuiteComparison[] = [];
  const findings: Diagnostic[] = [];
  for (const suite of GOLDEN_SUITES) {
    const r = spawnSync(process.execPath, [THIS_FILE, "--golden-suite", suite.name], {
      cwd: root,
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
    });
    let records: Map<string, string> | undefined;
    try {
      if (r.status !== 0) throw new Error(`exited ${String(r.status)}: ${(r.stderr ?? "").slice(0, 500)}`);
      const pairs = JSON.parse(r.stdout) as unknown;
      if (
        !Array.isArray(pairs) ||
        !pairs.every((p) => Array.isArray(p) && typeof p[0] === "string" && typeof p[1] === "string")
      )
        throw new Error("its output is not a record list");
      records = new Map(pairs as [string, string][]);
    } catch (e) {
      findings.push(
        diagnostic(
          "evidence.worker_failed",
          `${suite.folder}: the fresh process recomputing it failed: ${e instanceof Error ? e.message : String(e)}`,
          { file: suite.folder },
        ),
      );
      continue;
    }
    const c = compareSuite(root, suite.folder, records);
    suites.push(c);
    for (const f of c.findings) findings.push(f);
  }
  const golden = join(root, "golden");
  const claimed = [
    ...GOLDEN_SUITES.map((s) => s.folder),
    relative(root, resolve(root, evidenceDir)).split(sep).join("/"),
  ];
  if (existsSync(golden) && statSync(golden).isDirectory()) {
    for (const rel of filesUnder(golden)) {
      const path = `golden/${rel}`;
      if (GOLDEN_ROOT_FILES.includes(rel) || claimed.some((f) => path.startsWith(`${f}/`))) continue;
      findings.push(
        diagnostic(
          "evidence.golden_stale",
          `${path} is not verified by any golden suite (golden/README.md lists them)`,
          { file: path, hint: "move it into a suite's folder or delete it" },
        ),
      );
    }
  }
  return { suites, findings };
}

function readPackageFiles(root: string, casePath: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  const abs = join(root, casePath);
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) files.set(relative(abs, p).split(sep).join("/"), readFileSync(p));
    }
  };
  if (statSync(abs).isDirectory()) walk(abs);
  else files.set("", readFileSync(abs));
  return files;
}

export async function selfCheck(
  root: string,
  cases: readonly string[],
  receipts: readonly Receipt[],
  analyze: boolean,
): Promise<SensitivityReport[]> {
  const check = async (fs: import("../fs/package-fs.js").PackageFs, path: string) =>
    (await checkPaths(fs, [path], { analyze })).results[0]!;
  const out: SensitivityReport[] = [];
  for (let i = 0; i < cases.length; i++) {
    const casePath = cases[i]!;
    const receipt = receipts[i]!;
    const base = sensitivityOfReceipt(casePath, receipt);
    const sourceAtom = await sourceAtomCheck(casePath, readPackageFiles(root, casePath), receipt, check, analyze);
    const report = { ...base, ...(sourceAtom ? { sourceAtom } : {}) };
    out.push({ ...report, passed: sensitivityPassed(report) });
  }
  return out;
}

export interface VerifyOutcome {
  readonly cases: string[];
  readonly runs: RunComparison[];
  readonly runCount: number;
  readonly golden: CaseComparison[];
  /** The other golden folders (golden/README.md), each recomputed in a fresh process. */
  readonly suites: SuiteComparison[];
  readonly goldenFindings: Diagnostic[];
  readonly sensitivity: SensitivityReport[];
  readonly sensitivityFindings: Diagnostic[];
  readonly receiptFindings: Diagnostic[];
  readonly workerFindings: Diagnostic[];
  readonly emittedCodes: string[];
  readonly coresNumberFree: boolean;
  readonly receipts: Receipt[];
}

export async function verifyGolden(
  root: string,
  goldenDir: string,
  options: { runs: number; analyze: boolean; cache?: CacheSettings },
): Promise<VerifyOutcome> {
  const cases = discoverCases(root);
  const runsReceipts: Receipt[][] = [];
  const workerFindings: Diagnostic[] = [];
  for (let i = 0; i < Math.max(2, options.runs); i++) {
    // With --cache only the first run (the one compared with the goldens) may reuse results; the
    // others recompute, so "stable over N fresh runs" still compares independent computations, and
    // a cache that returned a wrong result would show as an unstable case.
    const r = freshRun(root, cases, options.analyze, i === 0 ? options.cache : undefined);
    if (r.receipts === null) workerFindings.push(r.finding!);
    else runsReceipts.push(r.receipts);
  }
  const first = runsReceipts[0] ?? [];
  const runs =
    first.length === cases.length
      ? cases.map((c, i) =>
          compareRuns(
            c,
            runsReceipts.map((rs) => rs[i]!),
          ),
        )
      : [];
  const golden: CaseComparison[] = [];
  const goldenFindings: Diagnostic[] = [];
  const gdir = resolve(root, goldenDir);
  cases.forEach((c, i) => {
    if (first[i] === undefined) return;
    const file = join(gdir, goldenFileName(c));
    const shown = `${goldenDir}/${goldenFileName(c)}`;
    let text: string | undefined;
    let cmp: CaseComparison;
    try {
      text = existsSync(file) ? readFileSync(file, "utf8") : undefined;
      cmp = compareWithGolden(c, goldenRecord(c, first[i]!), text);
    } catch (e) {
      cmp = {
        case: c,
        status: "unreadable",
        problem: `cannot be read (${e instanceof Error ? e.message : String(e)})`,
        actual: first[i]!.repro_hash,
        differences: [],
      };
    }
    golden.push(cmp);
    if (cmp.status === "unreadable")
      goldenFindings.push(
        diagnostic("evidence.golden_unreadable", `${c}: golden file ${shown} is ${cmp.problem ?? "unreadable"}`, {
          file: shown,
          hint: "fix or delete the file, then run `yaoc golden freeze` and commit with [golden]",
        }),
      );
    else if (cmp.status === "missing")
      goldenFindings.push(
        diagnostic("evidence.golden_missing", `${c}: no golden value in ${goldenDir}`, {
          file: c,
          hint: "run `yaoc golden freeze` and commit with [golden]",
        }),
      );
    else if (cmp.status === "mismatch")
      goldenFindings.push(
        diagnostic(
          "evidence.golden_mismatch",
          `${c}: ReproHash ${cmp.actual}, golden ${String(cmp.expected)}; differs at ${cmp.differences.slice(0, 8).join(", ")}`,
          { file: c },
        ),
      );
  });
  if (existsSync(gdir) && statSync(gdir).isDirectory()) {
    const names = new Set(cases.map(goldenFileName));
    for (const f of filesUnder(gdir)) {
      if (!names.has(f))
        goldenFindings.push(
          diagnostic("evidence.golden_stale", `${goldenDir}/${f} has no case`, { file: `${goldenDir}/${f}` }),
        );
    }
  }
  const other = verifySuites(root, goldenDir);
  for (const f of other.findings) goldenFindings.push(f);
  const sensitivity = first.length === cases.length ? await selfCheck(root, cases, first, options.analyze) : [];
  const receiptFs = runsReceipts.flatMap((rs) => rs.flatMap((r, i) => receiptFindings(r, cases[i]!)));
  const dedup = new Map(receiptFs.map((d) => [`${d.code}\u0000${d.message}`, d]));
  const emittedCodes = first.flatMap((r) =>
    ((r["result"] as Record<string, unknown>)["diagnostics"] as { code: string }[]).map((d) => d.code),
  );
  const coresNumberFree = first.every(
    (r) =>
      !/(?<![\\"\w])[:,[](-?\d)/.test(canonicalize(r, RECEIPT_TABLE).canonical.replace(/"(?:[^"\\]|\\.)*"/g, '""')),
  );
  return {
    cases,
    runs,
    runCount: runsReceipts.length,
    golden,
    suites: other.suites,
    goldenFindings,
    sensitivity,
    sensitivityFindings: sensitivity.flatMap(sensitivityFindings),
    receiptFindings: [...dedup.values()],
    workerFindings,
    emittedCodes,
    coresNumberFree,
    receipts: first,
  };
}

/**
 * Commits touching golden/ since `since` (or the whole history) whose title lacks `[golden]`.
 * A merge commit counts only when it brings golden content of its own: a file under golden/ that
 * differs from every parent (`git diff-tree -c`). A merge that only joins two sides' golden
 * changes carries commits that were each held to the rule already; flagging it would make every
 * merge of two golden-changing branches need the marker.
 */
export function gitGoldenCheck(root: string, since: string | undefined): GitEvidence {
  const range = since ? `${since}..HEAD` : "HEAD";
  const git = (args: string[]): string =>
    execFileSync("git", ["-C", root, ...args], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 64 << 20,
    });
  try {
    const log = git(["log", "--format=%H%x09%P%x09%s", range, "--", "golden/"]);
    const commits = log
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => l.split("\t") as [string, string, string])
      .filter(([sha, parents]) => !parents.includes(" ") || mergeAddsGolden(git, sha));
    const findings: Diagnostic[] = commits
      .filter(([, , title]) => !title.includes("[golden]"))
      .map(([sha, , title]) =>
        diagnostic(
          "evidence.golden_unmarked_commit",
          `commit ${sha.slice(0, 12)} "${title}" changes golden/ without [golden] in its title`,
          { file: sha.slice(0, 12) },
        ),
      );
    const status = git(["status", "--porcelain", "--", "golden/"]);
    const pending = status.split("\n").filter((l) => l.trim() !== "").length;
    if (pending > 0)
      findings.push(
        diagnostic(
          "evidence.golden_uncommitted",
          `${pending} uncommitted change(s) under golden/; the commit recording them must carry [golden]`,
        ),
      );
    return { available: true, range, commitsTouchingGolden: commits.length, findings };
  } catch (e) {
    return {
      available: false,
      range,
      commitsTouchingGolden: 0,
      findings: [diagnostic("evidence.git_unavailable", `git history unavailable: ${String(e).split("\n")[0]}`)],
    };
  }
}

/** Whether merge `sha` holds a golden/ file that matches none of its parents (a resolution of its own). */
function mergeAddsGolden(git: (args: string[]) => string, sha: string): boolean {
  const out = git(["diff-tree", "-c", "--no-commit-id", "--name-only", "-r", sha, "--", "golden/"]);
  return out.split("\n").some((l) => l !== "");
}

/**
 * The [golden] title rule took effect when the evidence layer landed; golden/ files added before
 * that commit (named in golden/EVIDENCE_RULE_SINCE) are not held to it.
 */
function ruleSince(root: string): string | undefined {
  const file = join(root, "golden", "EVIDENCE_RULE_SINCE");
  if (!existsSync(file)) return undefined;
  const commit = readFileSync(file, "utf8").trim();
  return /^[0-9a-f]{7,40}$/.test(commit) ? commit : undefined;
}

/**
 * The last green attestation recorded in `out` (history for the report, never an input to the
 * verdict: a verdict that depended on what an earlier run left behind would not be reproducible).
 */
function lastGreen(out: string): AttestHistory["last_green"] {
  const file = join(out, "last-green.json");
  try {
    const doc = JSON.parse(readFileSync(file, "utf8")) as { commit?: unknown; verdict_hash?: unknown };
    if (typeof doc.commit !== "string" || !/^[0-9a-f]{7,40}$/.test(doc.commit)) return null;
    return { commit: doc.commit, verdict_hash: typeof doc.verdict_hash === "string" ? doc.verdict_hash : null };
  } catch {
    return null;
  }
}

function headCommit(root: string): string | undefined {
  try {
    return execFileSync("git", ["-C", root, "rev-parse", "HEAD"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return undefined;
  }
}

/** Where the repository's measured figures (.json / .jsonl) live; documents are every Markdown file (markdownFiles). */
export const CLAIM_DIRS: readonly string[] = ["bench", "docs"];

/** The evidence claims of one .json / .jsonl file (each line of a .jsonl is a document). */
function fileClaims(rel: string, text: string): ReturnType<typeof evidenceClaims> {
  const docs: { subject: string; text: string }[] = rel.endsWith(".jsonl")
    ? text.split("\n").flatMap((line, i) => (line.trim() === "" ? [] : [{ subject: `${rel}:${i + 1}`, text: line }]))
    : [{ subject: rel, text }];
  const total = { claims: 0, honest: 0, findings: [] as Diagnostic[] };
  for (const d of docs) {
    const parsed = parseStrictJson(d.text);
    if (!parsed.ok) {
      // A file that says it holds evidence but cannot be read holds none; never skip it silently.
      if (d.text.includes('"evidence_class"')) {
        total.claims++;
        total.findings.push(
          diagnostic(
            "evidence.hon_invalid_evidence_class",
            `${d.subject}: H2: the evidence in this file cannot be read: ${parsed.error.message} at ${parsed.error.span.start.line}:${parsed.error.span.start.column}`,
            { file: d.subject },
          ),
        );
      }
      continue;
    }
    const c = evidenceClaims(d.subject, parsed.json.value);
    total.claims += c.claims;
    total.honest += c.honest;
    for (const f of c.findings) total.findings.push(f);
  }
  return total;
}

/**
 * §5.1–5.2 for the repository itself (issue 20): every `measured` (or `third_party`) claim in a
 * .json / .jsonl file under bench/ and docs/ must carry `measure_source` and `measure_ts` (H1), and
 * every Markdown file the repository holds (every one git tracks; the whole tree outside dot
 * directories, node_modules and dist when it is not a git work tree) that claims measured results
 * must have such honest evidence beside it, in its own directory; a bare
 * `{"evidence_class":"measured"}` backs nothing.
 */
export function docFindings(root: string): Diagnostic[] {
  return claimFindings(root).findings;
}

export function claimFindings(root: string): { findings: Diagnostic[]; files: number; claims: number } {
  const out: Diagnostic[] = [];
  let files = 0;
  let claims = 0;
  const rel = (p: string) => relative(root, p).split(sep).join("/");
  /** Honest evidence found in each directory (absolute path), filled by the scan and on demand. */
  const honestIn = new Map<string, number>();
  const visit = (dir: string): void => {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) return;
    const names = readdirSync(dir)
      .sort()
      .filter((n) => !n.startsWith(".") && n !== "node_modules");
    let honest = 0;
    for (const n of names) {
      if (!/\.(json|jsonl)$/.test(n) || !statSync(join(dir, n)).isFile()) continue;
      const c = fileClaims(rel(join(dir, n)), readFileSync(join(dir, n), "utf8"));
      if (c.claims > 0) files++;
      claims += c.claims;
      honest += c.honest;
      for (const f of c.findings) out.push(f);
    }
    honestIn.set(dir, honest);
    for (const n of names) if (statSync(join(dir, n)).isDirectory()) visit(join(dir, n));
  };
  for (const d of CLAIM_DIRS) visit(join(root, d));
  const honestBeside = (dir: string): number => {
    const known = honestIn.get(dir);
    if (known !== undefined) return known;
    let honest = 0;
    for (const n of existsSync(dir) ? readdirSync(dir) : []) {
      if (!/\.(json|jsonl)$/.test(n) || !statSync(join(dir, n)).isFile()) continue;
      honest += fileClaims(rel(join(dir, n)), readFileSync(join(dir, n), "utf8")).honest;
    }
    honestIn.set(dir, honest);
    return honest;
  };
  for (const doc of markdownFiles(root)) {
    const p = join(root, doc);
    for (const f of docClaimFindings(doc, readFileSync(p, "utf8"), honestBeside(dirname(p)) > 0 ? ["measured"] : []))
      out.push(f);
  }
  return { findings: out, files, claims };
}

/** Directories never walked for Markdown when the root is not a git work tree. */
const UNTRACKED_DIRS = new Set(["node_modules", "dist"]);

/**
 * The repository's Markdown files, repository-relative with `/`, sorted: what git tracks (and is
 * still on disk) in a work tree; otherwise every `.md` file outside dot directories, node_modules
 * and dist.
 */
export function markdownFiles(root: string): string[] {
  let tracked: string[] | undefined;
  try {
    tracked = execFileSync("git", ["-C", root, "ls-files", "-z", "--cached", "--", "*.md"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      maxBuffer: 64 * 1024 * 1024,
    })
      .split("\0")
      .filter((f) => f !== "");
  } catch {
    tracked = undefined;
  }
  if (tracked !== undefined && isWorkTreeTop(root)) {
    return [...new Set(tracked)].filter((f) => statSync(join(root, f), { throwIfNoEntry: false })?.isFile()).sort();
  }
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith(".") || UNTRACKED_DIRS.has(e.name)) continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && e.name.endsWith(".md")) out.push(relative(root, p).split(sep).join("/"));
    }
  };
  if (existsSync(root) && statSync(root).isDirectory()) walk(root);
  return out.sort();
}

/** True when `root` is the top of a git work tree (a folder inside someone else's repository is not). */
function isWorkTreeTop(root: string): boolean {
  try {
    const top = execFileSync("git", ["-C", root, "rev-parse", "--show-toplevel"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    return realpathSync(top) === realpathSync(root);
  } catch {
    return false;
  }
}

/**
 * D10 from the repository's real CI entry: `.ci/run` must run the attestation, directly
 * (`yaoc attest`, `bin/yaoc.js attest`, `dist/scripts/attest.js`) or through `.ci/attest`, which
 * must run `attest` and fail on red only.
 */
export function ciEntry(root: string): CiEvidence {
  const read = (rel: string): string | null => {
    try {
      return readFileSync(join(root, rel), "utf8");
    } catch {
      return null;
    }
  };
  const run = read(".ci/run");
  if (run === null) return { entry: null, runsAttest: false, detail: "no .ci/run in the repository" };
  const code = run
    .split("\n")
    .filter((l) => !/^\s*#/.test(l))
    .join("\n");
  if (/(?:^|[\s;&|])(?:\S*yaoc(?:\.js)?|node\s+\S*dist\/scripts\/attest\.js)\s+attest\b/m.test(code))
    return { entry: ".ci/run", runsAttest: true, detail: "`.ci/run` runs `yaoc attest`" };
  if (/(?:^|[\s;&|])\.ci\/attest\b/m.test(code)) {
    const step = read(".ci/attest") ?? "";
    const ok = /\battest\s+--out\b/.test(step) && /-eq\s+2\b/.test(step) && /yellow/.test(step);
    return {
      entry: ".ci/run",
      runsAttest: ok,
      detail: ok
        ? "`.ci/run` runs `.ci/attest`: `yaoc attest` into a fresh directory, red fails, yellow passes"
        : "`.ci/run` calls `.ci/attest`, which does not run `attest --out` with the yellow rule",
    };
  }
  return { entry: ".ci/run", runsAttest: false, detail: "`.ci/run` does not run `yaoc attest`" };
}

function findingsResult(ds: readonly Diagnostic[]): CheckResult {
  return {
    path: "evidence",
    kind: "unknown",
    valid: !ds.some((d) => d.severity === "error"),
    identity: null,
    diagnostics: ds,
  };
}

function printFindings(ds: readonly Diagnostic[]): void {
  if (ds.length === 0) return;
  process.stderr.write(
    renderResults([findingsResult(ds)], "human", formatOptions(process.stderr, { diagnosticsOnly: true })),
  );
}

/**
 * The JSON document of `evidence canon` / `evidence hash`, read strictly: UTF-8, RFC 8259 syntax,
 * no duplicate member names (JSON.parse silently keeps the last, so two readers would hash two
 * different documents), no lone surrogates, finite numbers. A problem is printed with its code
 * frame and yields the exit code; an unreadable file is an I/O error (2), invalid text is 1.
 */
function readCanonInput(command: string, file: string | undefined): { value: JsonValue } | { exit: number } {
  const name = file === undefined || file === "-" ? "<stdin>" : file;
  const read = readInputBounded(file);
  if (!read.ok) {
    process.stderr.write(`yaoc evidence ${command}: ${read.message}\n`);
    return { exit: EXIT_USAGE };
  }
  const bytes = read.bytes;
  const invalid = (
    code: "evidence.input_not_json" | "evidence.input_duplicate_key",
    message: string,
    where: { span?: Span; pointer?: string; hint?: string },
    text?: string,
  ) => {
    const d = diagnostic(code, message, { file: name, ...where });
    const sources = text === undefined ? undefined : new Map([[name, text]]);
    process.stderr.write(
      renderResults(
        [{ path: name, kind: "unknown", valid: false, identity: null, diagnostics: [d], sources }],
        "human",
        formatOptions(process.stderr, { diagnosticsOnly: true }),
      ),
    );
    return { exit: EXIT_FAIL };
  };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return invalid("evidence.input_not_json", "the input is not valid UTF-8", {
      hint: "JSON text must be UTF-8 (RFC 8259 §8.1)",
    });
  }
  const parsed = parseStrictJson(text);
  if (!parsed.ok) {
    const { kind, message, span, pointer } = parsed.error;
    if (kind === "duplicate_key")
      return invalid(
        "evidence.input_duplicate_key",
        message,
        { span, pointer, hint: "keep one occurrence of the member" },
        text,
      );
    return invalid(
      "evidence.input_not_json",
      `not I-JSON: ${message}`,
      { span, hint: "RFC 8785 canonicalizes I-JSON only (RFC 7493)" },
      text,
    );
  }
  return { value: parsed.json.value as JsonValue };
}

export function registerEvidenceCommands(program: Command): void {
  const golden = program.command("golden").description("freeze or verify golden evidence (seed 002)");

  const freeze = golden
    .command("freeze")
    .description("recompute every case in a fresh process and write its golden record")
    .argument("[dir]", "golden directory", DEFAULT_GOLDEN_DIR)
    .option("--root <dir>", "repository root holding fixtures/ and examples/", ".");
  addCacheOptions(freeze, "golden cases").action(async (dir: string, opts: { root: string } & CacheCliOptions) => {
    if (await reportUnusablePaths("golden freeze", [opts.root])) {
      process.exitCode = EXIT_USAGE;
      return;
    }
    const root = resolve(opts.root);
    const cases = discoverCases(root);
    const r = freshRun(root, cases, true, cacheSettingsOf(opts).cache);
    if (r.receipts === null) {
      printFindings([r.finding!]);
      process.exitCode = EXIT_FAIL;
      return;
    }
    const gdir = resolve(root, dir);
    mkdirSync(gdir, { recursive: true });
    cases.forEach((c, i) =>
      writeFileSync(join(gdir, goldenFileName(c)), renderGolden(goldenRecord(c, r.receipts![i]!))),
    );
    process.stdout.write(
      `froze ${cases.length} case(s) into ${relative(process.cwd(), gdir) || "."}; commit with [golden] in the title\n`,
    );
    process.exitCode = EXIT_OK;
  });

  addCacheOptions(addFormatOption(golden.command("verify")), "golden cases (the first run only)")
    .description("recompute in ≥ 2 fresh processes, compare with the goldens, run the sensitivity self-check")
    .argument("[dir]", "golden directory", DEFAULT_GOLDEN_DIR)
    .option("--root <dir>", "repository root holding fixtures/ and examples/", ".")
    .option("--runs <n>", "independent runs (≥ 2)", "2")
    .option("--git", "also require [golden] in the title of every commit touching golden/ since the last green run")
    .option(
      "--since <rev>",
      "with --git: check commits after this revision (default: the commit in golden/EVIDENCE_RULE_SINCE, else all history)",
    )
    .action(
      async (
        dir: string,
        opts: { root: string; runs: string; git?: boolean; since?: string; format: OutputFormat } & CacheCliOptions,
      ) => {
        const root = resolve(opts.root);
        const runs = Number(opts.runs);
        if (!Number.isInteger(runs) || runs < 2) {
          process.stderr.write("yaoc golden verify: --runs must be an integer ≥ 2\n");
          process.exitCode = EXIT_USAGE;
          return;
        }
        if (await reportUnusablePaths("golden verify", [opts.root, resolve(root, dir)])) {
          process.exitCode = EXIT_USAGE;
          return;
        }
        const v = await verifyGolden(root, dir, { runs, analyze: true, ...cacheSettingsOf(opts) });
        const git = opts.git ? gitGoldenCheck(root, opts.since ?? ruleSince(root)) : null;
        const physicalOk = v.runs.length > 0 && v.runs.every((r) => r.physicalDifference.length > 0);
        const errors = [
          ...v.workerFindings,
          ...v.goldenFindings,
          ...v.sensitivityFindings,
          ...(v.runCount < 2
            ? []
            : v.runs
                .filter((r) => !r.agree)
                .map((r) =>
                  diagnostic(
                    "evidence.unstable_hash",
                    `${r.case}: ReproHashes differ between runs: ${r.hashes.join(", ")}`,
                    { file: r.case },
                  ),
                )),
          ...(physicalOk
            ? []
            : [diagnostic("evidence.no_physical_difference", "the independent runs have identical physical fields")]),
          ...(git?.findings ?? []),
        ];
        const matched = v.golden.filter((g) => g.status === "match").length;
        const records = v.suites.reduce((n, s) => n + s.records, 0);
        const recordsMatched = v.suites.reduce((n, s) => n + s.matched, 0);
        const stable = v.runs.filter((r) => r.agree).length;
        const sensitivityPassedCount = v.sensitivity.filter((s) => s.passed).length;
        if (opts.format === "json") {
          process.stdout.write(
            `${JSON.stringify({ ok: !errors.some((d) => d.severity === "error"), cases: v.cases.length, matched, stable, runs: v.runCount, sensitivity: { passed: sensitivityPassedCount, total: v.sensitivity.length }, folders: v.suites.map((f) => ({ folder: f.folder, records: f.records, matched: f.matched })), git: git ? { range: git.range, commits: git.commitsTouchingGolden } : null, diagnostics: jsonDiagnostics(errors) })}\n`,
          );
        } else if (opts.format !== "human") {
          process.stdout.write(renderResults([findingsResult(errors)], opts.format, formatOptions(process.stdout)));
        } else {
          printFindings(errors);
          process.stdout.write(
            `golden verify: ${matched}/${v.cases.length} match, ${stable}/${v.runs.length} stable over ${v.runCount} fresh runs, sensitivity ${sensitivityPassedCount}/${v.sensitivity.length} passed; other golden folders ${recordsMatched}/${records} records match (${v.suites.map((f) => `${f.folder.replace(/^golden\//, "")} ${f.matched}/${f.records}`).join(", ")})${git ? `, git ${git.range}: ${git.commitsTouchingGolden} golden commit(s) checked` : ""}\n`,
          );
        }
        process.exitCode = errors.some((d) => d.severity === "error") ? EXIT_FAIL : EXIT_OK;
      },
    );

  program
    .command("attest")
    .description("self-attestation: self-check, golden verify and the D1–D10 checklist; exit 0 green, 1 red, 2 yellow")
    .option("--out <dir>", "report directory", "reports")
    .option("--golden <dir>", "golden directory", DEFAULT_GOLDEN_DIR)
    .option("--root <dir>", "repository root", ".")
    .option("--runs <n>", "independent runs (≥ 2)", "2")
    .option(
      "--since <rev>",
      "check [golden] commit titles after this revision (default: the commit in golden/EVIDENCE_RULE_SINCE, else all history)",
    )
    .option("--no-git", "skip the [golden] commit-title check (D6 becomes a warning)")
    .action(async (opts: { out: string; golden: string; root: string; runs: string; since?: string; git: boolean }) => {
      const t0 = performance.now();
      const root = resolve(opts.root);
      const runs = Number(opts.runs);
      if (!Number.isInteger(runs) || runs < 2) {
        process.stderr.write("yaoc attest: --runs must be an integer ≥ 2\n");
        process.exitCode = EXIT_USAGE;
        return;
      }
      if (await reportUnusablePaths("attest", [opts.root, resolve(root, opts.golden)])) {
        process.exitCode = EXIT_USAGE;
        return;
      }
      const v = await verifyGolden(root, opts.golden, { runs, analyze: true });
      const git = opts.git ? gitGoldenCheck(root, opts.since ?? ruleSince(root)) : null;
      const out = resolve(process.cwd(), opts.out);
      const claims = claimFindings(root);
      const a = buildAttestation(
        {
          ...v,
          docFindings: claims.findings,
          claimsInspected: { files: claims.files, claims: claims.claims },
          ci: ciEntry(root),
          git,
          tool: provenance().tool,
          host: provenance().host,
        },
        {
          ts_build: new Date().toISOString(),
          elapsed: Math.round(performance.now() - t0),
          runs: v.receipts.length > 0 ? [{ pid: process.pid }] : [],
          history: { last_green: lastGreen(out) },
        },
      );
      mkdirSync(out, { recursive: true });
      writeFileSync(join(out, "attestation.md"), renderMarkdown(a));
      writeFileSync(join(out, "attestation.jsonl"), renderJsonl(a));
      const head = headCommit(root);
      if (a.verdict === "green" && head !== undefined)
        writeFileSync(
          join(out, "last-green.json"),
          `${JSON.stringify({ commit: head, verdict_hash: a.verdictHash })}\n`,
        );
      process.stdout.write(
        `attest: ${a.verdict} (exit ${a.exitCode}), grade ${String(a.doc["grade"])}, verdict_hash ${a.verdictHash}; wrote ${relative(process.cwd(), out) || "."}/attestation.{md,jsonl}\n`,
      );
      process.exitCode = a.exitCode;
    });

  const evidence = program
    .command("evidence")
    .description("receipts, canonical JSON and the field classification table");

  evidence
    .command("receipt")
    .description("check packages and print their receipts (evidence_class, reason codes, ReproHash)")
    .argument("<paths...>", "package files or directories")
    .option("--no-analyze", "HNS: structural load only")
    .option("--evidence-class <class>", "simulated | measured | third_party", "simulated")
    .option("--measure-source <source>", "command or path a measured figure comes from")
    .option("--measure-ts <iso>", "when the measurement was taken")
    .action(
      async (
        paths: string[],
        opts: { analyze: boolean; evidenceClass: string; measureSource?: string; measureTs?: string },
      ) => {
        if (!["simulated", "measured", "third_party"].includes(opts.evidenceClass)) {
          process.stderr.write(`yaoc evidence receipt: unknown evidence class ${opts.evidenceClass}\n`);
          process.exitCode = EXIT_USAGE;
          return;
        }
        const missing = await reportUnusablePaths("evidence receipt", paths);
        const { receipts, ioError } = await checkedReceipts(paths, {
          analyze: opts.analyze,
          evidence_class: opts.evidenceClass as EvidenceClass,
          measure_source: opts.measureSource ?? null,
          measure_ts: opts.measureTs ?? null,
        });
        const findings = receipts.flatMap((r, i) => receiptFindings(r, paths[i] ?? ""));
        printFindings(findings);
        process.stdout.write(`${JSON.stringify({ receipts })}\n`);
        const valid = receipts.every((r) => (r["result"] as { valid: boolean }).valid);
        // A package that could not be read is exit 2, as in `yaoc check`, not a verdict (exit 1).
        process.exitCode =
          missing || ioError ? EXIT_USAGE : !valid ? EXIT_FAIL : findings.length > 0 ? EXIT_USAGE : EXIT_OK;
      },
    );

  evidence
    .command("canon")
    .description("print the RFC 8785 canonical form of a JSON document")
    .argument("[file]", "JSON file (default stdin)")
    .action((file: string | undefined) => {
      const input = readCanonInput("canon", file);
      if ("exit" in input) process.exitCode = input.exit;
      else process.stdout.write(canonicalJson(input.value));
    });

  evidence
    .command("hash")
    .description("print the first 16 hex of SHA-256 of the RFC 8785 form of a JSON document")
    .argument("[file]", "JSON file (default stdin)")
    .action((file: string | undefined) => {
      const input = readCanonInput("hash", file);
      if ("exit" in input) process.exitCode = input.exit;
      else process.stdout.write(`${reproHashOf(canonicalJson(input.value))}\n`);
    });

  evidence
    .command("table")
    .description("print the field classification table (markdown, as in docs/evidence.md)")
    .action(() => {
      process.stdout.write(`${renderClassificationMarkdown()}\n`);
    });
}

/** Worker mode: `node evidence.js --worker analyze|no-analyze PATH...` prints a JSON array of receipts. */
async function worker(argv: readonly string[]): Promise<void> {
  const [mode, ...rest] = argv;
  // `--cache-dir DIR --cache-max-bytes N` (from freshRun) before the paths; no case starts with "--".
  const cache =
    rest[0] === "--cache-dir" && rest[2] === "--cache-max-bytes"
      ? { dir: rest[1]!, maxBytes: Number(rest[3]) }
      : undefined;
  const paths = cache === undefined ? rest : rest.slice(4);
  const receipts = await receiptsFor(paths, { analyze: mode !== "no-analyze", ...(cache ? { cache } : {}) });
  process.stdout.write(JSON.stringify(receipts));
}

function isMain(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(THIS_FILE);
  } catch {
    return false;
  }
}

/** Worker mode: `node evidence.js --golden-suite NAME` prints the suite's records as JSON pairs. */
async function suiteWorker(name: string | undefined): Promise<void> {
  const suite = GOLDEN_SUITES.find((s) => s.name === name);
  if (suite === undefined) throw new Error(`no golden suite ${String(name)}`);
  process.stdout.write(JSON.stringify([...(await suite.records(process.cwd()))]));
}

if (isMain() && process.argv[2] === "--golden-suite") {
  suiteWorker(process.argv[3]).catch((e: unknown) => {
    process.stderr.write(`yaoc golden suite worker: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 70;
  });
}

if (isMain() && process.argv[2] === "--worker") {
  worker(process.argv.slice(3)).catch((e: unknown) => {
    process.stderr.write(`yaoc evidence worker: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 70;
  });
}
