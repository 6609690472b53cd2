/**
 * docs/language.md (issue 34, item 1): every complete example is checked — ```yao blocks are
 * programs the analyzer accepts, ```hns blocks are packages `check` accepts, and ```yao fails CODE
 * blocks fail with that code — and the reference part is the language table's text verbatim, so the
 * guide, `yaoc explain` and the language server's hover say the same.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkSource } from "../../src/check/check.js";
import { FORMS, renderFormsMarkdown, TYPES } from "../../src/yao/forms.js";
import { REPO_ROOT } from "../support/repo.js";
import { analyzeExample } from "../support/yao-example.js";

const GUIDE = readFileSync(join(REPO_ROOT, "docs/language.md"), "utf8");

interface Block {
  readonly info: string;
  readonly text: string;
  readonly line: number;
}

function blocks(): Block[] {
  const out: Block[] = [];
  for (const m of GUIDE.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)) {
    out.push({ info: m[1]!.trim(), text: m[2]!, line: GUIDE.slice(0, m.index).split("\n").length });
  }
  return out;
}

describe("docs/language.md", () => {
  it("embeds the language table's reference text verbatim", () => {
    const m = /<!-- BEGIN forms[^\n]*-->\n([\s\S]*?)\n<!-- END forms -->/.exec(GUIDE);
    expect(m, "markers missing").not.toBeNull();
    expect(m![1]).toBe(renderFormsMarkdown());
    for (const f of FORMS) expect(GUIDE).toContain(`#### ${f.name}\n`);
    for (const t of TYPES) expect(GUIDE).toContain(`#### Type ${t.name}\n`);
  });

  const programs = blocks().filter((b) => b.info === "yao");
  it.each(programs.map((b) => [b.line, b.text]))("the program at line %i is accepted", (_line, text) => {
    expect(analyzeExample(text).map((d) => `${d.code}: ${d.message}`)).toEqual([]);
  });

  const mistakes = blocks().filter((b) => b.info.startsWith("yao fails "));
  it.each(mistakes.map((b) => [b.line, b.info.slice("yao fails ".length), b.text]))(
    "the mistake at line %i fails with %s",
    (_line, code, text) => {
      expect(analyzeExample(text).map((d) => d.code)).toEqual([code]);
    },
  );

  it("the packages are accepted by check", async () => {
    const packages = blocks().filter((b) => b.info === "hns");
    expect(packages.length).toBeGreaterThan(0);
    for (const p of packages) {
      const r = await checkSource("guide.hns", p.text);
      expect(r.diagnostics, `line ${p.line}`).toEqual([]);
      expect(r.valid).toBe(true);
    }
  });

  it("has examples of every kind, and every fenced block is one of them or a signature", () => {
    expect(programs.length).toBeGreaterThan(FORMS.length + TYPES.length);
    expect(mistakes.length).toBeGreaterThanOrEqual(6);
    for (const b of blocks())
      expect(["yao", "hns", ""].includes(b.info) || b.info.startsWith("yao fails "), b.info).toBe(true);
  });
});
