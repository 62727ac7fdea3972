// The SDK's browser builds (after tsc): dist/herald-inbox.js, <herald-inbox> with everything it
// needs in one ES module for a plain page (also dist/inbox-element.js, the package's
// @herald/sdk/inbox-element), and dist/svelte.js, the Svelte bindings compiled for bundlers that
// do not read the `svelte` condition (Svelte itself and the other dependencies stay imports).
// BUILD=svelte selects the second; the gzipped size of the first is printed by scripts/size.mjs.
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { defineConfig } from "vite";

const bindings = process.env.BUILD === "svelte";

export default defineConfig({
  plugins: [
    svelte({
      // discloseVersion: the host page gets no window.__svelte global from the element.
      compilerOptions: { css: "injected", discloseVersion: false },
      // Svelte keeps comments in the CSS it injects; the components' comments explain, they need not ship.
      preprocess: { style: ({ content }) => ({ code: content.replace(/\/\*[\s\S]*?\*\//g, "") }) },
      configFile: false,
    }),
  ],
  // graphql reads process.env.NODE_ENV (its development checks); a page has no process.
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  resolve: {
    alias: [
      // The UI imports the SDK by its name; bundled, that is this source.
      { find: /^@herald\/sdk$/, replacement: new URL("./src/index.ts", import.meta.url).pathname },
    ],
  },
  build: {
    outDir: "dist",
    emptyOutDir: false,
    sourcemap: true,
    // Rolldown's own minifier runs on the bundle (output.minify below), then terser with a second
    // compress pass on its output: 1.2 kB gzipped less for <herald-inbox>, whose size has a goal
    // (bench/history.md); terser alone on the unminified bundle did worse than either.
    minify: "terser",
    terserOptions: { module: true, compress: { passes: 2 }, format: { comments: false } },
    target: "es2022",
    lib: bindings
      ? { entry: "src/svelte.ts", formats: ["es"], fileName: () => "svelte.js" }
      : { entry: "src/inbox-element.ts", formats: ["es"], fileName: () => "herald-inbox.js" },
    rolldownOptions: {
      external: bindings ? (id) => !id.startsWith(".") && !id.startsWith("/") && !id.startsWith("\0") && !id.includes("?") : [],
      checks: { pluginTimings: false },
      // Library mode keeps whitespace for an ES module by default; this one is shipped as it is.
      output: { minify: true },
    },
  },
});
