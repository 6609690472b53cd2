/**
 * The CLI bundle runs string-width's module body on its first call (scripts/bundle-cli.mjs, so a
 * start does not pay for its tables): the executable measures wide text exactly as the library
 * does in this process, and as wide as it is (CJK two columns, a family emoji one picture of two).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { runCheck } from "../../src/cli/check-command.js";
import { NodeFs } from "../../src/fs/node-fs.js";
import { captureOutput } from "../support/capture.js";
import { yaoc } from "../support/cli.js";
import { REPO_ROOT } from "../support/shared.js";

const tmp = mkdtempSync(join(tmpdir(), "yaoc-bundle-width-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

it("measures CJK and emoji in a code frame and in JSON as the library does", async () => {
  const pkg = join(tmp, "wide.hns");
  const line = '(define 家族 "👨‍👩‍👧 x" (';
  writeFileSync(pkg, `${readFileSync(join(REPO_ROOT, "examples/review.hns"), "utf8").trimEnd()}\n${line}\n`);
  for (const format of ["human", "json", "sarif"] as const) {
    const cli = yaoc(["check", "--format", format, pkg]);
    const here = await captureOutput(() => runCheck(new NodeFs(), [pkg], { format, analyze: true }));
    expect(cli.out, format).toBe(here.out);
    expect(cli.code).toBe(1);
  }
  // 8 + 4 (two CJK) + 1 + 1 + 2 (the family) + 2 + 1 + 2 columns under the line.
  expect(yaoc(["check", pkg]).out).toContain(`| ${"^".repeat(21)} this list is never closed`);
});
