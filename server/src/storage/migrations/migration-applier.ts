// Applies the committed SQL migrations (prisma/<provider>/migrations/<name>/migration.sql, in name
// order) in this process, recording each in Prisma's own `_prisma_migrations` table as
// `prisma migrate deploy` does, so a database either of them migrated is up to date for the other.
// Prisma stays the tool that writes migrations (`npm run migration:new`) and checks drift; no
// Prisma process runs when Herald starts or on `herald migrate`.
// - PostgreSQL: the whole run holds a session advisory lock, so instances starting together apply
//   each migration once; each migration and its record commit in one transaction.
// - SQLite: a connection of its own with foreign keys off (Prisma's table rebuilds drop and
//   recreate tables, which with foreign keys on would cascade), each migration and its record in
//   one BEGIN IMMEDIATE ... COMMIT that first checks it is still pending (another process may have
//   applied it meanwhile), and a foreign-key check before the commit.
import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ensureSqliteDirectory, providerOf, repoRoot } from "../connection/database.ts";
import type { Provider } from "../connection/database-url.ts";

interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

/** Any 64-bit number of Herald's own: the advisory lock the migrating instance holds. */
const MIGRATION_LOCK = 7_265_301_948_112_337n;

const TABLE: Record<Provider, string> = {
  postgresql: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL, "checksum" VARCHAR(64) NOT NULL, "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL, "logs" TEXT, "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(), "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`,
  sqlite: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" TEXT PRIMARY KEY NOT NULL, "checksum" TEXT NOT NULL, "finished_at" DATETIME,
    "migration_name" TEXT NOT NULL, "logs" TEXT, "rolled_back_at" DATETIME,
    "started_at" DATETIME NOT NULL DEFAULT current_timestamp, "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0)`,
};
const APPLIED = `SELECT "migration_name" FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL AND "rolled_back_at" IS NULL`;

/** The provider's migrations, in the order they apply (their folder names begin with a timestamp). */
export function committedMigrations(provider: Provider): Migration[] {
  const dir = join(repoRoot, "prisma", provider, "migrations");
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/** Applies what is pending; the names it applied (none when the store was up to date). */
export function applyMigrations(url: string): Promise<string[]> {
  return providerOf(url) === "postgresql" ? applyOnPostgres(url) : applyOnSqlite(url);
}

async function applyOnPostgres(url: string): Promise<string[]> {
  const [{ default: pg }, { postgresPoolConfig, postgresSchemaOf }] = await Promise.all([import("pg"), import("../connection/postgres-url.ts")]);
  const client = new pg.Client(postgresPoolConfig(url, {}));
  await client.connect();
  const applied: string[] = [];
  try {
    const schema = postgresSchemaOf(url);
    await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    if (schema) await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await client.query(TABLE.postgresql);
    const done = new Set((await client.query<{ migration_name: string }>(APPLIED)).rows.map((r) => r.migration_name));
    for (const migration of committedMigrations("postgresql")) {
      if (done.has(migration.name)) continue;
      await client.query("BEGIN");
      try {
        await client.query(migration.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" ("id", "checksum", "finished_at", "migration_name", "started_at", "applied_steps_count") VALUES ($1, $2, now(), $3, now(), 1)`,
          [randomUUID(), migration.checksum, migration.name],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`);
      }
      applied.push(migration.name);
    }
  } finally {
    // Ending the session releases the advisory lock too.
    await client.end().catch(() => undefined);
  }
  return applied;
}

async function applyOnSqlite(url: string): Promise<string[]> {
  const { SqliteConnection } = await import("../connection/sqlite-driver.ts");
  // Start-up waits here before it serves anything: SQLite's own busy wait blocks nothing else yet.
  const db = SqliteConnection.open(ensureSqliteDirectory(url), { timeoutMs: 10_000 });
  const applied: string[] = [];
  try {
    db.exec("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = OFF");
    db.exec(TABLE.sqlite);
    const isApplied = db.prepare(`${APPLIED} AND "migration_name" = ?`);
    const record = db.prepare(
      `INSERT INTO "_prisma_migrations" ("id", "checksum", "finished_at", "migration_name", "started_at", "applied_steps_count") VALUES (?, ?, ?, ?, ?, 1)`,
    );
    for (const migration of committedMigrations("sqlite")) {
      if (isApplied.get(migration.name)) continue;
      db.exec("BEGIN IMMEDIATE");
      try {
        if (!isApplied.get(migration.name)) {
          const startedAt = new Date().toISOString();
          db.exec(migration.sql);
          const broken = db.prepare("PRAGMA foreign_key_check").all();
          if (broken.length > 0) throw new Error(`it leaves ${broken.length} rows whose foreign keys point nowhere`);
          record.run(randomUUID(), migration.checksum, new Date().toISOString(), migration.name, startedAt);
          applied.push(migration.name);
        }
        db.exec("COMMIT");
      } catch (error) {
        if (db.inTransaction) db.exec("ROLLBACK");
        throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`);
      }
    }
  } finally {
    db.close();
  }
  return applied;
}
