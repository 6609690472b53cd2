import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // One line when the reference material is absent: the reference-conformance tests are then skipped.
    globalSetup: ["test/reference/global-setup.ts"],
    testTimeout: 30_000,
    pool: "forks",
  },
});
