// Hears a name given by hand while label reads are scheduled. Pi tells extensions nothing when a
// session is named (`/name`, an RPC client's set_session_name), but it appends the naming row to
// the session file at once: a watch on that file wakes the extension, which then checks who owns
// the name. An in-memory session (`--no-session`) has no file; its reads still check ownership
// before and after each helper run.
import { watch } from "node:fs";

/** Calls `changed` on every write to `file` until the returned function is called. */
export function watchSessionFile(file: string | undefined, changed: () => void): () => void {
  if (!file) return () => undefined;
  try {
    // Not persistent: a watch never keeps Pi alive on exit.
    const watcher = watch(file, { persistent: false }, () => changed());
    watcher.on("error", () => watcher.close());
    return () => watcher.close();
  } catch {
    return () => undefined;
  }
}
