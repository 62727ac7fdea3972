// Applies the provider's migrations with `prisma migrate deploy` (JS schema engine, see
// prisma/<provider>/prisma.config.ts). Safe on a fresh and on an existing database.
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { type Database, ensureSqliteDirectory, providerOf, repoRoot } from "./database.ts";

/** Prisma's own record of applied migrations (not a model: the migration engine keeps it). */
type PrismaMigrations = {
  _prisma_migrations: { migration_name: string; finished_at: Date | null; rolled_back_at: Date | null };
};

// The CLI prints one of these only after the schema engine has committed its work.
const doneMarkers = ["No pending migrations to apply", "have been successfully applied", "migrations have been applied"];

export function migrate(url: string): Promise<void> {
  const provider = providerOf(url);
  if (provider === "sqlite") ensureSqliteDirectory(url);
  const cli = join(repoRoot, "node_modules", "prisma", "build", "index.js");
  const config = join(repoRoot, "prisma", provider, "prisma.config.ts");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, "migrate", "deploy", "--config", config], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: url, CHECKPOINT_DISABLE: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    let done = false;
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      // With the PostgreSQL adapter the CLI keeps its connection open for ~10 s after finishing
      // (it never disposes the adapter); once the success line is out, there is nothing left to wait for.
      if (!done && doneMarkers.some((m) => output.includes(m))) {
        done = true;
        child.kill();
        resolve();
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("error", reject);
    child.on("exit", (code) => {
      if (done) return;
      if (code === 0) return resolve();
      // The CLI output can echo the URL; strip credentials before it reaches a log.
      reject(new Error(`Migration failed:\n${output.replace(/\/\/[^@\s/]+@/g, "//***@")}`));
    });
  });
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
