/**
 * Every sentence of the reference's OKF message table (reference/a3s/okf-messages.md) is produced,
 * verbatim up to its substitutions, by one of our own fixtures (test/a3s/okf-message-cases.ts and
 * test/a3s/okf-messages.test.ts), or is listed below as one the implementation cannot produce, with
 * the reason. A new row in the table fails this test until it is placed.
 */
import { expect, test } from "vitest";
import { DEFAULT_OKF_LIMITS } from "../../src/a3s/okf/contract.js";
import { parseOkfContractJson } from "../../src/a3s/okf/bundle.js";
import { inspectOkfBundleFiles, verifyInspection } from "../../src/a3s/okf/inspect.js";
import { CONCEPT, firstError, inspect, ROWS } from "../a3s/okf-message-cases.js";
import { describeReference, referenceText } from "./reference.js";

/** Rows that no input to yaoc can reach, and why (docs/a3s.md "OKF messages"). */
const UNREACHABLE: Record<string, string> = {
  "OKF concept '{path}' is not Markdown.":
    "raised when a concept is addressed by a non-.md path in a projection; yaoc only inspects bundles, where non-.md files are plain files",
  "The canonical OKF bundle contract exceeds its size bound.":
    "raised when encoding a contract; yaoc never encodes one",
  "Failed to encode canonical OKF bundle contract JSON: {error}":
    "raised when encoding a contract; yaoc never encodes one",
  "The OKF bundle root is not canonical.":
    "raised when normalising changes a root that normalised without error; yaoc's root check rejects every non-canonical root first, as use.okf.path_escape",
};

const enc = new TextEncoder();
function producedMessages(): string[] {
  const out = ROWS.filter((r) => r[2] !== "").map(
    (r) =>
      firstError(r[1], r[0].startsWith("exceeds") ? { ...DEFAULT_OKF_LIMITS, maxFiles: 1, maxConcepts: 1 } : undefined)
        .message,
  );
  const dup = inspectOkfBundleFiles(
    [
      { path: "a.md", bytes: enc.encode(CONCEPT) },
      { path: "a.md", bytes: enc.encode(CONCEPT) },
    ],
    DEFAULT_OKF_LIMITS,
  );
  if (!dup.ok) out.push(dup.errors[0]!.message);
  out.push(firstError({ "a.md": "---\ntype: [\n---\n" }).message);
  const ok = inspect({ "a.md": `${CONCEPT}[x](gone.md)\n` });
  if (ok.ok) out.push(...ok.inspection.diagnostics.map((d) => d.message));
  const valid = {
    schema: "a3s.use.okf-bundle.v1",
    formatVersion: "0.2",
    root: "k",
    contentDigest: `sha256:${"a".repeat(64)}`,
    conceptCount: 1,
    fileCount: 1,
    expandedBytes: 1,
    limits: DEFAULT_OKF_LIMITS,
  };
  for (const c of [
    "",
    "{",
    JSON.stringify({ ...valid, schema: "x" }),
    JSON.stringify({ ...valid, root: "../k" }),
    JSON.stringify({ ...valid, conceptCount: 0 }),
    JSON.stringify({ ...valid, limits: { ...DEFAULT_OKF_LIMITS, maxFiles: 0 } }),
  ]) {
    const r = parseOkfContractJson(enc.encode(c));
    if (!r.ok) out.push(r.error.message);
  }
  if (ok.ok) out.push(verifyInspection(valid as never, ok.inspection)!.message);
  return out;
}

/** The table's template as a pattern: `{name}`, `{}` and `{label}` become "anything". */
function templatePattern(template: string): RegExp {
  const parts = template.split(/\{[a-z_]*\}/);
  return new RegExp(`^${parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[\\s\\S]+")}$`);
}

describeReference("OKF messages (reference/a3s/okf-messages.md)", () => {
  const rows = [...referenceText("reference", "a3s", "okf-messages.md").matchAll(/^\| `([^`]+)`/gm)].map((m) => m[1]!);
  const produced = producedMessages();

  test("the table has its 30 rows", () => expect(rows.length).toBe(30));
  test.each(rows.map((r) => [r]))("%s", (row) => {
    if (row in UNREACHABLE) {
      expect(produced.some((m) => templatePattern(row).test(m))).toBe(false);
      return;
    }
    expect(
      produced.filter((m) => templatePattern(row).test(m)),
      `no fixture produces: ${row}`,
    ).not.toEqual([]);
  });
});
