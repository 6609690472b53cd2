/**
 * Issue 34, item 2: every message, help, label and note people read is in Yao notation — no Rust
 * `Debug` forms (`Named("Ticket")`, `EffectSet({…})`, `List(Int)`), no token names (`UnclosedList at
 * 3:1`), no absolute paths. The reference's exact wording stays in `referenceMessage`, which this
 * test also reads, so the scan is known to see the forms it forbids.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { check } from "../../src/check/check.js";
import { walkPackages } from "../../src/cli/check-inputs.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { NodeFs } from "../../src/fs/node-fs.js";
import { toLspDiagnostic } from "../../src/lsp/node-server.js";
import { TextLines } from "../../src/lsp/yao-document.js";
import { readOne } from "../../src/syntax/reader.js";
import { analyzeProgram, semaTestProfile } from "../../src/yao/index.js";
import { problems } from "../support/notation.js";
import { REPO_ROOT } from "../support/repo.js";

/** Every piece of text one diagnostic shows a person. */
function shown(d: Diagnostic): string[] {
  return [d.message, d.hint, d.label, ...(d.related ?? []).map((r) => r.message)].filter(
    (t): t is string => t !== undefined,
  );
}

function standalonePrograms(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory() && !e.name.endsWith(".hns")) out.push(...standalonePrograms(p));
    else if (e.isFile() && e.name.endsWith(".yao")) out.push(p);
  }
  return out;
}

describe("diagnostics are in Yao notation", () => {
  it("the patterns catch what they are meant to (and leave Yao notation alone)", () => {
    for (const bad of [
      'type Named("Ticket") has no readable field',
      "fn 'f' effects EffectSet({Tool(\"x\")}) exceed",
      "expected List(Int), found Json",
      "x.hns is not valid typed Yao: UnterminatedString at 17:16: unterminated string literal",
      "/tmp/pkg.hns is not valid typed Yao",
      "map collection must be List<T>",
    ])
      expect(problems(bad), bad).not.toEqual([]);
    for (const good of [
      "type Ticket has no readable field 'titel'",
      "fn 'f' effects (effects (tool x)) exceed declared upper bound (effects)",
      "expected (List Int), found Json",
      "x.hns is not valid typed Yao: unterminated string literal",
      "pkg.hns/programs/main.yao is not valid typed Yao",
      "types (Option Int) and String have no common type",
    ])
      expect(problems(good), good).toEqual([]);
  });

  it("every diagnostic of every fixture package and program", async () => {
    const fs = new NodeFs();
    const fixtures = join(REPO_ROOT, "fixtures");
    const packages = await walkPackages(fs, fixtures);
    expect(packages.length).toBeGreaterThan(200);
    const seen: Diagnostic[] = [];
    for (const path of packages) seen.push(...(await check(fs, relative(REPO_ROOT, path) || path)).diagnostics);
    const profile = semaTestProfile();
    for (const file of standalonePrograms(join(fixtures, "yao"))) {
      if (!statSync(file).isFile()) continue;
      const read = readOne(readFileSync(file), { file: relative(REPO_ROOT, file) });
      seen.push(...(read.ok ? analyzeProgram(read.form, { profile }).diagnostics : [read.diagnostic]));
    }
    const found = seen.flatMap((d) => shown(d).flatMap((t) => problems(t).map((p) => `${d.code} ${p}: ${t}`)));
    expect(found).toEqual([]);
    expect(seen.length).toBeGreaterThan(250);
    // The reference's own wording is still there, Debug forms and all, for the differential tests.
    expect(seen.filter((d) => problems(d.referenceMessage).length > 0).length).toBeGreaterThan(10);
  });

  it("every fixture package's diagnostics as the language server sends them, checked by absolute path", async () => {
    // The language server checks files by their absolute path; what it sends (the message and every
    // relatedInformation note, help included) must not spell that path out.
    const fs = new NodeFs();
    const packages = await walkPackages(fs, join(REPO_ROOT, "fixtures"));
    expect(packages.length).toBeGreaterThan(200);
    const sent: string[] = [];
    let absolute = 0;
    for (const path of packages) {
      expect(path.startsWith("/")).toBe(true);
      for (const d of (await check(fs, path)).diagnostics) {
        if (d.message.includes(path)) absolute++;
        const l = toLspDiagnostic(d, new TextLines(""));
        sent.push(l.message, ...(l.relatedInformation ?? []).map((r) => r.message));
      }
    }
    // The library's own messages do name the absolute path, so the scan is known to see one.
    expect(absolute).toBeGreaterThan(10);
    expect(sent.length).toBeGreaterThan(400);
    expect(sent.flatMap((t) => problems(t).map((p) => `${p}: ${t}`))).toEqual([]);
  });
});
