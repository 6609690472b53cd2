/** docs/eval.md's Node embedding example runs against the built package and prints what the page says. */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/repo.js";
import { STATE_VERSION } from "../../src/eval/index.js";

const dir = mkdtempSync(join(tmpdir(), "yaoc-eval-doc-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SUBPATHS: Record<string, string> = {
  yaoc: "dist/src/index.js",
  "yaoc/yao": "dist/src/yao/index.js",
  "yaoc/eval": "dist/src/eval/index.js",
};

describe("docs/eval.md", () => {
  it("the embedding example persists its state in a JSON file and ends with the par value", () => {
    const page = readFileSync(join(REPO_ROOT, "docs/eval.md"), "utf8");
    const section = page.slice(page.indexOf("## Embedding in a Node runtime"));
    const code = /```js\n([\s\S]*?)```/.exec(section)![1]!;
    const rewritten = code.replace(/from "(yaoc(?:\/\w+)?)"/g, (_m, spec: string) => {
      const target = SUBPATHS[spec];
      if (target === undefined) throw new Error(`the example imports ${spec}, which this test does not map`);
      return `from ${JSON.stringify(pathToFileURL(join(REPO_ROOT, target)).href)}`;
    });
    writeFileSync(join(dir, "embed.mjs"), rewritten);
    const r = spawnSync(process.execPath, ["embed.mjs"], { cwd: dir, encoding: "utf8", timeout: 60_000 });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(
      'value {"$yao":{"fields":[{"name":"a","value":"contents of a.txt"},{"name":"b","value":"contents of b.txt"}],"kind":"structural_record"}}',
    );
    const state = JSON.parse(readFileSync(join(dir, "run-state.json"), "utf8")) as Record<string, unknown>;
    expect(state).toMatchObject({ format: "yaoc-eval-state", version: STATE_VERSION, pending: [] });
    expect(existsSync(join(dir, "run-state.json.tmp"))).toBe(false);
  });
});
