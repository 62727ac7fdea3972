// A store that Prisma's own CLI migrated (`prisma migrate deploy`, as an operator or an older
// Herald did) is read as Prisma left it by the in-process applier (storage/migrations/
// migration-applier.ts): the CLI applies all but the newest committed migration, then the applier
// applies exactly that one, re-applies none and leaves the CLI's records as they were.
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, repoRoot } from "../../src/storage/connection/database.ts";
import { pendingMigrations } from "../../src/storage/migrations/migrate.ts";
import { applyMigrations, committedMigrations } from "../../src/storage/migrations/migration-applier.ts";
import { providers, type TestDatabase } from "../support/providers.ts";

/** The CLI's configuration for a copy of the provider's migrations without the newest one (the same adapters as prisma/<provider>/prisma.config.ts). */
function partialProject(provider: "sqlite" | "postgresql"): string {
  const source = join(repoRoot, "prisma", provider);
  // Inside the repository, so the configuration's imports resolve to its node_modules.
  const dir = mkdtempSync(join(source, ".deploy-test-"));
  cpSync(join(source, "schema.prisma"), join(dir, "schema.prisma"));
  const names = committedMigrations(provider).map((m) => m.name);
  for (const name of names.slice(0, -1)) cpSync(join(source, "migrations", name), join(dir, "migrations", name), { recursive: true });
  cpSync(join(source, "migrations", "migration_lock.toml"), join(dir, "migrations", "migration_lock.toml"));
  const adapter =
    provider === "sqlite"
      ? `const { PrismaBetterSQLite3 } = await import("@prisma/adapter-better-sqlite3");
    return new PrismaBetterSQLite3({ url: process.env.DATABASE_URL });`
      : `const { PrismaPg } = await import("pg-adapter-migrate");
    const { postgresPoolConfig, postgresSchemaOf } = await import(${JSON.stringify(join(repoRoot, "server/src/storage/connection/postgres-url.ts"))});
    const url = process.env.DATABASE_URL;
    return new PrismaPg(postgresPoolConfig(url, { idleTimeoutMillis: 100 }), { schema: postgresSchemaOf(url) });`;
  writeFileSync(
    join(dir, "prisma.config.ts"),
    `import { defineConfig } from "prisma/config";
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "./schema.prisma",
  migrations: { path: "./migrations" },
  async adapter() {
    ${adapter}
  },
});
`,
  );
  return dir;
}

/**
 * Runs `prisma migrate deploy` until it reports success and its process has ended (on PostgreSQL
 * the CLI lingers after its work and is stopped then). Waiting for the exit matters: a CLI still
 * alive can hold SQLite's write lock, and the applier would then meet "database is locked".
 */
function prismaDeploy(config: string, url: string): Promise<string> {
  const child = spawn(process.execPath, [join(repoRoot, "node_modules", "prisma", "build", "index.js"), "migrate", "deploy", "--config", config], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: url, CHECKPOINT_DISABLE: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1", PRISMA_CLIENT_ENGINE_TYPE: "client" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (/All migrations have been successfully applied/.test(output)) child.kill();
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", (code) => (/successfully applied/.test(output) ? resolve(output) : reject(new Error(`prisma migrate deploy exited ${code}:\n${output}`))));
  });
}

for (const provider of providers) {
  describe.skipIf(!provider.available)(`a store Prisma's CLI migrated, on ${provider.name}`, () => {
    let store: TestDatabase;
    let project: string;
    beforeAll(async () => {
      store = await provider.createDatabase();
      project = partialProject(provider.name);
    });
    afterAll(async () => {
      if (project) rmSync(project, { recursive: true, force: true });
      await store?.drop();
    });

    it("is brought up to date by the applier, which applies only what the CLI had not", async () => {
      const names = committedMigrations(provider.name).map((m) => m.name);
      expect(readdirSync(join(project, "migrations")).filter((n) => n !== "migration_lock.toml")).toEqual(names.slice(0, -1));
      await prismaDeploy(join(project, "prisma.config.ts"), store.url);

      const recorded = async () => {
        const database = await openDatabase(store.url);
        try {
          return {
            rows: await database.db.query(`SELECT "id", "migration_name", "checksum", "finished_at" FROM "_prisma_migrations" ORDER BY "migration_name"`, []),
            pending: await pendingMigrations(database),
          };
        } finally {
          await database.close();
        }
      };
      const byCli = await recorded();
      expect(byCli.rows.map((r) => r.migration_name)).toEqual(names.slice(0, -1));
      expect(byCli.pending).toEqual(names.slice(-1));

      expect(await applyMigrations(store.url)).toEqual(names.slice(-1));
      expect(await applyMigrations(store.url)).toEqual([]);

      const after = await recorded();
      expect(after.pending).toEqual([]);
      expect(after.rows.map((r) => r.migration_name)).toEqual(names);
      // The CLI's records are untouched: nothing it applied was applied again.
      expect(after.rows.slice(0, -1)).toEqual(byCli.rows);
      expect(after.rows.map((r) => String(r.checksum))).toEqual(committedMigrations(provider.name).map((m) => m.checksum));
    });
  });
}
