import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Suites start the compiled herald: build it first when it is missing or stale.
    globalSetup: ["../testkit/src/global-setup.ts"],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Harness runs are heavy (each starts an agent process and a Herald server): one file at a time.
    fileParallelism: false,
    passWithNoTests: true,
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
  },
});
