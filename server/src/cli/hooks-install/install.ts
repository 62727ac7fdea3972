// `herald hooks install <harness>`: merges Herald's hook into the harness's configuration. A
// second run changes nothing; a changed file is first copied to `<file>.herald-backup-<time>` (with
// `-2`, `-3`, ... when that name is taken: a backup is never overwritten, so two installs within
// one second keep the person's original), then replaced in one rename, so a crash leaves the old
// file or the new one, never half of one.
import { randomBytes } from "node:crypto";
import { constants, copyFile, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { installers } from "./harnesses.ts";
import { type HarnessInstaller, type InstallContext, InstallError, type InstallScope } from "./installer.ts";

export interface InstallOptions {
  scope?: string;
  command?: string;
  force?: boolean;
  print?: boolean;
  approvals?: boolean;
}

export interface InstallOutcome {
  path: string;
  status: "installed" | "unchanged";
  /** The copy of the previous file, when there was one to replace. */
  backup: string | null;
}

export function installerOf(harness: string): HarnessInstaller {
  const installer = installers.find((i) => i.harness === harness);
  if (!installer) throw new InstallError(`invalid harness: must be one of ${installers.map((i) => i.harness).join(", ")}`);
  return installer;
}

export function installContext(
  installer: HarnessInstaller,
  options: InstallOptions,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): InstallContext {
  const scope = (options.scope ?? installer.scopes[0]) as InstallScope;
  if (!installer.scopes.includes(scope)) throw new InstallError(`invalid scope: ${installer.harness} supports ${installer.scopes.join(", ")}`);
  const home = env.HOME?.trim();
  if (!home) throw new InstallError("invalid HOME: it is not set");
  const command = options.command?.trim() || "herald";
  if (options.approvals && !installer.approvals)
    throw new InstallError(`invalid --approvals: ${installer.harness} has no permission hook; give the agent herald mcp's ask tool instead`);
  return { scope, home, cwd, env, command, force: options.force === true, approvals: options.approvals === true };
}

/** Applies every change of the installer; a refused merge stops before any file is written. */
export async function install(installer: HarnessInstaller, context: InstallContext, now: Date = new Date()): Promise<InstallOutcome[]> {
  const planned = [];
  for (const change of installer.changes(context)) {
    const current = await readIfPresent(change.path);
    planned.push({ path: change.path, current, next: change.merge(current) });
  }
  const outcomes: InstallOutcome[] = [];
  for (const { path, current, next } of planned) {
    if (next === current) {
      outcomes.push({ path, status: "unchanged", backup: null });
      continue;
    }
    await mkdir(dirname(path), { recursive: true });
    let backup: string | null = null;
    let mode = 0o644;
    if (current !== null) {
      backup = await backUp(
        path,
        `${path}.herald-backup-${now
          .toISOString()
          .replace(/[-:]/g, "")
          .replace(/\.\d+Z$/, "Z")}`,
      );
      mode = (await stat(path)).mode & 0o777;
    }
    const temporary = `${path}.herald-${randomBytes(4).toString("hex")}.tmp`;
    try {
      await writeFile(temporary, next, { mode, flag: "wx" });
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    outcomes.push({ path, status: "installed", backup });
  }
  return outcomes;
}

/** Copies `path` to `name`, or to `name-2`, `name-3`, ... when taken; returns the copy's path. */
async function backUp(path: string, name: string): Promise<string> {
  for (let n = 1; ; n++) {
    const backup = n === 1 ? name : `${name}-${n}`;
    try {
      await copyFile(path, backup, constants.COPYFILE_EXCL);
      return backup;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}

async function readIfPresent(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}
