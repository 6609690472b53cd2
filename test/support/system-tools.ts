/**
 * System packages some tests need (bubblewrap for the HARP sandbox, Chromium for the browser test,
 * Neovim for the editor-client test).
 * A fresh clone on a machine without them still passes `npm test`: those tests are skipped and the
 * reason is printed once, with the install command. `.ci/run` installs both and sets
 * YAOC_REQUIRE_SYSTEM_TOOLS=1, so in CI a missing tool fails the tests instead of skipping them.
 */
import { spawnSync } from "node:child_process";
import { probeSandbox } from "../../src/harp/host/sandbox.js";

export const REQUIRE_SYSTEM_TOOLS = process.env["YAOC_REQUIRE_SYSTEM_TOOLS"] === "1";

// Only whether apps can run at all: the network "allow" launch (a second sandbox plus slirp4netns) is measured by the tests that need it.
const sandbox = probeSandbox({ networkAllow: false });

/** Why HARP apps cannot run on this machine (the host's own words), or null when they can. */
export const NO_SANDBOX: string | null = sandbox.mode === null ? sandbox.notes.join("; ") : null;

/** Skip tests that start HARP apps: no sandbox here and CI did not ask for one. */
export const SKIP_WITHOUT_SANDBOX = NO_SANDBOX !== null && !REQUIRE_SYSTEM_TOOLS;

const announced = new Set<string>();

/** Print, once per test file, why the app-starting tests of `file` are skipped. */
export function announceSandboxSkip(file: string): void {
  if (!SKIP_WITHOUT_SANDBOX || announced.has(file)) return;
  announced.add(file);
  process.stderr.write(
    `${file}: tests that start HARP apps are skipped: this machine cannot sandbox them (${NO_SANDBOX})\n`,
  );
}

/** The note a test that needed the sandbox is skipped with. */
export const SANDBOX_SKIP_NOTE = "needs the HARP sandbox (bubblewrap); see README";

/** Neovim (Debian `neovim`), whose built-in LSP client drives `yaoc lsp` in test/lsp/neovim.test.ts. */
function neovimVersion(): string | null {
  const r = spawnSync("nvim", ["--version"], { encoding: "utf8", timeout: 10_000 });
  return r.status === 0 ? (r.stdout.split("\n")[0] ?? "nvim") : null;
}
export const NEOVIM: string | null = neovimVersion();
/** Skip the Neovim-driven test: no `nvim` here and CI did not ask for one. */
export const SKIP_WITHOUT_NEOVIM = NEOVIM === null && !REQUIRE_SYSTEM_TOOLS;
export const NEOVIM_SKIP_NOTE =
  "needs Neovim (`nvim` on PATH; Debian: apt-get install neovim) to drive yaoc lsp through a real editor client";
