/**
 * The first line of every human diagnostic, `FILE:LINE:COL: SEVERITY[CODE]: MESSAGE`, against the
 * editor problem matchers docs/output.md names: the GNU error format (Emacs compilation-mode, Vim's
 * default errorformat `%f:%l:%c:%m`) and the VS Code problem matcher docs/output.md gives. VS Code's
 * built-in `$gcc` does not match (it wants `error:` right after the column), as the docs say.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { yaoc } from "../support/cli.js";
import { REPO_ROOT } from "../support/shared.js";

/** The pattern of the VS Code problem matcher in docs/output.md, read from the doc itself. */
function documentedMatcher(): { regexp: RegExp; groups: Record<string, number> } {
  const doc = readFileSync(join(REPO_ROOT, "docs/output.md"), "utf8");
  const block = /```json problem-matcher\n([\s\S]*?)```/.exec(doc);
  expect(block, "docs/output.md has a ```json problem-matcher block").not.toBeNull();
  const matcher = JSON.parse(block![1]!) as { pattern: { regexp: string } & Record<string, number | string> };
  const { regexp, ...groups } = matcher.pattern;
  return { regexp: new RegExp(regexp), groups: groups as Record<string, number> };
}

/** GNU standard error format: `sourcefile:lineno:column: message` (the Emacs `gnu` rule, simplified). */
const GNU = /^([^:\s][^:]*):(\d+):(\d+): (.*)$/;
/** VS Code's built-in `$gcc` pattern. */
const VSCODE_GCC = /^(.*?):(\d+):(\d*):?\s+(?:fatal\s+)?(warning|error):\s+(.*)$/;

describe("editor problem matchers", () => {
  const r = yaoc([
    "check",
    "fixtures/hns/failure/yao.unclosed_list/single.hns",
    "fixtures/hns/success/warn-unknown-field.hns",
    "fixtures/harp/invalid-reserved-kind",
  ]);
  const firstLines = r.out.split("\n").filter((l) => /\b(error|warning)\[/.test(l));

  it("has diagnostics to match", () => {
    expect(firstLines.length).toBeGreaterThanOrEqual(3);
  });

  it("GNU format (Emacs compilation-mode, Vim %f:%l:%c:%m) reads file, line and column", () => {
    for (const line of firstLines) {
      const m = GNU.exec(line);
      expect(m, line).not.toBeNull();
      expect(line.startsWith(`${m![1]}:${m![2]}:${m![3]}: `)).toBe(true);
      expect(m![4]).toMatch(/^(error|warning)\[[a-z0-9_.]+\]: /);
    }
  });

  it("the documented VS Code problem matcher reads file, position, severity, code and message", () => {
    const { regexp, groups } = documentedMatcher();
    const m = regexp.exec(firstLines[0]!);
    expect(m).not.toBeNull();
    expect(m![groups["file"]!]).toBe("fixtures/hns/failure/yao.unclosed_list/single.hns");
    expect(m![groups["line"]!]).toBe("3");
    expect(m![groups["column"]!]).toBe("1");
    expect(m![groups["severity"]!]).toBe("error");
    expect(m![groups["code"]!]).toBe("yao.unclosed_list");
    expect(m![groups["message"]!]).toContain("unclosed list");
    for (const line of firstLines) expect(regexp.test(line), line).toBe(true);
  });

  it("VS Code's built-in $gcc does not match (the docs say to use the matcher above)", () => {
    for (const line of firstLines) expect(VSCODE_GCC.test(line), line).toBe(false);
  });
});
