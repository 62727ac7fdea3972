// The README's test command: runs every workspace's tests through turbo, then prints the plain
// total over all suites as the last line ("N passed, N failed, N skipped"), which CI reads.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ensureBetterSqlite3 } from "./better-sqlite3-build.ts";

const root = join(import.meta.dirname, "..");
const workspaces = ["server", "sdk", "app", "testkit", "integrations"];
const reports = workspaces.map((w) => join(root, w, "test-results", "vitest.json"));
for (const report of reports) rmSync(report, { force: true });
// The tests of Prisma-migrated stores run the Prisma CLI, whose SQLite adapter is better-sqlite3.
ensureBetterSqlite3();

const turbo = spawnSync(
  "npx",
  ["turbo", "run", "test", "--concurrency=1", "--continue", "--output-logs=full", "--log-order=stream", ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", TURBO_NO_UPDATE_NOTIFIER: "1", FORCE_COLOR: process.env.FORCE_COLOR ?? "0" },
  },
);

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { fullName: string; status: string; failureMessages?: string[] }[];
  }[];
}

// CI shows only the tail of a long log, so every failure is repeated just above the total line.
const failures: string[] = [];
const firstLine = (text: string | undefined) =>
  (text ?? "")
    .split("\n")
    .find((l) => l.trim() !== "")
    ?.trim()
    .slice(0, 300) ?? "";

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
  for (const file of r.testResults) {
    const where = file.name.startsWith(root) ? file.name.slice(root.length + 1) : file.name;
    if (file.status === "failed" && file.assertionResults.length === 0) failures.push(`FAILED ${where}: ${firstLine(file.message)}`);
    for (const test of file.assertionResults) {
      if (test.status === "failed") failures.push(`FAILED ${where} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    }
  }
}
for (const line of failures) console.log(line);
if (turbo.status !== 0 && failed === 0) failed = 1; // a runner crash is a failure too
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(turbo.status === 0 && failed === 0 ? 0 : 1);
