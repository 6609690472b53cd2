/**
 * System packages some tests need (bubblewrap for the HARP sandbox, Chromium for the browser test).
 * A fresh clone on a machine without them still passes `npm test`: those tests are skipped and the
 * reason is printed once, with the install command. `.ci/run` installs both and sets
 * YAOC_REQUIRE_SYSTEM_TOOLS=1, so in CI a missing tool fails the tests instead of skipping them.
 */
import { probeSandbox } from "../../src/harp/host/sandbox.js";

export const REQUIRE_SYSTEM_TOOLS = process.env["YAOC_REQUIRE_SYSTEM_TOOLS"] === "1";

const sandbox = probeSandbox();

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
