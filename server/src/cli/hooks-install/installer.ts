// What `herald hooks install <harness>` knows of one harness: where its configuration lives and how
// Herald's hook merges into it. Each harness is one file exporting a HarnessInstaller, listed in
// harnesses.ts; install.ts does the rest (print, backup, atomic write, idempotence) for all alike.

export type InstallScope = "user" | "project";

export interface InstallContext {
  scope: InstallScope;
  /** The user's home folder (HOME). */
  home: string;
  /** The project folder (the working directory) for the project scope. */
  cwd: string;
  /** The environment, for a harness's own settings (e.g. CODEX_HOME). */
  env: NodeJS.ProcessEnv;
  /** The herald executable the harness runs: `herald` (found on PATH) unless --command names another. */
  command: string;
  /** --force: replace a conflicting setting the harness allows only one of. */
  force: boolean;
  /** --approvals: also route the harness's permission requests to the person (where it has such a hook). */
  approvals: boolean;
}

export interface FileChange {
  /** Absolute path of the file the hook merges into (created with its folders when absent). */
  path: string;
  /**
   * The file's new content from its current one (null: no such file). Returns `current` itself
   * when the hook is already installed; throws InstallError when it cannot merge without losing
   * or overriding something, naming the file and what to do.
   */
  merge(current: string | null): string;
}

export interface HarnessInstaller {
  /** The name on the command line and in reportExchange: pi, claude-code, codex, opencode. */
  harness: string;
  /** The scopes it supports; the first is the default. */
  scopes: readonly InstallScope[];
  /** It can route permission requests to the person (--approvals). */
  approvals?: boolean;
  /** What `--print` shows: the configuration to add by hand, as it would be merged. */
  snippet(context: InstallContext): string;
  /** The files an install changes. */
  changes(context: InstallContext): FileChange[];
}

/** An install refused before anything was written: the message says why and what to do. */
export class InstallError extends Error {}

/** A command for a shell (Claude Code runs hook commands through one): quoted only when it needs to be. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
