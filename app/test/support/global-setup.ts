// Builds the dashboard (vite build with adapter-node into app/build) when the build is missing
// or older than its sources or the SDK it bundles, and the server the suites start (the test
// kit's check). Under turbo the build tasks ran just before.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ensureHeraldBuilt } from "@herald/testkit";

const app = join(import.meta.dirname, "..", "..");
const sdkDist = join(app, "..", "sdk", "dist");

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

export default function setup(): void {
  ensureHeraldBuilt();
  const built = join(app, "build", "handler.js");
  const sources = Math.max(
    newest(join(app, "src")),
    newest(join(app, "static")),
    newest(join(app, "svelte.config.js")),
    newest(join(app, "vite.config.ts")),
    newest(join(app, "package.json")),
    newest(sdkDist),
  );
  if (!existsSync(sdkDist)) throw new Error("The SDK is not built (sdk/dist is missing): run `npm run build -w sdk` or `npx turbo run build`.");
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return;
  console.log("Building the dashboard (app/build is missing or older than its sources)…");
  const result = spawnSync("npx", ["vite", "build"], { cwd: app, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
  if (result.status !== 0) throw new Error(`vite build failed with exit code ${result.status}`);
}
