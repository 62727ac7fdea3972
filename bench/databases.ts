// A fresh, throw-away database per provider and run: nothing measured depends on leftovers of an
// earlier run, and nothing is left behind (not even after a failure).
import { randomBytes } from "node:crypto";
import { createTempSqlite } from "@herald/testkit";
import pg from "pg";
import { benchConfig, type ProviderName } from "./config.ts";
import type { RawDriver } from "./raw-driver.ts";
import { openRawPostgres } from "./raw-postgres.ts";
import { openRawSqlite } from "./raw-sqlite.ts";

export interface BenchDatabase {
  provider: ProviderName;
  /** DATABASE_URL for the Herald processes. */
  url: string;
  /** Where it lives, for the report. */
  location: string;
  openRaw(): RawDriver;
  /** How the bare graphql-yoga server (the framework floor) opens the same store. */
  bareEnv: Record<string, string>;
  drop(): Promise<void>;
}

export function createSqliteDatabase(): Promise<BenchDatabase> {
  const store = createTempSqlite("herald-bench-");
  return Promise.resolve({
    provider: "sqlite",
    url: store.url,
    location: store.file,
    openRaw: () => openRawSqlite(store.file),
    bareEnv: { BARE_PROVIDER: "sqlite", BARE_SQLITE_FILE: store.file },
    drop: async () => store.remove(),
  });
}

export async function createPostgresDatabase(): Promise<BenchDatabase> {
  const base = benchConfig.postgresUrl;
  if (new URL(base).hostname !== "127.0.0.1") throw new Error("The benchmark only uses PostgreSQL on 127.0.0.1");
  const schema = `bench_${randomBytes(6).toString("hex")}`;
  await withClient(base, (c) => c.query(`CREATE SCHEMA "${schema}"`));
  return {
    provider: "postgresql",
    url: `${base}?schema=${schema}`,
    location: `${base} schema ${schema}`,
    openRaw: () => openRawPostgres(base, schema, benchConfig.concurrency),
    bareEnv: { BARE_PROVIDER: "postgresql", BARE_PG_URL: base, BARE_PG_SCHEMA: schema, BARE_PG_POOL: String(benchConfig.concurrency) },
    drop: () => withClient(base, (c) => c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)).then(() => undefined),
  };
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
