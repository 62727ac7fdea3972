// The compiled build the `herald` launcher runs (server/dist). Suites, benchmarks and the start
// script ask for it before they start a herald: the server's build script compiles only when a
// source is newer than the last build, so a fresh build costs one short node start, once per test run or process.
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const buildScript = join(import.meta.dirname, "..", "..", "server", "scripts", "build.mjs");
// Set once checked, and inherited: a suite's global setup checks for all its test processes.
const CHECKED = "HERALD_BUILD_CHECKED";

/** Builds server/dist when it is missing or older than its sources; throws (with tsc's errors) when the build fails. */
export function ensureHeraldBuilt(): void {
  if (process.env[CHECKED] === "1") return;
  const result = spawnSync(process.execPath, [buildScript], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (result.status !== 0) throw new Error(`herald could not be built (npm run build --workspace server):\n${result.stdout}${result.stderr}`);
  process.env[CHECKED] = "1";
}
