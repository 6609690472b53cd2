/**
 * A real editor client: Neovim's built-in LSP client, headless, drives `yaoc lsp` through
 * test/lsp/neovim/drive.lua — open a package, wait for its diagnostics, hover, apply the quick fix,
 * rename, format — and the buffer text after each step is asserted here. Skipped with the reason
 * when `nvim` is missing (CI installs it and requires it).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/shared.js";
import { NEOVIM, NEOVIM_SKIP_NOTE, SKIP_WITHOUT_NEOVIM } from "../support/system-tools.js";

if (SKIP_WITHOUT_NEOVIM) process.stderr.write(`test/lsp/neovim.test.ts: skipped: ${NEOVIM_SKIP_NOTE}\n`);

const SRC = `(manifest (id demo) (version "1") (title "Demo") (capabilities (tools read)))
(contract (purpose "demo"))
(fn load
  (visibility exported)
  (description "Read one file")
  (params (path String))
  (returns Json)
  (effects (tool read))
  (body (call read (path path))))
(eval
  (requires (tools read))
  (seq (bind doc (load (path "README.md")))   (list dox)))
`;

const dir = mkdtempSync(join(tmpdir(), "yaoc-nvim-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  steps: { step: string; value: any }[];
  error: string | null;
}

function drive(pkg: string): Promise<Run> {
  const out = join(dir, "out.json");
  const child = spawn("nvim", ["--headless", "--clean", "-u", join(REPO_ROOT, "test/lsp/neovim/drive.lua")], {
    cwd: dir,
    env: {
      ...process.env,
      YAOC_NVIM_PKG: pkg,
      YAOC_NVIM_OUT: out,
      YAOC_NVIM_NODE: process.execPath,
      YAOC_NVIM_BIN: join(REPO_ROOT, "bin/yaoc.js"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.on("error", (e) => reject(new Error(`nvim could not start: ${e.message}; ${NEOVIM_SKIP_NOTE}`)));
    child.on("exit", (code) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(readFileSync(out, "utf8")) as Run);
      } catch {
        reject(new Error(`nvim exited ${code} without a result: ${stderr}`));
      }
    });
  });
}

describe.skipIf(SKIP_WITHOUT_NEOVIM)(`Neovim's LSP client (${NEOVIM ?? "skipped: nvim missing"})`, () => {
  it("opens a package, sees its diagnostic, hovers, applies the quick fix, renames and formats", async () => {
    const pkg = join(dir, "demo.hns");
    writeFileSync(pkg, SRC);
    const run = await drive(pkg);
    expect(run.error).toBeNull();
    const step = (name: string): any => run.steps.find((s) => s.step === name)?.value;
    expect(step("diagnostics")).toEqual({ count: 1, code: "yao.unknown_name", line: 11, col: 52 });
    expect(step("hover")).toContain("(fn load");
    expect(step("hover")).toContain("Read one file");
    expect(step("quickfix title")).toBe("Change 'dox' to 'doc'");
    const fixed = SRC.replace("(list dox)", "(list doc)").trimEnd();
    expect(step("after quick fix")).toBe(fixed);
    const renamed = fixed.replace("(fn load", "(fn fetch").replace("(bind doc (load", "(bind doc (fetch");
    expect(step("after rename")).toBe(renamed);
    // The reference formatter joins the entry, which fits on one line.
    expect(step("after format")).toBe(
      renamed.replace(
        '(eval\n  (requires (tools read))\n  (seq (bind doc (fetch (path "README.md")))   (list doc)))',
        '(eval (requires (tools read)) (seq (bind doc (fetch (path "README.md"))) (list doc)))',
      ),
    );
  }, 120_000);
});
