import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
// A renderer input of any code: tests may use the builder that is private to src/diagnostics.
import { diagnostic } from "../../src/diagnostics/build.js";
import type { CheckResult } from "../../src/diagnostics/result.js";
import { canonicalize, physicalDifference } from "../../src/evidence/canonicalize.js";
import {
  MIN_PHYSICAL_FIELDS,
  RECEIPT_TABLE,
  renderClassificationMarkdown,
  TABLES,
} from "../../src/evidence/classification.js";
import { sensitivityOfReceipt, sensitivityPassed } from "../../src/evidence/golden.js";
import {
  docClaimFindings,
  honestyFindings,
  measuredFigure,
  receiptFindings,
  seal,
  toReceipt,
} from "../../src/evidence/receipt.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

const result: CheckResult = {
  path: "pkg.hns",
  kind: "hns",
  valid: false,
  identity: null,
  extra: { id: "acme.x", version: "1.0.0", owner: "runtime" },
  diagnostics: [
    diagnostic("hns.missing_field", "b", {
      file: "pkg.hns",
      span: { start: { byte: 9, line: 2, column: 1 }, end: { byte: 10, line: 2, column: 2 } },
    }),
    diagnostic("hns.bad_suffix", "a", { file: "pkg.hns" }),
  ],
};
const run = (n: number) => ({
  generated_at: `2026-01-0${n}T00:00:00.000Z`,
  pid: 100 + n,
  id_runtime: `run-${n}`,
  elapsed: n * 1.5,
});

describe("receipts", () => {
  it("carry evidence_class, reason codes and a 16-hex ReproHash", () => {
    const r = toReceipt(result, { analyze: true, run: run(1) });
    expect(r.evidence_class).toBe("simulated");
    expect(r.repro_hash).toMatch(/^[0-9a-f]{16}$/);
    expect(String(r["repro_digest"]).slice(7, 23)).toBe(r.repro_hash);
    const diags = (r["result"] as { diagnostics: Record<string, string>[] }).diagnostics;
    expect(
      diags.every(
        (d) =>
          ["block", "advise", "allow"].includes(d["action"]!) &&
          /^L[1-8]$/.test(d["layer"]!) &&
          d["reason"]!.length > 0,
      ),
    ).toBe(true);
    expect(receiptFindings(r, "pkg.hns")).toEqual([]);
  });

  it("two runs: same ReproHash, non-empty physical difference", () => {
    const a = toReceipt(result, { analyze: true, run: run(1) });
    const b = toReceipt(result, { analyze: true, run: run(2) });
    expect(a.repro_hash).toBe(b.repro_hash);
    expect(physicalDifference(canonicalize(a, RECEIPT_TABLE), canonicalize(b, RECEIPT_TABLE))).toEqual([
      "/elapsed",
      "/generated_at",
      "/id_runtime",
      "/pid",
    ]);
  });

  it("diagnostic order does not matter (R2), content does", () => {
    const a = toReceipt(result, { analyze: true });
    const b = toReceipt({ ...result, diagnostics: [...result.diagnostics].reverse() }, { analyze: true });
    expect(a.repro_hash).toBe(b.repro_hash);
    const c = toReceipt({ ...result, diagnostics: [result.diagnostics[0]!] }, { analyze: true });
    expect(c.repro_hash).not.toBe(a.repro_hash);
  });

  it("sensitivity self-check passes on a receipt and would catch an idle hash", () => {
    const r = toReceipt(result, { analyze: true, run: run(1) });
    const s = sensitivityOfReceipt("pkg.hns", r);
    expect(s.reproTampers.length).toBeGreaterThan(10);
    expect(s.reproTampers.every((t) => t.changed)).toBe(true);
    expect(s.physicalTampers.length).toBeGreaterThanOrEqual(MIN_PHYSICAL_FIELDS.length);
    expect(s.physicalTampers.every((t) => !t.changed)).toBe(true);
    expect(sensitivityPassed(s)).toBe(true);
  });
});

describe("canonicalize (R1–R3)", () => {
  const table = {
    name: "t",
    version: "t/1",
    rows: [
      { path: "a", class: "repro" as const, note: "" },
      { path: "n", class: "repro" as const, note: "" },
      { path: "xs", class: "repro" as const, note: "", sortKey: ["k"] },
      { path: "xs[].k", class: "repro" as const, note: "" },
      { path: "xs[].v", class: "repro" as const, note: "" },
      { path: "ys", class: "repro" as const, note: "" },
      { path: "ys[].k", class: "repro" as const, note: "" },
      { path: "o", class: "opaque" as const, note: "" },
    ],
  };

  it("counts unregistered fields instead of dropping them silently, and keeps them out of the hash", () => {
    const c = canonicalize({ a: "x", mystery: 1, nested: { deep: 2 } }, table);
    expect(c.unregistered.map((u) => u.pointer)).toEqual(["/mystery", "/nested"]);
    expect(c.core).toEqual({ a: "x" });
    const sealed = seal({ receipt: "yaoc.receipt/1", evidence_class: "simulated", measure_source: null, mystery: 1 });
    expect((sealed["canonical"] as { unregistered: string[] }).unregistered).toEqual(["/mystery"]);
    expect(receiptFindings(sealed, "s").map((d) => d.code)).toEqual(["evidence.unregistered_field"]);
  });

  it("excludes the §3.2 minimum set at any depth", () => {
    const c = canonicalize({ a: "x", xs: [{ k: 1, ts: 5, elapsed: 3 }], ts: 9, pid: 1 }, table);
    expect(c.core).toEqual({ a: "x", xs: [{ k: "1" }] });
    expect(c.physical.map((p) => p.pointer).sort()).toEqual(["/pid", "/ts", "/xs/0/elapsed", "/xs/0/ts"]);
    expect(c.unregistered).toEqual([]);
  });

  it("sorts object lists by the declared key, falls back to canonical bytes and warns", () => {
    const a = canonicalize(
      {
        xs: [
          { k: 10, v: "b" },
          { k: 9, v: "a" },
        ],
        ys: [{ k: "z" }, { k: "a" }],
      },
      table,
    );
    expect(a.core).toEqual({
      xs: [
        { k: "9", v: "a" },
        { k: "10", v: "b" },
      ],
      ys: [{ k: "a" }, { k: "z" }],
    });
    expect(a.unkeyedLists).toEqual(["ys"]);
  });

  it("writes numbers as fixed-point strings so float jitter cannot move the hash", () => {
    const a = canonicalize({ n: 0.1 + 0.2 }, table);
    const b = canonicalize({ n: 0.3 }, table);
    expect(a.canonical).toBe('{"n":"0.3"}');
    expect(a.reproHash).toBe(b.reproHash);
    expect(() => canonicalize({ n: NaN }, table)).toThrow(/fixed-point/);
    expect(() => canonicalize({ a: "\ud800" }, table)).toThrow(/lone surrogate/);
  });

  it("keeps opaque fields out of the hash", () => {
    expect(canonicalize({ a: "x", o: { anything: [1] } }, table).reproHash).toBe(
      canonicalize({ a: "x" }, table).reproHash,
    );
  });
});

describe("evidence classes and honesty (§5)", () => {
  const codes = (doc: Record<string, unknown>) => honestyFindings(doc, "s").map((d) => d.code);
  it("H2: missing or invalid evidence_class", () => {
    expect(codes({})).toEqual(["evidence.hon_missing_evidence_class"]);
    expect(codes({ evidence_class: "guessed" })).toEqual(["evidence.hon_invalid_evidence_class"]);
  });
  it("H1: measured without source or time; third_party without source", () => {
    expect(codes({ evidence_class: "measured", measure_source: null, measure_ts: null })).toEqual([
      "evidence.hon_measured_no_source",
      "evidence.hon_measured_no_ts",
    ]);
    expect(codes({ evidence_class: "third_party", measure_source: "" })).toEqual([
      "evidence.hon_third_party_no_source",
    ]);
    expect(codes(measuredFigure("check p50", 1.25, "ms", "npm run bench", "2026-01-01T00:00:00Z"))).toEqual([]);
  });
  it("simulated must not carry measurement fields", () => {
    expect(codes({ evidence_class: "simulated", measure_source: null, measure_ts: null })).toEqual([]);
    expect(codes({ evidence_class: "simulated", measure_source: "x", measure_ts: null })).toEqual([
      "evidence.hon_simulated_with_measure",
    ]);
  });
  it("H1: a document claiming measured results needs non-simulated evidence beside it", () => {
    expect(docClaimFindings("d.md", "本实现实测 11/12", ["simulated"]).map((d) => d.code)).toEqual([
      "evidence.hon_doc_claim_unbacked",
    ]);
    expect(docClaimFindings("d.md", "本实现实测 11/12", ["measured"])).toEqual([]);
    expect(docClaimFindings("d.md", "The rule flags `实测` in prose.", [])).toEqual([]);
    expect(docClaimFindings("d.md", "Our measured results show 2x.", [])).toHaveLength(1);
  });
  it("receipts record measured evidence", () => {
    const r = toReceipt(result, {
      analyze: true,
      evidence_class: "measured",
      measure_source: "npm run bench",
      measure_ts: "2026-01-01T00:00:00Z",
    });
    expect(receiptFindings(r, "s")).toEqual([]);
    expect(
      receiptFindings(toReceipt(result, { analyze: true, evidence_class: "measured" }), "s").map((d) => d.code),
    ).toEqual(["evidence.hon_measured_no_source", "evidence.hon_measured_no_ts"]);
  });
});

describe("classification table", () => {
  it("puts the §3.2 minimum set in the physical class", () => {
    for (const f of [
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
    ]) {
      expect(MIN_PHYSICAL_FIELDS).toContain(f);
    }
    for (const t of TABLES)
      for (const r of t.rows) if (MIN_PHYSICAL_FIELDS.includes(r.path)) expect(r.class).toBe("physical");
  });
  it("has unique paths and sort keys only on lists", () => {
    for (const t of TABLES) expect(new Set(t.rows.map((r) => r.path)).size).toBe(t.rows.length);
  });
  it("docs/evidence.md embeds the generated table verbatim", () => {
    const doc = readFileSync(join(repo, "docs/evidence.md"), "utf8");
    const m = /<!-- BEGIN field-classification[^\n]*-->\n([\s\S]*?)\n<!-- END field-classification -->/.exec(doc);
    expect(m, "markers missing in docs/evidence.md").not.toBeNull();
    expect(m![1]).toBe(renderClassificationMarkdown());
  });
});

describe("renderEvidenceJson (the check --format json view)", () => {
  it("keeps the result fields and adds evidence_class, reason codes and repro_hash", async () => {
    const { renderEvidenceJson } = await import("../../src/evidence/receipt.js");
    const doc = JSON.parse(renderEvidenceJson([result], { analyze: true })) as { results: Record<string, unknown>[] };
    const r = doc.results[0]!;
    expect(r["path"]).toBe("pkg.hns");
    expect(r["id"]).toBe("acme.x");
    expect(r["evidence_class"]).toBe("simulated");
    expect(r["repro_hash"]).toBe(toReceipt(result, { analyze: true }).repro_hash);
    expect((r["diagnostics"] as Record<string, unknown>[])[0]).toHaveProperty("reason");
  });
});

describe("wildcard rows", () => {
  it("classify data-keyed maps such as A3S okf.<id>, ids with dots included", () => {
    const r = toReceipt(
      { ...result, kind: "a3s", extra: { okf: { "acme.docs": { contentDigest: "sha256:1", fileCount: 3 } } } },
      { analyze: true },
    );
    expect(receiptFindings(r, "s")).toEqual([]);
    const c = canonicalize(r, RECEIPT_TABLE);
    expect(c.canonical).toContain('"okf":{"acme.docs":{"contentDigest":"sha256:1","fileCount":"3"}}');
  });
});
