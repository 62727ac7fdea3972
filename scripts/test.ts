// The README's test command: runs every workspace's tests through turbo, then prints the plain
// total over all suites as the last line ("N passed, N failed, N skipped"), which CI reads.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const workspaces = ["server", "sdk", "app"];
const reports = workspaces.map((w) => join(root, w, "test-results", "vitest.json"));
for (const report of reports) rmSync(report, { force: true });

const turbo = spawnSync("npx", ["turbo", "run", "test", "--concurrency=1", "--continue", "--output-logs=full", "--log-order=stream", ...process.argv.slice(2)], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", TURBO_NO_UPDATE_NOTIFIER: "1", FORCE_COLOR: process.env.FORCE_COLOR ?? "0" },
});

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: { status: string; assertionResults: unknown[] }[];
}

let passed = 0;
let failed = 0;
let skipped = 0;
for (const report of reports) {
  if (!existsSync(report)) continue;
  const r = JSON.parse(readFileSync(report, "utf8")) as VitestReport;
  passed += r.numPassedTests;
  skipped += r.numPendingTests + r.numTodoTests;
  // A test file that fails to load has no test results but must still count as a failure.
  failed += r.numFailedTests + r.testResults.filter((f) => f.status === "failed" && f.assertionResults.length === 0).length;
}
if (turbo.status !== 0 && failed === 0) failed = 1; // a runner crash is a failure too
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(turbo.status === 0 && failed === 0 ? 0 : 1);
