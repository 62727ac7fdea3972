// Applies the provider's migrations with `prisma migrate deploy` (JS schema engine, see
// prisma/<provider>/prisma.config.ts). Safe on a fresh and on an existing database.
//
// A workaround lives here: on PostgreSQL the CLI's Wasm schema engine leaves a 10 s timer pending
// after its work is committed, so the process lingers that long. Once the migrations table records
// every migration as applied, nothing is left to wait for and the CLI is stopped
// (test/storage/migrate-linger.test.ts tells when an upgrade no longer lingers).
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { type Database, ensureSqliteDirectory, openDatabase, providerOf, repoRoot } from "./database.ts";

/** Prisma's own record of applied migrations (not a model: the migration engine keeps it). */
type PrismaMigrations = {
  _prisma_migrations: { migration_name: string; finished_at: Date | null; rolled_back_at: Date | null };
};

/** How often a PostgreSQL migration's progress is read from its table. */
const PROGRESS_POLL_MS = 250;

export function migrate(url: string): Promise<void> {
  const provider = providerOf(url);
  if (provider === "sqlite") ensureSqliteDirectory(url);
  const cli = join(repoRoot, "node_modules", "prisma", "build", "index.js");
  const config = join(repoRoot, "prisma", provider, "prisma.config.ts");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, "migrate", "deploy", "--config", config], {
      cwd: repoRoot,
      // The engine-free client type: otherwise the CLI downloads a query engine nothing here runs.
      env: { ...process.env, DATABASE_URL: url, CHECKPOINT_DISABLE: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1", PRISMA_CLIENT_ENGINE_TYPE: "client" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve();
    };
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", settle);
    child.on("exit", (code) => {
      if (code === 0) return settle();
      // The CLI output can echo the URL; strip credentials before it reaches a log.
      settle(new Error(`Migration failed:\n${output.replace(/\/\/[^@\s/]+@/g, "//***@")}`));
    });
    if (provider === "postgresql") {
      void watchProgress(url, () => settled).then((done) => {
        if (!done) return;
        settle();
        child.kill();
      });
    }
  });
}

/**
 * Reads the migrations table every PROGRESS_POLL_MS on one connection of its own until it records
 * every migration as applied (true) or the migration settled otherwise (false).
 */
async function watchProgress(url: string, settled: () => boolean): Promise<boolean> {
  let database: Database | null = null;
  try {
    while (!settled()) {
      await new Promise((resolve) => setTimeout(resolve, PROGRESS_POLL_MS));
      if (settled()) return false;
      try {
        database ??= await openDatabase(url);
        if ((await pendingMigrations(database)).length === 0) return true;
      } catch {
        // Not reachable yet, or the table not there yet: ask again.
      }
    }
    return false;
  } finally {
    await database?.close().catch(() => undefined);
  }
}

/**
 * Names of the provider's migrations not yet applied to this database. Reading this first lets
 * commands skip the migration engine when nothing is pending (it needs the SQLite file to itself,
 * so running it beside a live server fails even when there is nothing to do).
 */
export async function pendingMigrations(database: Database): Promise<string[]> {
  const dir = join(repoRoot, "prisma", database.provider, "migrations");
  const all = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  let applied: string[] = [];
  try {
    const q = database.queries;
    const rows = await q.raw(
      database.db,
      q.build
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
