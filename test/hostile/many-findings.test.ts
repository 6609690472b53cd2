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
import { checkHarp } from "../../src/harp/index.js";
import { checkHcp } from "../../src/hcp/index.js";
import { DIAGNOSTIC_LIMIT } from "../../src/diagnostics/collector.js";
import { harpJson } from "../support/harp-manifest.js";

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

/** `N more diagnostics not shown (E errors)` of a closing note, as numbers. */
function counted(message: string): { more: number; errors: number } {
  const m = /^(\d+) more diagnostics? not shown \((\d+) errors?\)/.exec(message);
  expect(m, message).not.toBeNull();
  return { more: Number(m![1]), errors: Number(m![2]) };
}

describe("HARP: many findings in one manifest", () => {
  const manifest = (unknown: number) => {
    const members: Record<string, unknown> = {};
    for (let i = 0; i < unknown; i++) members[`f${i}`] = 1;
    return harpJson(members, { compact: true });
  };
  const harp = (text: string) =>
    checkHarp(MemoryFs.from({ "/p/harp.json": text, "/p/server.mjs": "" }), "/p", { digest: false });

  it("60,000 unknown harp.json members (under the size limit) give a capped answer that counts every one", async () => {
    const text = manifest(60_000);
    expect(text.length).toBeLessThan(1024 * 1024);
    const r = await harp(text);
    expect(r.valid).toBe(false);
    expect(r.diagnostics).toHaveLength(DIAGNOSTIC_LIMIT + 1);
    expect(r.diagnostics.filter((d) => d.code === "harp.unknown_field")).toHaveLength(DIAGNOSTIC_LIMIT);
    const note = r.diagnostics.at(-1)!;
    expect(note.code).toBe("harp.diagnostic_limit");
    expect(note.severity).toBe("info");
    expect(counted(note.message)).toEqual({ more: 60_000 - DIAGNOSTIC_LIMIT, errors: 60_000 - DIAGNOSTIC_LIMIT });
  });

  it("control: exactly 200 unknown members are all shown, with no closing note", async () => {
    const r = await harp(manifest(DIAGNOSTIC_LIMIT));
    expect(r.diagnostics).toHaveLength(DIAGNOSTIC_LIMIT);
    expect(r.diagnostics.map((d) => d.code)).not.toContain("harp.diagnostic_limit");
  });
});

describe("HCP: many findings in one pack", () => {
  const pack = (verbs: number) => {
    const v: Record<string, unknown> = {};
    for (let i = 0; i < verbs; i++) v[`Verb${i}`] = { summary: "x", argv: ["a"] };
    const surface = JSON.stringify({
      id: "acme.tickets",
      kind: "cli",
      plane: "runtime",
      binding: { mode: "local" },
      wrap: { bin: "./bin/tickets" },
      verbs: v,
    });
    return MemoryFs.from({
      "/p/HARNESS.md": "# Tickets\n",
      "/p/surface.json": surface,
      "/p/policy.json": JSON.stringify({ surface_id: "acme.tickets" }),
      "/p/bin/tickets": "#!/bin/sh\n",
    });
  };

  it("20,000 upper-case verb keys give a capped answer that counts every finding", async () => {
    const r = await checkHcp(pack(20_000), "/p");
    expect(r.valid).toBe(false);
    expect(r.diagnostics).toHaveLength(DIAGNOSTIC_LIMIT + 1);
    const note = r.diagnostics.at(-1)!;
    expect(note.code).toBe("hcp.diagnostic_limit");
    const { more, errors } = counted(note.message);
    // At least one finding (the upper-case key) per verb, shown or counted.
    expect(DIAGNOSTIC_LIMIT + more).toBeGreaterThanOrEqual(20_000);
    expect(errors).toBeGreaterThan(0);
  });

  it("control: three bad verb keys are all shown, with no closing note", async () => {
    const r = await checkHcp(pack(3), "/p");
    expect(r.diagnostics.filter((d) => d.code === "hcp.verb.key_not_lowercase")).toHaveLength(3);
    expect(r.diagnostics.map((d) => d.code)).not.toContain("hcp.diagnostic_limit");
  });
});
