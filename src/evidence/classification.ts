/**
 * The field classification table of R1 (seed 002 §3.1): every field of a receipt and of the
 * attestation report is `repro` (part of ReproCore: hashed), `physical` (differs from run to run:
 * excluded from the hash, kept in the document, compared between runs) or `opaque` (provenance
 * that is stable but deliberately not part of the claim: excluded from the hash, not inspected).
 *
 * docs/evidence.md embeds `renderClassificationMarkdown()` verbatim (a test fails when it is stale),
 * so the code and the document share this one source.
 *
 * Paths: dot-separated member names from the document root; `[]` marks the elements of a list;
 * a `*` segment matches any member name, dots included (for maps keyed by data, e.g. A3S `okf.<id>`).
 * A field whose path has no row is *unregistered*: it is treated as physical (kept out of the hash),
 * counted, and reported as `evidence.unregistered_field` — never silently dropped.
 * The minimum physical set of §3.2 (plus `ts_build`) is physical at any depth, table or not.
 */

export type FieldClass = "physical" | "repro" | "opaque";

export interface FieldRule {
  readonly path: string;
  readonly class: FieldClass;
  readonly note: string;
  /** For a list of objects: the members, in order, that give its stable order (R2). */
  readonly sortKey?: readonly string[];
}

export interface ClassificationTable {
  readonly name: string;
  /** Bump when the rows or the canonical form change, so old and new hashes never get compared. */
  readonly version: string;
  readonly rows: readonly FieldRule[];
}

/** §3.2's minimum set of fields that must be excluded, plus the report build time of §5.3. */
export const MIN_PHYSICAL_FIELDS: readonly string[] = [
  "ts",
  "timestamp",
  "elapsed",
  "duration",
  "started_at",
  "finished_at",
  "thread_order",
  "addr",
  "id_runtime",
  "pid",
  "uptime_s",
  "generated_at",
  "ts_build",
];

const physicalRoot =
  (note: string) =>
  (name: string): FieldRule => ({ path: name, class: "physical", note });
const run = physicalRoot("run-dependent (§3.2 minimum set)");

const DIAG = "result.diagnostics[]";

export const RECEIPT_TABLE: ClassificationTable = {
  name: "receipt",
  version: "yaoc.receipt/3",
  rows: [
    { path: "receipt", class: "repro", note: "receipt format and table version (`yaoc.receipt/3`)" },
    { path: "command", class: "repro", note: "the yaoc command that produced the result (`check`)" },
    { path: "options", class: "repro", note: "options that change the result" },
    { path: "options.analyze", class: "repro", note: "HNS module analysis on/off" },
    { path: "evidence_class", class: "repro", note: "simulated / measured / third_party (§5.1)" },
    {
      path: "measure_source",
      class: "repro",
      note: "command or path a measured figure comes from; null when simulated",
    },
    { path: "measure_ts", class: "physical", note: "when a measured figure was taken; null when simulated" },
    { path: "result", class: "repro", note: "one result of `yaoc check --format json`" },
    {
      path: "result.path",
      class: "repro",
      note: "the package's own name: the last segment of its resolved path, the same for `x`, `./x`, `../here/x` and `/abs/here/x`; files, messages, help and labels that spell the typed path spell this name",
    },
    { path: "result.kind", class: "repro", note: "hns / harp / a3s / hcp / unknown" },
    { path: "result.valid", class: "repro", note: "verdict" },
    { path: "result.identity", class: "repro", note: "`sha256:` content identity or null" },
    { path: "result.id", class: "repro", note: "HNS / HARP package id" },
    { path: "result.version", class: "repro", note: "HNS / HARP package version" },
    { path: "result.owner", class: "repro", note: "HNS entry owner" },
    {
      path: "result.program_hash",
      class: "repro",
      note: "HNS entry program hash (typed IR identity), null unless analysed and valid",
    },
    { path: "result.name", class: "repro", note: "HARP display name" },
    { path: "result.pack_id", class: "repro", note: "HCP pack id" },
    { path: "result.plane", class: "repro", note: "HCP plane" },
    { path: "result.hcp", class: "repro", note: "HCP protocol version" },
    { path: "result.metadata", class: "repro", note: "HCP metadata (explicit / derived)" },
    { path: "result.metadata_source", class: "repro", note: "HCP file the metadata was read from" },
    { path: "result.verbs", class: "repro", note: "HCP verb keys, in declaration order" },
    { path: "result.triggers", class: "repro", note: "HCP trigger refs, in declaration order" },
    { path: "result.digest", class: "repro", note: "HCP pack digest" },
    { path: "result.packageId", class: "repro", note: "A3S package id" },
    { path: "result.manifestDigest", class: "repro", note: "A3S manifest digest" },
    { path: "result.fingerprint", class: "repro", note: "A3S package fingerprint" },
    { path: "result.fileCount", class: "repro", note: "A3S number of package files" },
    { path: "result.byteCount", class: "repro", note: "A3S total bytes of package files" },
    { path: "result.verification", class: "repro", note: "A3S statement of what the check does not verify" },
    { path: "result.okf", class: "repro", note: "A3S OKF bundles by id" },
    { path: "result.okf.*", class: "repro", note: "one OKF bundle inspection" },
    { path: "result.okf.*.contentDigest", class: "repro", note: "OKF bundle content digest" },
    { path: "result.okf.*.conceptCount", class: "repro", note: "OKF concept count" },
    { path: "result.okf.*.fileCount", class: "repro", note: "OKF file count" },
    { path: "result.okf.*.expandedBytes", class: "repro", note: "OKF expanded size in bytes" },
    {
      path: "result.diagnostics",
      class: "repro",
      note: "every diagnostic; sorted by the stable key before hashing (R2)",
      sortKey: ["file", "line", "column", "code", "pointer", "message"],
    },
    { path: `${DIAG}.code`, class: "repro", note: "diagnostic code" },
    { path: `${DIAG}.severity`, class: "repro", note: "error / warning / info" },
    { path: `${DIAG}.message`, class: "repro", note: "message text" },
    {
      path: `${DIAG}.reference_message`,
      class: "repro",
      note: "the reference implementation's wording when the message says it in Yao notation; null otherwise",
    },
    { path: `${DIAG}.file`, class: "repro", note: "file the diagnostic points at" },
    { path: `${DIAG}.line`, class: "repro", note: "1-based start line" },
    { path: `${DIAG}.column`, class: "repro", note: "1-based start column (display columns)" },
    { path: `${DIAG}.end_line`, class: "repro", note: "1-based end line" },
    { path: `${DIAG}.end_column`, class: "repro", note: "1-based end column, exclusive (display columns)" },
    { path: `${DIAG}.byte`, class: "repro", note: "0-based UTF-8 start offset" },
    { path: `${DIAG}.end_byte`, class: "repro", note: "0-based UTF-8 end offset, exclusive" },
    { path: `${DIAG}.function`, class: "repro", note: "the HNS function the problem is inside" },
    { path: `${DIAG}.label`, class: "repro", note: "text under the primary caret (expected / found)" },
    { path: `${DIAG}.pointer`, class: "repro", note: "JSON Pointer into a JSON document" },
    { path: `${DIAG}.help`, class: "repro", note: "how to fix it" },
    {
      path: `${DIAG}.related`,
      class: "repro",
      note: "secondary locations, in the order the diagnostic gives them",
      sortKey: ["file", "line", "column", "message"],
    },
    { path: `${DIAG}.related[].file`, class: "repro", note: "file of a secondary location" },
    { path: `${DIAG}.related[].line`, class: "repro", note: "its 1-based start line" },
    { path: `${DIAG}.related[].column`, class: "repro", note: "its 1-based start column (display columns)" },
    { path: `${DIAG}.related[].end_line`, class: "repro", note: "its 1-based end line" },
    { path: `${DIAG}.related[].end_column`, class: "repro", note: "its end column, exclusive (display columns)" },
    { path: `${DIAG}.related[].byte`, class: "repro", note: "its 0-based UTF-8 start offset" },
    { path: `${DIAG}.related[].end_byte`, class: "repro", note: "its 0-based UTF-8 end offset, exclusive" },
    { path: `${DIAG}.related[].message`, class: "repro", note: "what the secondary location is" },
    { path: `${DIAG}.action`, class: "repro", note: "reason code: allow / advise / block (§4.1)" },
    { path: `${DIAG}.layer`, class: "repro", note: "reason code: guard layer L1–L8" },
    { path: `${DIAG}.reason`, class: "repro", note: "reason code: family-prefixed reason (§4.2)" },
    { path: "repro_hash", class: "opaque", note: "the ReproHash itself (derived from the repro fields)" },
    {
      path: "repro_digest",
      class: "opaque",
      note: "the full `sha256:` of the canonical JSON (the ReproHash is its first 16 hex)",
    },
    {
      path: "tool",
      class: "opaque",
      note: "yaoc name and version (provenance; a version bump alone must not move goldens)",
    },
    { path: "host", class: "opaque", note: "platform and Node version (provenance)" },
    {
      path: "canonical",
      class: "opaque",
      note: "what canonicalisation excluded: unregistered field paths and unkeyed lists",
    },
    {
      path: "typed_path",
      class: "physical",
      note: "the package path as typed (depends on the working directory and the spelling, so never hashed)",
    },
    run("generated_at"),
    run("elapsed"),
    run("pid"),
    run("id_runtime"),
  ],
};

export const ATTESTATION_TABLE: ClassificationTable = {
  name: "attestation",
  version: "yaoc.attestation/1",
  rows: [
    { path: "report", class: "repro", note: "report format and table version (`yaoc.attestation/1`)" },
    { path: "verdict", class: "repro", note: "green / yellow / red" },
    { path: "exit_code", class: "repro", note: "0 green, 1 red, 2 yellow" },
    { path: "grade", class: "repro", note: "compatibility grade: full / sampled / incompatible (§6)" },
    { path: "grade_evidence", class: "repro", note: "the facts the grade rests on" },
    { path: "grade_evidence.runs", class: "repro", note: "number of independent fresh-process runs" },
    { path: "grade_evidence.runs_agree", class: "repro", note: "all runs gave the same ReproHashes" },
    { path: "grade_evidence.golden_cases", class: "repro", note: "cases with a frozen golden value" },
    { path: "grade_evidence.cases", class: "repro", note: "cases in the golden set" },
    { path: "grade_evidence.golden_hit", class: "repro", note: "every recomputed value matched its golden" },
    { path: "grade_evidence.sensitivity_passed", class: "repro", note: "the §3.4 self-check passed" },
    {
      path: "grade_evidence.physical_difference_nonempty",
      class: "repro",
      note: "physical fields differed between the runs",
    },
    { path: "grade_evidence.classification_table", class: "repro", note: "version of the receipt table in use" },
    { path: "checks", class: "repro", note: "D1–D10 and the supporting checks, sorted by id (R2)", sortKey: ["id"] },
    { path: "checks[].id", class: "repro", note: "check id" },
    { path: "checks[].title", class: "repro", note: "what is checked" },
    { path: "checks[].status", class: "repro", note: "pass / warn / fail" },
    { path: "checks[].evidence", class: "repro", note: "deterministic summary of the evidence" },
    {
      path: "checks[].findings",
      class: "repro",
      note: "diagnostics found (code, reason, message), sorted",
      sortKey: ["code", "subject", "message"],
    },
    { path: "checks[].findings[].code", class: "repro", note: "diagnostic code" },
    { path: "checks[].findings[].reason", class: "repro", note: "reason code" },
    { path: "checks[].findings[].subject", class: "repro", note: "case or file the finding is about" },
    { path: "checks[].findings[].message", class: "repro", note: "message" },
    { path: "warnings", class: "repro", note: "warning counts that make the verdict yellow" },
    { path: "warnings.unregistered_fields", class: "repro", note: "unregistered receipt fields seen (R1)" },
    { path: "warnings.honesty", class: "repro", note: "honesty warnings H1/H2" },
    { path: "verdict_hash", class: "opaque", note: "ReproHash of this report's repro fields" },
    { path: "tool", class: "opaque", note: "yaoc name and version" },
    { path: "host", class: "opaque", note: "platform and Node version" },
    { path: "canonical", class: "opaque", note: "what canonicalisation excluded" },
    {
      path: "physical_difference",
      class: "physical",
      note: "physical receipt fields that differed between the runs (run-dependent by design)",
    },
    { path: "runs", class: "physical", note: "per-run pid, id_runtime and timing" },
    {
      path: "history",
      class: "physical",
      note: "what earlier runs left in the report directory (the last green commit and verdict_hash); reported, never hashed",
    },
    run("ts_build"),
    run("elapsed"),
  ],
};

/** Rule lookup for a table: exact paths first, then `*` patterns (one member name per `*`). */
export function ruleLookup(table: ClassificationTable): (path: string) => FieldRule | undefined {
  const exact = new Map(table.rows.map((r) => [r.path, r]));
  const wild = table.rows
    .filter((r) => r.path.split(".").includes("*"))
    .map((r) => ({
      rule: r,
      re: new RegExp(
        `^${r.path
          .split(".")
          .map((seg) => (seg === "*" ? ".+" : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
          .join("\\.")}$`,
      ),
    }));
  return (path) => exact.get(path) ?? wild.find((w) => w.re.test(path))?.rule;
}

export const TABLES: readonly ClassificationTable[] = [RECEIPT_TABLE, ATTESTATION_TABLE];

/** The markdown embedded in docs/evidence.md between the field-classification markers. */
export function renderClassificationMarkdown(tables: readonly ClassificationTable[] = TABLES): string {
  const esc = (s: string) => s.replace(/\|/g, "\\|");
  const out: string[] = [];
  out.push(`Minimum physical set (physical at any depth): ${MIN_PHYSICAL_FIELDS.map((f) => `\`${f}\``).join(", ")}.`);
  for (const t of tables) {
    out.push(
      "",
      `### ${t.name} (\`${t.version}\`)`,
      "",
      "| field | class | stable sort key | meaning |",
      "| --- | --- | --- | --- |",
    );
    for (const r of t.rows)
      out.push(
        `| \`${r.path}\` | ${r.class} | ${r.sortKey ? r.sortKey.map((k) => `\`${k}\``).join(", ") : ""} | ${esc(r.note)} |`,
      );
  }
  return out.join("\n");
}
