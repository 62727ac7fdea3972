// Which store a DATABASE_URL names. Kept apart from database.ts so a command that only reads
// (herald session-metadata) resolves the same default store without loading a driver.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export type Provider = "sqlite" | "postgresql";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");

/** DATABASE_URL unset means the embedded default: a SQLite file under ./data/. */
export function resolveDatabaseUrl(url: string | undefined): string {
  if (url && url.trim() !== "") return url.trim();
  return `file:${join(repoRoot, "data", "herald.db")}`;
}

export function providerOf(url: string): Provider {
  if (/^postgres(ql)?:\/\//.test(url)) return "postgresql";
  if (url.startsWith("file:")) return "sqlite";
  throw new Error("DATABASE_URL must be a file: URL (SQLite) or a postgres:// / postgresql:// URL");
}

/** The file of a SQLite `file:` URL, as the server opens it. */
export function sqliteFileOf(url: string): string {
  return url.slice("file:".length);
}
