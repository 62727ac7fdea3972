import { createRequire } from "node:module";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { defineConfig } from "vitest/config";

const require = createRequire(import.meta.url);

export default defineConfig({
  // @herald/sdk/svelte exports the inbox component: its .svelte files are compiled for the tests that import it.
  plugins: [svelte({ configFile: false })],
  // One copy of graphql for the SDK and its dependencies (see server/vitest.config.ts).
  resolve: { alias: [{ find: /^graphql$/, replacement: require.resolve("graphql") }] },
  test: {
    include: ["test/**/*.test.ts"],
    // Suites start the compiled herald: build it first when it is missing or stale.
    globalSetup: ["../testkit/src/global-setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
  },
});
