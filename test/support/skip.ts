/**
 * Skipping a test out loud (issue 33 item 6): a test that cannot run here says why in the report
 * instead of returning early and passing. Under YAOC_REQUIRE_SYSTEM_TOOLS=1 (set by .ci/run, which
 * installs every tool) a missing tool fails the test instead.
 */
import type { TestContext } from "vitest";

const REQUIRE_SYSTEM_TOOLS = process.env["YAOC_REQUIRE_SYSTEM_TOOLS"] === "1";

/** Skip the running test with `reason` when `available` is false (fail instead when CI requires the tools). */
export function skipUnless(ctx: TestContext, available: boolean, reason: string): void {
  if (available) return;
  if (REQUIRE_SYSTEM_TOOLS) throw new Error(`${reason}, and YAOC_REQUIRE_SYSTEM_TOOLS=1 requires it`);
  ctx.skip(reason);
}
