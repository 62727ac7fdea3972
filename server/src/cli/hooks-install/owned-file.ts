// The change Pi and opencode installs make: a file wholly Herald's own in the harness's
// auto-loaded folder that loads the adapter from this checkout's integrations/ folder. Such a file
// leaves the user's settings alone (opencode's global opencode.jsonc has comments a JSON rewrite
// would drop), and removing Herald is deleting it.
import { fileURLToPath } from "node:url";
import { type FileChange, InstallError } from "./installer.ts";

/** An adapter's source in the checkout, e.g. "pi/index.ts"; the same four levels up from src/ and a compiled dist/. */
export function adapterSource(relative: string): string {
  return fileURLToPath(new URL(`../../../../integrations/${relative}`, import.meta.url));
}

/** Written when absent, left as it is when identical, replaced only with --force. */
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
