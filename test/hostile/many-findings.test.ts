/**
 * Issue 28, item 6: a manifest made of a huge number of small fields, each a finding, gets an
 * answer — never a hang, a crash or hundreds of megabytes of diagnostics. Past the diagnostic limit
 * findings are counted, not built, and the verdict still counts their errors. The cases assert the
 * answer (verdict, the reported list capped, the closing note's count), not a time.
 */
import { describe, expect, it } from "vitest";
import { checkA3s } from "../../src/a3s/index.js";
import { A3S_DIAGNOSTIC_LIMIT } from "../../src/a3s/diagnostic-limit.js";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { checkSource } from "../../src/index.js";

const HEADER = 'extension "acme/x" {\n  schema_version = 3\n  version = "1.0.0"\n';

async function a3s(body: string) {
  const acl = `${HEADER}${body}}\n`;
  const r = await checkA3s(MemoryFs.from({ "/p/a3s-use-extension.acl": acl, "/p/README.md": "# x\n" }), "/p");
  return { r, bytes: acl.length };
}

describe("A3S: many findings in one manifest", () => {
  it("240,000 lines `x=1` in the extension block (under the size limit) give a capped answer", async () => {
    const { r, bytes } = await a3s("x=1\n".repeat(240_000));
    expect(bytes).toBeLessThan(1024 * 1024);
    expect(r.valid).toBe(false);
    expect(r.diagnostics).toHaveLength(A3S_DIAGNOSTIC_LIMIT + 1);
    const last = r.diagnostics.at(-1)!;
    expect(last.code).toBe("a3s.diagnostic_limit");
    expect(last.severity).toBe("info");
    // 239,999 duplicates and the schema's own findings, less the 200 shown.
    const more = Number(/^(\d+) more diagnostics/.exec(last.message)?.[1]);
    expect(more).toBeGreaterThan(239_999 - A3S_DIAGNOSTIC_LIMIT);
    expect(r.diagnostics.filter((d) => d.code === "a3s.acl.duplicate_attribute").length).toBeLessThanOrEqual(
      A3S_DIAGNOSTIC_LIMIT,
    );
  });

  it("100,000 distinct unknown attributes give a capped answer whose count includes every one", async () => {
    const body = Array.from({ length: 100_000 }, (_, i) => `x${i}=1\n`).join("");
    const { r } = await a3s(body);
    expect(r.valid).toBe(false);
    expect(r.diagnostics).toHaveLength(A3S_DIAGNOSTIC_LIMIT + 1);
    const unknown = r.diagnostics.filter((d) => d.code === "a3s.manifest.unknown_attribute").length;
    const more = Number(/^(\d+) more diagnostics/.exec(r.diagnostics.at(-1)!.message)?.[1]);
    expect(unknown + more).toBeGreaterThanOrEqual(100_000);
  });

  it("200,000 stray characters give a capped answer", async () => {
    const { r } = await a3s("@\n".repeat(200_000));
    expect(r.valid).toBe(false);
    expect(r.diagnostics.at(-1)!.code).toBe("a3s.diagnostic_limit");
    expect(r.diagnostics.length).toBeLessThanOrEqual(A3S_DIAGNOSTIC_LIMIT + 1);
  });

  it("control: a manifest with a handful of findings lists them all, with no closing note", async () => {
    const { r } = await a3s("x=1\nx=1\nx=1\n");
    expect(r.diagnostics.map((d) => d.code)).not.toContain("a3s.diagnostic_limit");
    expect(r.diagnostics.filter((d) => d.code === "a3s.acl.duplicate_attribute")).toHaveLength(2);
  });
});

describe("HNS: many findings in one manifest", () => {
  const pkg = (fields: number) =>
    `(manifest (id t) (version "1") (title "T")${" (x 1)".repeat(fields)})\n(contract (purpose "x"))\n(eval 1)\n`;

  it("40,000 unknown manifest fields (under the source limit) give a capped answer: valid, 200 warnings and a note", async () => {
    const text = pkg(40_000);
    expect(text.length).toBeLessThan(262_144);
    const r = await checkSource("p.hns", text);
    expect(r.valid).toBe(true);
    expect(r.diagnostics.filter((d) => d.code === "hns.unknown_field")).toHaveLength(200);
    const note = r.diagnostics.find((d) => d.code === "hns.warning_limit")!;
    expect(note.severity).toBe("info");
    expect(note.message).toMatch(/^200 warnings shown, 39800 more not shown/);
  });

  it("control: three unknown fields are all reported, with no note", async () => {
    const r = await checkSource("p.hns", pkg(3));
    expect(r.diagnostics.map((d) => d.code)).toEqual(["hns.unknown_field", "hns.unknown_field", "hns.unknown_field"]);
  });
});
