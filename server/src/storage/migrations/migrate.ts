// Brings a store up to date with the committed migrations, in this process (migration-applier.ts).
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { type Database, repoRoot } from "../connection/database.ts";
import { applyMigrations } from "./migration-applier.ts";
import * as run from "../sql/run.ts";

/** Prisma's own record of applied migrations (not a model: the migration engine keeps it). */
type PrismaMigrations = {
  _prisma_migrations: { migration_name: string; finished_at: Date | null; rolled_back_at: Date | null };
};

/** Applies the pending migrations; safe on a fresh and on an existing database, and beside another instance doing the same. */
export async function migrate(url: string): Promise<void> {
  await applyMigrations(url);
}

/**
 * Names of the provider's migrations not yet applied to this database. Reading this first lets
 * commands skip migrating (and closing and reopening the store) when nothing is pending.
 */
export async function pendingMigrations(database: Database): Promise<string[]> {
  const dir = join(repoRoot, "prisma", database.provider, "migrations");
  const all = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  let applied: string[] = [];
  try {
    const rows = await run.raw(
      database.db,
      database.build
        .withTables<PrismaMigrations>()
        .selectFrom("_prisma_migrations")
        .select("migration_name")
        .where("finished_at", "is not", null)
        .where("rolled_back_at", "is", null),
    );
    applied = rows.map((r) => String(r.migration_name));
  } catch {
    return all; // no migrations table yet: a fresh database
  }
  return all.filter((name) => !applied.includes(name));
}
