// How `herald hooks install <harness>` installs an adapter that lives in this folder: the shape of
// one harness's installer (harness name, scopes, the snippet `--print` shows, the files it
// changes), and the one kind of change Pi and opencode need: a small file of their own in the
// harness's auto-loaded folder that loads the adapter from this checkout. A file of our own
// leaves the user's settings (JSON with comments, for opencode) untouched.

export type InstallScope = "user" | "project";

export interface InstallContext {
  scope: InstallScope;
  /** The user's home folder. */
  home: string;
  /** The project folder, for the project scope. */
  cwd: string;
  /** The environment, for the harness's own settings (PI_CODING_AGENT_DIR, XDG_CONFIG_HOME). */
  env: NodeJS.ProcessEnv;
  /** The herald executable: `herald` (on PATH) unless another was named. */
  command: string;
  /** Replace a file of that name with other content. */
  force: boolean;
}

export interface FileChange {
  /** Absolute path of the file. */
  path: string;
  /** The new content from the current one (null: absent); `current` itself when already installed. */
  merge(current: string | null): string;
}

export interface HarnessInstaller {
  harness: string;
  /** The first is the default. */
  scopes: readonly InstallScope[];
  snippet(context: InstallContext): string;
  changes(context: InstallContext): FileChange[];
}

/** Refused before anything was written; the message says why and what to do. */
export class InstallError extends Error {}

/** A file that is wholly Herald's: written when absent, left as it is when identical, replaced only with force. */
export function ownedFile(path: string, content: string, force: boolean): FileChange {
  return {
    path,
    merge(current) {
      if (current === content) return current;
      if (current === null || force) return content;
      throw new InstallError(`${path} exists with other content: remove it, or run again with --force to replace it`);
    },
  };
}

/** A module specifier for an absolute path in a generated TypeScript file. */
export const quoted = (path: string): string => JSON.stringify(path);
