import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { updateGoldenRequested } from "./test/support/update-golden.js";

// The one golden-update switch also updates vitest snapshots; it throws when CI is set.
const updateGolden = updateGoldenRequested(process.env);

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // One line when the reference material is absent: the reference-conformance tests are then skipped.
    globalSetup: ["test/reference/global-setup.ts"],
    // A hang guard, not a speed bound: a loaded 2-core machine ran eight CLI processes past 30 s.
    testTimeout: 120_000,
    pool: "forks",
    // Vitest's default outside watch mode is one worker fewer than the cores: on the 2-core CI
    // machine that ran every test file one after another (608–771 s). Most files wait on child
    // processes, so one fork per core keeps both cores busy.
    maxWorkers: availableParallelism(),
    ...(updateGolden ? { update: true } : {}),
  },
});
