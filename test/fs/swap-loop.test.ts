/**
 * Real processes racing the CLI (issue 14): a child swaps a package directory with a symlink to a
 * private outside file while `hash`, `catalog install` and `harp install` run in a loop. No run may
 * print, store or install outside content. The long version is `npm run stress`.
 */
import { describe, expect, it } from "vitest";
import { swapLoop } from "../../scripts/swap-loop.js";

const RUNS = 15;

describe("swap loop: a directory swapped for an outside symlink while the CLI reads", () => {
  it.each([["hash" as const], ["catalog install" as const], ["harp install" as const]])(
    `%s: ${RUNS} runs, zero leaks`,
    async (command) => {
      const [report] = await swapLoop(RUNS, [command]);
      expect(report!.leaks).toEqual([]);
      expect(report!.runs).toBe(RUNS);
      // The race really ran: the swapper completed swaps during the runs.
      expect(report!.swaps).toBeGreaterThan(0);
    },
    300_000,
  );
});
