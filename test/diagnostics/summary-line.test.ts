/**
 * The human summary line counts what was found, not only what is printed: when a frontend's cap
 * counted findings without building them, the human form's own limit left some out, or `--quiet`
 * filtered warnings, it says the total found and how many are shown; when nothing is hidden it is
 * the line it always was. Each closing note is made by its real frontend.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkA3s } from "../../src/a3s/index.js";
import { check, checkSource } from "../../src/check/check.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { renderHuman } from "../../src/diagnostics/render.js";
import type { CheckResult } from "../../src/diagnostics/result.js";
import { HUMAN_DIAGNOSTIC_LIMIT } from "../../src/diagnostics/summary.js";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { checkHarp } from "../../src/harp/index.js";
import { checkHcp } from "../../src/hcp/index.js";
import { yaoc } from "../support/cli.js";
import { harpJson } from "../support/harp-manifest.js";

const summaryOf = (results: readonly CheckResult[]) =>
  renderHuman(results, { color: false }).trimEnd().split("\n").at(-1);

const harp = async (unknownMembers: number) => {
  const members: Record<string, unknown> = {};
  for (let i = 0; i < unknownMembers; i++) members[`f${i}`] = 1;
  return checkHarp(MemoryFs.from({ "/p/harp.json": harpJson(members), "/p/server.mjs": "" }), "/p", {
    digest: false,
  });
};

describe("the summary line over capped results", () => {
  it("HARP: 5,000 unknown members, 200 built: the line says 5000 found and 200 shown", async () => {
    const r = await harp(5000);
    expect(r.diagnostics.at(-1)?.code).toBe("harp.diagnostic_limit");
    expect(summaryOf([r])).toBe(
      "1 package checked: 0 valid, 1 invalid; 5000 errors, 0 warnings found; 200 errors, 0 warnings shown",
    );
  });

  it("near miss: 200 unknown members are all shown, and the line is the plain one", async () => {
    const r = await harp(200);
    expect(r.diagnostics.map((d) => d.code)).not.toContain("harp.diagnostic_limit");
    expect(summaryOf([r])).toBe("1 package checked: 0 valid, 1 invalid; 200 errors, 0 warnings");
  });

  it("HCP: 300 upper-case verb keys: every finding is counted in the total", async () => {
    const verbs: Record<string, unknown> = {};
    for (let i = 0; i < 300; i++) verbs[`Verb${i}`] = { summary: "x", argv: ["a"] };
    const surface = { id: "acme.tickets", kind: "cli", plane: "runtime", binding: { mode: "local" } };
    const fs = MemoryFs.from({
      "/p/HARNESS.md": "# Tickets\n",
      "/p/surface.json": JSON.stringify({ ...surface, wrap: { bin: "./bin/tickets" }, verbs }),
      "/p/policy.json": JSON.stringify({ surface_id: "acme.tickets" }),
      "/p/bin/tickets": "#!/bin/sh\n",
    });
    const r = await checkHcp(fs, "/p");
    const note = r.diagnostics.at(-1)!;
    expect(note.code).toBe("hcp.diagnostic_limit");
    const [, more, moreErrors] = /^(\d+) more diagnostics? not shown \((\d+) error/.exec(note.message)!;
    const built = r.diagnostics.filter((d) => d.severity === "error").length;
    const builtWarnings = r.diagnostics.filter((d) => d.severity === "warning").length;
    const errors = built + Number(moreErrors);
    const warnings = builtWarnings + Number(more) - Number(moreErrors);
    expect(errors).toBeGreaterThanOrEqual(300);
    expect(summaryOf([r])).toBe(
      `1 package checked: 0 valid, 1 invalid; ${errors} errors, ${warnings} warning${warnings === 1 ? "" : "s"} found; ${built} errors, ${builtWarnings} warning${builtWarnings === 1 ? "" : "s"} shown`,
    );
  });

  it("A3S: 1,000 distinct unknown attributes: the total includes the counted ones", async () => {
    const body = Array.from({ length: 1000 }, (_, i) => `x${i}=1\n`).join("");
    const acl = `extension "acme/x" {\n  schema_version = 3\n  version = "1.0.0"\n${body}}\n`;
    const r = await checkA3s(MemoryFs.from({ "/p/a3s-use-extension.acl": acl, "/p/README.md": "# x\n" }), "/p");
    expect(r.diagnostics.at(-1)?.code).toBe("a3s.diagnostic_limit");
    const line = summaryOf([r])!;
    const m = /; (\d+) errors, (\d+) warnings? found; (\d+) errors, (\d+) warnings? shown$/.exec(line);
    expect(m, line).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThanOrEqual(1000);
    expect(Number(m![3])).toBeLessThanOrEqual(200);
  });

  it("HNS: 300 unknown manifest fields, 200 warnings built: 300 found, 200 shown", async () => {
    const text = `(manifest (id t) (version "1") (title "T")${" (x 1)".repeat(300)})\n(contract (purpose "x"))\n(eval 1)\n`;
    const r = await checkSource("p.hns", text);
    expect(r.diagnostics.map((d) => d.code)).toContain("hns.warning_limit");
    expect(summaryOf([r])).toBe(
      "1 package checked: 1 valid, 0 invalid; 0 errors, 300 warnings found; 0 errors, 200 warnings shown",
    );
  });

  it("HNS: an analysis stopped at its cap says the errors found are a lower bound", async () => {
    const header =
      '(manifest (id demo) (version "1") (title "Demo") (capabilities (tools read)))\n(contract (purpose "p"))\n';
    const fns = Array.from({ length: 110 }, (_, i) => `(fn f${i} (params (a A${i}) (b B${i})) (returns Int) (body 1))`);
    const r = await check(
      MemoryFs.from({ "/p.hns": `${header}${fns.join("\n")}\n(eval (requires (tools read)) 1)` }),
      "/p.hns",
    );
    expect(r.diagnostics.at(-1)?.code).toBe("hns.error_limit");
    expect(summaryOf([r])).toBe(
      "1 package checked: 0 valid, 1 invalid; at least 200 errors, 0 warnings found (the analysis stopped at its limit); 200 errors, 0 warnings shown",
    );
  });

  it(`the human form's own limit (${HUMAN_DIAGNOSTIC_LIMIT} per package) is counted as not shown`, () => {
    const ds: Diagnostic[] = Array.from({ length: HUMAN_DIAGNOSTIC_LIMIT + 5 }, (_, i) => ({
      code: "yao.type_mismatch",
      severity: i % 2 === 0 ? "error" : "warning",
      message: `problem ${i}`,
    }));
    const r: CheckResult = { path: "p", kind: "hns", valid: false, identity: null, diagnostics: ds };
    expect(summaryOf([r])).toBe(
      `1 package checked: 0 valid, 1 invalid; 503 errors, 502 warnings found; ${HUMAN_DIAGNOSTIC_LIMIT / 2} errors, ${HUMAN_DIAGNOSTIC_LIMIT / 2} warnings shown`,
    );
    expect(summaryOf([{ ...r, diagnostics: ds.slice(0, HUMAN_DIAGNOSTIC_LIMIT) }])).toBe(
      "1 package checked: 0 valid, 1 invalid; 500 errors, 500 warnings",
    );
  });
});

describe("yaoc check --quiet", () => {
  const dir = mkdtempSync(join(tmpdir(), "yaoc-summary-line-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // One warning (an unknown manifest field), no error.
  writeFileSync(
    join(dir, "warn.hns"),
    '(manifest (id t) (version "1") (title "T") (x 1))\n(contract (purpose "x"))\n(eval 1)\n',
  );

  it("counts the warnings it does not print, and says none is shown", () => {
    const r = yaoc(["check", "--quiet", "warn.hns"], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.out).not.toContain("warning[");
    expect(r.out.trimEnd().split("\n").at(-1)).toBe(
      "1 package checked: 1 valid, 0 invalid; 0 errors, 1 warning found; 0 errors, 0 warnings shown",
    );
  });

  it("near miss: without --quiet the warning is printed and the line is the plain one", () => {
    const r = yaoc(["check", "warn.hns"], { cwd: dir });
    expect(r.out).toContain("warning[hns.unknown_field]");
    expect(r.out.trimEnd().split("\n").at(-1)).toBe("1 package checked: 1 valid, 0 invalid; 0 errors, 1 warning");
  });
});
