// Applies an installer's changes the way `herald hooks install` does (read, merge, write), so
// the harness tests can load an adapter the way a user who ran the install would.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { HarnessInstaller, InstallContext } from "@herald/server/hooks-install/installer";

export function applyInstall(installer: HarnessInstaller, context: Partial<InstallContext> & Pick<InstallContext, "home">): string[] {
  const full: InstallContext = { scope: installer.scopes[0]!, cwd: context.home, env: {}, command: "herald", force: false, approvals: false, ...context };
  const written: string[] = [];
  for (const change of installer.changes(full)) {
    const current = existsSync(change.path) ? readFileSync(change.path, "utf8") : null;
    const next = change.merge(current);
    if (next === current) continue;
    mkdirSync(dirname(change.path), { recursive: true });
    writeFileSync(change.path, next);
    written.push(change.path);
  }
  return written;
}
