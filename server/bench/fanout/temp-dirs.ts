// Temporary directories (Herald's SQLite file, nginx's config and logs), removed when their server
// stops, and all at once if the run is interrupted before that.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dirs = new Set<string>();

export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.add(dir);
  return dir;
}

export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  dirs.delete(dir);
}

export function removeAllTempDirs(): void {
  for (const dir of dirs) removeTempDir(dir);
}
