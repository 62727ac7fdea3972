// Temporary directories (SQLite files, browser profiles, nginx configs), each removed by its owner
// and, if a run is interrupted before that, all at once by removeAllTempDirs().
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TempDir {
  path: string;
  remove(): void;
}

const live = new Set<string>();

export function createTempDir(prefix: string): TempDir {
  const path = mkdtempSync(join(tmpdir(), prefix));
  live.add(path);
  return {
    path,
    remove() {
      rmSync(path, { recursive: true, force: true });
      live.delete(path);
    },
  };
}

export function removeAllTempDirs(): void {
  for (const path of live) rmSync(path, { recursive: true, force: true });
  live.clear();
}

export interface TempSqlite {
  /** DATABASE_URL for herald. */
  url: string;
  file: string;
  remove(): void;
}

/** A new, empty embedded store in its own temporary directory. */
export function createTempSqlite(prefix = "herald-"): TempSqlite {
  const dir = createTempDir(prefix);
  const file = join(dir.path, "herald.db");
  return { url: `file:${file}`, file, remove: dir.remove };
}
