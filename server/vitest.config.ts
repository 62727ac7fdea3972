import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql 16 ships CJS and ESM builds; Node loads the CJS one for the dependencies (Pothos,
    // Yoga), so the project's own imports must get that same copy, not Vite's pick of the ESM one.
    alias: [{ find: /^graphql$/, replacement: require.resolve("graphql") }],
  },
  test: {
    include: ["test/**/*.test.ts"],
    // Suites start the compiled herald: build it first when it is missing or stale.
    globalSetup: ["../testkit/src/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Each file gets its own SQLite file and PostgreSQL schema, so files may run in parallel.
    pool: "forks",
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
  },
});
