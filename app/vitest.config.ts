import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";

const require = createRequire(import.meta.url);

export default defineConfig({
  // One copy of graphql for the SDK and its dependencies (as in the SDK's own tests).
  resolve: { alias: [{ find: /^graphql$/, replacement: require.resolve("graphql") }] },
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    // Every file starts its own Herald and dashboard; on two cores they run one after another.
    fileParallelism: false,
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 240_000,
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
  },
});
