// Builds the two wrapper pages (a React and a Svelte application using @herald/sdk's Inbox) with
// Vite, as an application would, into `outDir/react` and `outDir/svelte`.
import { join } from "node:path";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { build } from "vite";

export async function buildWrappers(outDir: string): Promise<void> {
  for (const name of ["react", "svelte"] as const) {
    const root = join(import.meta.dirname, name);
    await build({
      root,
      base: "./",
      configFile: false,
      logLevel: "warn",
      plugins: name === "svelte" ? [svelte({ configFile: false })] : [],
      define: { "process.env.NODE_ENV": JSON.stringify("production") },
      build: { outDir: join(outDir, name), emptyOutDir: true, minify: false, rolldownOptions: { checks: { pluginTimings: false } } },
    });
  }
}
