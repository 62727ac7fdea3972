// Opens the store a DATABASE_URL names: SQLite (the embedded default) or PostgreSQL, on Herald's
// own connections (sqlite-store.ts, pg-store.ts). Prisma keeps the models and the migrations;
// statements are built with sql/sql.ts and run with sql/run.ts. Each provider's driver is imported
// when a store of that kind is opened, so a process loads only the one it uses.
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Pool } from "pg";
import type { Connection, Store } from "./connection.ts";
import { type Provider, providerOf, sqliteFileOf } from "./database-url.ts";
import type { RawBuilder } from "kysely";
import { type Builder, sqlFor, storedTime } from "../sql/sql.ts";
import type { SqliteStore } from "./sqlite-store.ts";

/** The store, and one of its transactions. */
export type Db = Store;
export type Tx = Connection;
export { type Provider, providerOf, repoRoot, resolveDatabaseUrl } from "./database-url.ts";

export interface Database {
  /** The store's connection: statements run on it or in one of its transactions (sql/run.ts). */
  db: Db;
  /** The statement builder of the store's dialect (sql/sql.ts): the one way stores build SQL. */
  build: Builder;
  /** A time as the store keeps it (sql/sql.ts, storedTime): every Date a statement binds goes through here. */
  time(value: Date): RawBuilder<Date>;
  provider: Provider;
  url: string;
  /** SQLite: the same store as `db`, with its connection and the writer lock every transaction on it takes. */
  sqlite: SqliteStore | null;
  /** PostgreSQL: the pool `db` uses, and the schema it works in (raw byte access). */
  postgres: { pool: Pool; schema: string | undefined } | null;
  close(): Promise<void>;
}

/** Answers when the store takes queries (readiness checks). */
export async function pingDatabase(database: Database): Promise<void> {
  await database.db.query("SELECT 1", []);
}

/**
 * How long a PostgreSQL query waits for a pooled connection (a free one, or a new one the server
 * accepts) before it fails as STORAGE_UNAVAILABLE. Without a bound a pool that leaked or a server
 * that accepts but never answers left every request waiting for ever: a hang instead of an error.
 */
export const POSTGRES_CONNECT_TIMEOUT_MS = 10_000;

export interface OpenOptions {
  /** PostgreSQL: how long a statement waits for a pooled connection (POSTGRES_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs?: number;
  /** How long a transaction may stay open (connection.ts, TRANSACTION_TIMEOUT_MS). */
  transactionTimeoutMs?: number;
  /** SQLite: how long a write waits for another process's lock on the file (sqlite-store.ts, SQLITE_BUSY_MS). */
  sqliteBusyMs?: number;
}

export async function openDatabase(url: string, options: OpenOptions = {}): Promise<Database> {
  const provider = providerOf(url);
  if (provider === "postgresql") {
    const [{ default: pg }, { hearingConnectionErrors }, { PostgresStore }, { postgresTypes }, { postgresPoolConfig, postgresSchemaOf }] = await Promise.all([
      import("pg"),
      import("./pg-connection-errors.ts"),
      import("./pg-store.ts"),
      import("./pg-types.ts"),
      import("./postgres-url.ts"),
    ]);
    const config = postgresPoolConfig(url, {
      max: 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? POSTGRES_CONNECT_TIMEOUT_MS,
      types: postgresTypes(pg),
    });
    const pool = hearingConnectionErrors(new pg.Pool(config));
    const db = new PostgresStore(pool, options.transactionTimeoutMs);
    return { db, ...builderOf(provider), provider, url, sqlite: null, postgres: { pool, schema: postgresSchemaOf(url) }, close: () => db.close() };
  }
  const { SqliteStore } = await import("./sqlite-store.ts");
  const db = await SqliteStore.open(ensureSqliteDirectory(url), { transactionTimeoutMs: options.transactionTimeoutMs, busyMs: options.sqliteBusyMs });
  return { db, ...builderOf(provider), provider, url, sqlite: db, postgres: null, close: () => db.close() };
}

function builderOf(provider: Provider): Pick<Database, "build" | "time"> {
  return { build: sqlFor(provider), time: (value) => storedTime(provider, value) };
}

/** Creates the folder of a SQLite file URL (the embedded default lives in ./data/). */
export function ensureSqliteDirectory(url: string): string {
  const file = sqliteFileOf(url);
  if (file !== ":memory:") mkdirSync(dirname(resolve(file)), { recursive: true });
  return file;
}

/** A unique-constraint violation, as SQLite (named by sqlite-driver.ts) or PostgreSQL (23505) reports it. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code } = error as { code?: string };
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "23505";
}
