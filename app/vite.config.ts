import { sveltekit } from "@sveltejs/kit/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [sveltekit()],
  server: { host: "127.0.0.1", port: 5173 },
  preview: { host: "127.0.0.1", port: 5173 },
  build: {
    // Rolldown's plugin-timing report is informational (it lists SvelteKit's own plugins on a
    // slow machine); keep the build output to what needs attention.
    rolldownOptions: { checks: { pluginTimings: false } },
  },
});
