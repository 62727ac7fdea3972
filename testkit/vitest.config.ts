import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Suites start the compiled herald: build it first when it is missing or stale.
    globalSetup: ["src/global-setup.ts"],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    pool: "forks",
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
  },
});
