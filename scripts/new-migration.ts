// Authors a migration for each provider from the change in prisma/models.prisma since the last
// migration. `prisma migrate dev` would need Prisma's native schema engine (a binary downloaded
// from Prisma's servers on first use, which an offline machine cannot fetch) and a shadow
// database, so this diffs the schema each provider was last migrated from
// (migrations/schema.at-last-migration.prisma) against the current one with `prisma migrate diff`
// on the JavaScript engine, with no database involved for SQLite.
// PRISMA_CLIENT_ENGINE_TYPE=client is set for the CLI, as `npm run generate` does: without it the
// CLI first fetches the native query engine from binaries.prisma.sh (even for a diff, which never
// uses it) and fails on a machine that cannot reach that host. With it, nothing is downloaded.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBetterSqlite3 } from "./better-sqlite3-build.ts";
import { configPath, deriveSchema, providerDir, providers, root } from "./prisma-providers.ts";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run migration:new -- <snake_case_name>");
  process.exit(2);
}
const scratchUrl: Record<(typeof providers)[number], string> = {
  sqlite: `file:${join(mkdtempSync(join(tmpdir(), "herald-diff-")), "diff.db")}`,
  // The diff itself reads no tables, but the PostgreSQL adapter insists on a live connection.
  postgresql: process.env.HERALD_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/test",
};
// The CLI's SQLite adapter (prisma/sqlite/prisma.config.ts).
ensureBetterSqlite3();
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);

/** SQL statements left once Prisma's comments and blank lines are removed ("-- This is an empty migration." for no change). */
function hasStatements(sql: string): boolean {
  return sql.split("\n").some((line) => line.trim() !== "" && !line.trim().startsWith("--"));
}

// Every provider is diffed before anything is written, so a failed diff leaves no half-written migration.
const diffs = providers.map((provider) => {
  const dir = join(providerDir(provider), "migrations");
  const snapshot = join(dir, "schema.at-last-migration.prisma");
  const current = join(providerDir(provider), "schema.prisma");
  writeFileSync(current, deriveSchema(provider));
  const from = existsSync(snapshot) ? ["--from-schema-datamodel", snapshot] : ["--from-empty"];
  const sql = execFileSync(
    "npx",
    ["prisma", "migrate", "diff", "--config", configPath(provider), ...from, "--to-schema-datamodel", current, "--script"],
    // The CLI opens its driver adapter even for a diff; give it a throwaway target.
    { cwd: root, encoding: "utf8", env: { ...process.env, DATABASE_URL: scratchUrl[provider], PRISMA_CLIENT_ENGINE_TYPE: "client", CHECKPOINT_DISABLE: "1" } },
  );
  return { provider, dir, snapshot, sql };
});

// A migration with no statement would be recorded and applied as a step that changes nothing.
if (!diffs.some((diff) => hasStatements(diff.sql))) {
  console.error("prisma/models.prisma has not changed since the last migration: no migration written");
  process.exit(1);
}

for (const { provider, dir, snapshot, sql } of diffs) {
  mkdirSync(dir, { recursive: true });
  const migrationDir = join(dir, `${stamp}_${name}`);
  mkdirSync(migrationDir);
  writeFileSync(join(migrationDir, "migration.sql"), sql);
  writeFileSync(join(dir, "migration_lock.toml"), `provider = "${provider}"\n`);
  writeFileSync(snapshot, deriveSchema(provider));
  console.log(`${provider}: ${migrationDir.slice(root.length + 1)}`);
}
