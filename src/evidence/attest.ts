/**
 * The self-attestation report (seed 002 §5.3, §6, §7): the D1–D10 checklist evaluated from the
 * evidence gathered by golden verify and the self-check, a verdict (green / yellow / red → exit
 * 0 / 2 / 1), the compatibility grade with its evidence, and `verdict_hash` — the ReproHash of the
 * report's repro fields (ts_build and every other physical field excluded).
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { canonicalize } from "./canonicalize.js";
import { ATTESTATION_TABLE, RECEIPT_TABLE } from "./classification.js";
import { diagnostic, EVIDENCE_CODES } from "../codes/evidence.js";
import type { CaseComparison, RunComparison, SensitivityReport } from "./golden.js";
import { canonicalJson, compareUtf16 } from "../json/jcs.js";
import { fixedPoint } from "./numbers.js";
import { REASON_PATTERN, REASON_TABLE, reasonOrMissing } from "../codes/reasons.js";

export type CheckStatus = "pass" | "warn" | "fail";
export type Verdict = "green" | "yellow" | "red";
export type Grade = "full" | "sampled" | "incompatible";

export interface Finding {
  readonly code: string;
  readonly reason: string;
  readonly subject: string;
  readonly message: string;
}

export interface AttestationCheck {
  readonly id: string;
  readonly title: string;
  readonly status: CheckStatus;
  readonly evidence: string;
  readonly findings: readonly Finding[];
}

export interface GitEvidence {
  readonly available: boolean;
  /** The revision range inspected, e.g. `abc123..HEAD` or `HEAD` (whole history). */
  readonly range: string;
  readonly commitsTouchingGolden: number;
  readonly findings: readonly Diagnostic[];
}

export interface AttestInputs {
  readonly cases: readonly string[];
  readonly runs: readonly RunComparison[];
  readonly runCount: number;
  readonly golden: readonly CaseComparison[];
  /** The other golden folders, recomputed and compared record by record (their findings are in goldenFindings). */
  readonly suites?: readonly { readonly folder: string; readonly records: number; readonly matched: number }[];
  readonly goldenFindings: readonly Diagnostic[];
  readonly sensitivity: readonly SensitivityReport[];
  readonly sensitivityFindings: readonly Diagnostic[];
  /** From receiptFindings: unregistered fields, unkeyed lists, missing reason rows, honesty. */
  readonly receiptFindings: readonly Diagnostic[];
  /** H1/H2 of the repository's own evidence files (bench/, docs/) and of documents claiming measurements. */
  readonly docFindings: readonly Diagnostic[];
  /** How many evidence files and claims (objects with evidence_class) under bench/ and docs/ were inspected. */
  readonly claimsInspected?: { readonly files: number; readonly claims: number };
  /** The CI entry that should run the attestation (D10); absent when not inspected. */
  readonly ci?: CiEvidence;
  readonly workerFindings: readonly Diagnostic[];
  /** Every diagnostic code that appeared in a receipt. */
  readonly emittedCodes: readonly string[];
  /** Whether every receipt core is free of JSON numbers (all fixed-point strings). */
  readonly coresNumberFree: boolean;
  readonly git: GitEvidence | null;
  readonly tool: { readonly name: string; readonly version: string };
  readonly host?: { readonly platform: string; readonly node: string };
}

/** D10's evidence: whether the repository's CI entry really runs the attestation. */
export interface CiEvidence {
  readonly entry: string | null;
  readonly runsAttest: boolean;
  readonly detail: string;
}

/**
 * What earlier runs left behind (the last green record in the report directory). Reported beside
 * the verdict, never hashed: the verdict is a function of the commit's evidence, and two runs of
 * the same commit must agree whatever an earlier run wrote (seed 002 §5.3).
 */
export interface AttestHistory {
  readonly last_green: { readonly commit: string; readonly verdict_hash: string | null } | null;
}

export interface Attestation {
  readonly doc: Record<string, unknown>;
  readonly verdict: Verdict;
  readonly exitCode: 0 | 1 | 2;
  readonly verdictHash: string;
  readonly checks: readonly AttestationCheck[];
}

const finding = (d: Diagnostic): Finding => ({
  code: d.code,
  reason: reasonOrMissing(d.code, d.severity).reason,
  subject: d.file ?? "",
  message: d.message,
});

function check(
  id: string,
  title: string,
  status: CheckStatus,
  evidence: string,
  ds: readonly Diagnostic[] = [],
): AttestationCheck {
  const findings = ds
    .map(finding)
    .sort((a, b) =>
      compareUtf16(canonicalJson([a.code, a.subject, a.message]), canonicalJson([b.code, b.subject, b.message])),
    );
  return { id, title, status, evidence, findings };
}

const statusOf = (ds: readonly Diagnostic[]): CheckStatus =>
  ds.some((d) => d.severity === "error") ? "fail" : ds.some((d) => d.severity === "warning") ? "warn" : "pass";
const byCode = (ds: readonly Diagnostic[], ...codes: string[]) => ds.filter((d) => codes.includes(d.code));

/** The RFC 8785 number vector of values.json, checked on every run. */
const JCS_SELF_TEST = {
  input: "[333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001, -0.0]",
  output: "[333333333.3333333,1e+30,4.5,0.002,1e-27,0]",
};

export function buildAttestation(
  inp: AttestInputs,
  physical: { ts_build: string; elapsed: number | null; runs: readonly unknown[]; history?: AttestHistory },
): Attestation {
  const checks: AttestationCheck[] = [];

  // D1 — table published, unknown fields counted.
  const unregistered = byCode(inp.receiptFindings, "evidence.unregistered_field");
  checks.push(
    check(
      "D1",
      "Field classification table published; unknown fields counted and warned (R1)",
      statusOf(unregistered),
      `${RECEIPT_TABLE.version}: ${RECEIPT_TABLE.rows.length} rows, ${ATTESTATION_TABLE.version}: ${ATTESTATION_TABLE.rows.length} rows; minimum physical set excluded at any depth; ${unregistered.length} unregistered field occurrence(s)`,
      unregistered,
    ),
  );

  // D2 — stable sorting of object lists.
  const unkeyed = byCode(inp.receiptFindings, "evidence.unkeyed_list");
  const orderOk = inp.sensitivity.every((s) => s.orderIndependent);
  checks.push(
    check(
      "D2",
      "Lists of objects sorted by a declared stable key before canonicalisation (R2)",
      !orderOk ? "fail" : statusOf(unkeyed),
      `diagnostics sorted by ${(RECEIPT_TABLE.rows.find((r) => r.path === "result.diagnostics")?.sortKey ?? []).join(", ")}; reversing every diagnostic list left ${inp.sensitivity.filter((s) => s.orderIndependent).length}/${inp.sensitivity.length} ReproHashes unchanged`,
      [...unkeyed, ...inp.sensitivityFindings.filter((d) => d.message.includes("reordering"))],
    ),
  );

  // D3 — fixed-point numbers, enums by value, RFC 8785 bytes.
  const jcsOk = canonicalJson(JSON.parse(JCS_SELF_TEST.input)) === JCS_SELF_TEST.output;
  const jitterOk = fixedPoint(0.1 + 0.2) === fixedPoint(0.3) && fixedPoint(1.9999999999) === "2";
  checks.push(
    check(
      "D3",
      "Numbers as fixed-point strings, enums by value, keys sorted, no whitespace (R3, RFC 8785)",
      jcsOk && jitterOk && inp.coresNumberFree ? "pass" : "fail",
      `RFC 8785 number vector ${jcsOk ? "reproduced" : "NOT reproduced"}; fixed-point(6) absorbs float jitter: ${jitterOk}; receipt cores free of JSON numbers: ${inp.coresNumberFree}`,
    ),
  );

  // D4 — two independent runs agree.
  const unstable = inp.runs.filter((r) => !r.agree);
  const runsAgree =
    inp.runCount >= 2 &&
    inp.runs.length === inp.cases.length &&
    unstable.length === 0 &&
    inp.workerFindings.length === 0;
  checks.push(
    check(
      "D4",
      "Two independent runs (fresh processes) give the same ReproHash",
      runsAgree ? "pass" : "fail",
      `${inp.runCount} fresh-process runs over ${inp.cases.length} case(s); ${inp.runs.length - unstable.length} agree, ${unstable.length} differ`,
      [
        ...inp.workerFindings,
        ...unstable.map((r) =>
          diagnostic("evidence.unstable_hash", `${r.case}: ReproHashes ${r.hashes.join(", ")}`, { file: r.case }),
        ),
      ],
    ),
  );

  // D5 — sensitivity self-check.
  const sensOk =
    inp.sensitivity.length === inp.cases.length && inp.sensitivity.length > 0 && inp.sensitivity.every((s) => s.passed);
  const tampers = inp.sensitivity.reduce((n, s) => n + s.reproTampers.length, 0);
  const physTampers = inp.sensitivity.reduce((n, s) => n + s.physicalTampers.length, 0);
  const atoms = inp.sensitivity.filter((s) => s.sourceAtom !== undefined).length;
  checks.push(
    check(
      "D5",
      "Tampering ReproCore changes the hash; tampering physical fields does not (§3.4)",
      sensOk ? "pass" : "fail",
      `${tampers} repro-field tampers, ${physTampers} physical-field tampers, ${atoms}/${inp.sensitivity.length} case(s) with a source-atom mutation; ${inp.sensitivity.filter((s) => s.passed).length}/${inp.sensitivity.length} case(s) passed`,
      inp.sensitivityFindings,
    ),
  );

  // D6 — goldens frozen and review-marked.
  const goldenHit =
    inp.golden.length === inp.cases.length &&
    inp.golden.every((g) => g.status === "match") &&
    inp.goldenFindings.every((d) => d.severity !== "error");
  const gitFindings = inp.git?.findings ?? [];
  const d6 = [...inp.goldenFindings, ...gitFindings];
  checks.push(
    check(
      "D6",
      "Golden values frozen and every change to golden/ marked [golden]",
      !goldenHit ? "fail" : inp.git === null ? "warn" : statusOf(d6),
      `${inp.golden.filter((g) => g.status === "match").length}/${inp.cases.length} case(s) match golden/evidence; ` +
        `${(inp.suites ?? []).reduce((n, f) => n + f.matched, 0)}/${(inp.suites ?? []).reduce((n, f) => n + f.records, 0)} record(s) of ${(inp.suites ?? []).length} other golden folder(s) match; ` +
        (inp.git === null
          ? "git history not checked (run with --git)"
          : inp.git.available
            ? `${inp.git.commitsTouchingGolden} commit(s) touching golden/ in ${inp.git.range} checked for [golden]`
            : "git history unavailable"),
      inp.git === null
        ? [...d6, diagnostic("evidence.git_unavailable", "the [golden] commit-title check was not run")]
        : d6,
    ),
  );

  // D7 — every verdict carries a non-empty reason.
  const missing = [...new Set(inp.emittedCodes)].filter((c) => !REASON_TABLE.has(c)).sort(compareUtf16);
  const badRows = [...REASON_TABLE.values()].filter((r) => !REASON_PATTERN.test(r.reason));
  checks.push(
    check(
      "D7",
      "Every verdict has {action, layer, reason} with a non-empty family-prefixed reason (§4)",
      missing.length > 0 || badRows.length > 0 ? "fail" : "pass",
      `${REASON_TABLE.size} code rows; ${new Set(inp.emittedCodes).size} distinct code(s) emitted in receipts, ${missing.length} without a row; ${badRows.length} malformed reason(s)`,
      [
        ...missing.map((c) => diagnostic("evidence.reason_missing", `code ${c} has no row`, { file: c })),
        ...badRows.map((r) =>
          diagnostic("evidence.reason_missing", `row ${r.code} has reason ${r.reason} outside the §4.2 families`, {
            file: r.code,
          }),
        ),
      ],
    ),
  );

  // D8 — evidence classes and honesty.
  const honesty = [...inp.receiptFindings.filter((d) => d.code.startsWith("evidence.hon_")), ...inp.docFindings];
  checks.push(
    check(
      "D8",
      "Receipts carry evidence_class; measured evidence carries measure_source and measure_ts (§5)",
      statusOf(honesty),
      `${inp.runs.length * Math.max(inp.runCount, 1)} receipt(s) inspected; ${inp.claimsInspected ? `${inp.claimsInspected.claims} evidence claim(s) in ${inp.claimsInspected.files} file(s) under bench/ and docs/ inspected; ` : ""}${honesty.length} honesty warning(s) (H1/H2)`,
      honesty,
    ),
  );

  // Verdict before D9/D10 are added (they describe the report itself and cannot fail it silently).
  const warnings = { unregistered_fields: unregistered.length, honesty: honesty.length };

  // D9 — verdict_hash reproducible, ts_build excluded (checked on the finished report below).
  checks.push(
    check(
      "D9",
      "verdict_hash reproducible; ts_build not in the hash",
      "pass",
      "verdict_hash recomputed with a different ts_build and compared",
    ),
  );
  // D10 — single CI entry with three exit codes: read from the repository's CI script, not assumed.
  checks.push(
    check(
      "D10",
      "Single CI entry with exit codes 0 green / 1 red / 2 yellow",
      inp.ci?.runsAttest === true ? "pass" : "warn",
      inp.ci === undefined
        ? "the CI entry was not inspected"
        : `${inp.ci.detail}; \`yaoc attest\` exits 0, 1 or 2 with the verdict below`,
    ),
  );

  const physicalNonEmpty = inp.runs.length > 0 && inp.runs.every((r) => r.physicalDifference.length > 0);
  if (!physicalNonEmpty) {
    checks[3] = check(
      checks[3]!.id,
      checks[3]!.title,
      "fail",
      `${checks[3]!.evidence}; physical difference between runs is empty for some case`,
      [
        ...inp.workerFindings,
        diagnostic(
          "evidence.no_physical_difference",
          "two runs had identical physical fields: exclusion not demonstrated",
        ),
      ],
    );
  }

  const golden_cases = inp.golden.filter((g) => g.status !== "missing").length;
  const grade: Grade =
    !runsAgree || !sensOk
      ? "incompatible"
      : goldenHit && physicalNonEmpty && golden_cases === inp.cases.length
        ? "full"
        : "sampled";

  const assemble = (cs: readonly AttestationCheck[], ts: string) => {
    const verdict: Verdict = cs.some((c) => c.status === "fail")
      ? "red"
      : cs.some((c) => c.status === "warn")
        ? "yellow"
        : "green";
    const exit_code = verdict === "green" ? 0 : verdict === "red" ? 1 : 2;
    const doc: Record<string, unknown> = {
      report: ATTESTATION_TABLE.version,
      verdict,
      exit_code,
      grade,
      grade_evidence: {
        runs: inp.runCount,
        runs_agree: runsAgree,
        golden_cases,
        cases: inp.cases.length,
        golden_hit: goldenHit,
        sensitivity_passed: sensOk,
        physical_difference_nonempty: physicalNonEmpty,
        classification_table: RECEIPT_TABLE.version,
      },
      checks: cs,
      warnings,
      tool: inp.tool,
      ...(inp.host ? { host: inp.host } : {}),
      physical_difference: [...new Set(inp.runs.flatMap((r) => r.physicalDifference))].sort(compareUtf16),
      runs: physical.runs,
      history: physical.history ?? { last_green: null },
      ts_build: ts,
      elapsed: physical.elapsed,
    };
    const c = canonicalize(doc, ATTESTATION_TABLE);
    doc["verdict_hash"] = c.reproHash;
    return { doc, verdict, exit_code: exit_code as 0 | 1 | 2, hash: c.reproHash, unregistered: c.unregistered.length };
  };

  let first = assemble(checks, physical.ts_build);
  const again = assemble(checks, `${physical.ts_build}#recomputed`);
  if (again.hash !== first.hash || first.unregistered > 0) {
    checks[8] = check(
      "D9",
      checks[8]!.title,
      "fail",
      `verdict_hash changed with ts_build (${first.hash} vs ${again.hash}) or the report has unregistered fields`,
    );
    first = assemble(checks, physical.ts_build);
  }
  return { doc: first.doc, verdict: first.verdict, exitCode: first.exit_code, verdictHash: first.hash, checks };
}

/** One JSON object per line: every check, then the verdict line. Keys in RFC 8785 order. */
export function renderJsonl(a: Attestation): string {
  const lines = a.checks.map((c) =>
    canonicalJson({
      check: c.id,
      title: c.title,
      status: c.status,
      evidence: c.evidence,
      findings: c.findings,
    } as never),
  );
  const d = a.doc;
  lines.push(
    canonicalJson({
      check: "verdict",
      verdict: d["verdict"],
      exit_code: d["exit_code"],
      grade: d["grade"],
      grade_evidence: d["grade_evidence"],
      warnings: d["warnings"],
      verdict_hash: d["verdict_hash"],
      ts_build: d["ts_build"],
      physical_difference: d["physical_difference"],
      history: d["history"],
    } as never),
  );
  return `${lines.join("\n")}\n`;
}

export function renderMarkdown(a: Attestation): string {
  const d = a.doc;
  const ge = d["grade_evidence"] as Record<string, unknown>;
  const box = (s: CheckStatus) => (s === "pass" ? "[x]" : s === "warn" ? "[~]" : "[ ]");
  const esc = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
  const out = [
    "# yaoc self-attestation (seed 002)",
    "",
    `- verdict: **${a.verdict}** (exit ${a.exitCode})`,
    `- compatibility grade: **${String(d["grade"])}**`,
    `- verdict_hash: \`${a.verdictHash}\` (over the repro fields of this report; \`ts_build\` excluded)`,
    `- ts_build: ${String(d["ts_build"])} (physical, not hashed)`,
    `- tool: ${JSON.stringify(d["tool"])}`,
    `- history (not hashed): ${lastGreenLine(d["history"] as AttestHistory | undefined)}`,
    "",
    "## Grade evidence",
    "",
    "| fact | value |",
    "| --- | --- |",
    ...Object.entries(ge).map(([k, v]) => `| ${k} | ${String(v)} |`),
    "",
    `Physical fields that differed between the independent runs (proof that exclusion works): ${((d["physical_difference"] as string[]) ?? []).map((p) => `\`${p}\``).join(", ") || "**none**"}.`,
    "",
    "## Checklist (§7)",
    "",
  ];
  for (const c of a.checks) {
    out.push(`- ${box(c.status)} **${c.id}** ${c.title} — ${c.status}`, `  - ${c.evidence}`);
    for (const f of c.findings.slice(0, 50)) out.push(`  - \`${f.code}\` (\`${f.reason}\`) ${esc(f.message)}`);
    if (c.findings.length > 50) out.push(`  - … ${c.findings.length - 50} more in attestation.jsonl`);
  }
  out.push("", "Legend: [x] pass, [~] warn (yellow), [ ] fail (red). Exit codes: 0 green, 1 red, 2 yellow.", "");
  return out.join("\n");
}

function lastGreenLine(h: AttestHistory | undefined): string {
  const g = h?.last_green;
  return g
    ? `last green attestation in this report directory: commit ${g.commit.slice(0, 12)}, verdict_hash ${g.verdict_hash ?? "unknown"}`
    : "no earlier green attestation in this report directory";
}

export { EVIDENCE_CODES };
