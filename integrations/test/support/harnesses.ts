// The agent harnesses live in an install of their own (integrations/harnesses), out of Herald's
// default install: a person trying Herald should not download four coding agents. Their tests
// skip, printing the command that installs them, when that install is absent; in CI (CI=true)
// the absence is a failure, as for PostgreSQL.
import { existsSync } from "node:fs";
import { join } from "node:path";

export const harnessesRoot = join(import.meta.dirname, "..", "..", "harnesses");
// `npm install` installs exactly what the lock holds; `npm ci` refuses this lock where the registry
// lacks opencode's binaries for other platforms (it counts them as missing from the lock).
export const harnessesInstallCommand = "npm install --prefix integrations/harnesses --no-audit --no-fund";

/** A package of the harness install, by its npm name. */
export function harnessPackage(name: string): string {
  return join(harnessesRoot, "node_modules", name);
}

/** An executable the harness install links, by its bin name. */
export function harnessBin(name: string): string {
  return join(harnessesRoot, "node_modules", ".bin", name);
}

/**
 * Whether every named package of the harness install is present. When one is not: throws in CI,
 * otherwise says so once with the install command and returns false (for `describe.skipIf`).
 */
export function harnessesInstalled(...packages: string[]): boolean {
  const missing = packages.filter((name) => !existsSync(join(harnessPackage(name), "package.json")));
  if (missing.length === 0) return true;
  const message = `${missing.join(", ")} not installed (the agent harnesses have an install of their own): ${harnessesInstallCommand}`;
  if (process.env.CI === "true") throw new Error(`The agent harnesses are required in CI: ${message}`);
  console.warn(`[herald tests] skipping: ${message}`);
  return false;
}
