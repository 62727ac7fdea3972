// Opens the store a DATABASE_URL names: SQLite (the embedded default) or PostgreSQL.
// Both providers use clients generated from the same models (prisma/models.prisma). Each
// provider's client, driver and adapter are imported when a store of that kind is opened, so a
// process loads only the one it uses.
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { type Provider, providerOf, sqliteFileOf } from "./database-url.ts";
import type { PrismaClient as SqliteClient } from "./prisma-client/sqlite/client.ts";
import type { SqliteWriter } from "./sqlite-writer.ts";
import type { Pool } from "pg";
import { Queries } from "./queries.ts";

/** The two generated clients have the same model API; the SQLite one names the type. */
export type Db = SqliteClient;
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];
export { type Provider, providerOf, repoRoot, resolveDatabaseUrl } from "./database-url.ts";

export interface Database {
  db: Db;
  /** Builds and runs statements on `db` (queries.ts): the one way stores reach the tables. */
  queries: Queries;
  provider: Provider;
  url: string;
  /** SQLite: the connection and the writer lock every transaction on it takes (sqlite-writer.ts). */
  sqlite: SqliteWriter | null;
  /** PostgreSQL: the pool the client's adapter uses, and the schema it works in (raw byte access). */
  postgres: { pool: Pool; schema: string | undefined } | null;
  close(): Promise<void>;
}

/** Answers when the store takes queries (readiness checks). */
export async function pingDatabase(database: Database): Promise<void> {
  await database.db.$queryRawUnsafe("SELECT 1");
}

/**
 * How long a PostgreSQL query waits for a pooled connection (a free one, or a new one the server
 * accepts) before it fails as STORAGE_UNAVAILABLE. Without a bound a pool that leaked or a server
 * that accepts but never answers left every request waiting for ever: a hang instead of an error.
 */
export const POSTGRES_CONNECT_TIMEOUT_MS = 10_000;

export async function openDatabase(url: string, options: { connectTimeoutMs?: number } = {}): Promise<Database> {
  const provider = providerOf(url);
  if (provider === "postgresql") {
    const [{ default: pg }, { PrismaPg }, { PrismaClient: PostgresClient }, { hearingConnectionErrors }, { releasingFailedEnds }, { postgresPoolConfig, postgresSchemaOf }] = await Promise.all([
      import("pg"),
      import("@prisma/adapter-pg"),
      import("./prisma-client/postgresql/client.ts"),
      import("./pg-connection-errors.ts"),
      import("./pg-release-guard.ts"),
      import("./postgres-url.ts"),
    ]);
    const pool = hearingConnectionErrors(new pg.Pool(postgresPoolConfig(url, { max: 10, connectionTimeoutMillis: options.connectTimeoutMs ?? POSTGRES_CONNECT_TIMEOUT_MS })));
    // The adapter ends the pool on disconnect, as it does a pool it made itself.
    const adapter = releasingFailedEnds(new PrismaPg(pool, { schema: postgresSchemaOf(url), disposeExternalPool: true }));
    const db = new PostgresClient({ adapter }) as unknown as Db;
    return { db, queries: new Queries(provider), provider, url, sqlite: null, postgres: { pool, schema: postgresSchemaOf(url) }, close: () => db.$disconnect() };
  }
  const [{ PrismaBetterSQLite3 }, { PrismaClient: SqliteClient }, { withStatementCache }, { sharingWriter, SqliteWriter }] = await Promise.all([
    import("@prisma/adapter-better-sqlite3"),
    import("./prisma-client/sqlite/client.ts"),
    import("./sqlite-statement-cache.ts"),
    import("./sqlite-writer.ts"),
  ]);
  const file = ensureSqliteDirectory(url);
  const sqlite = new SqliteWriter();
  const db = new SqliteClient({ adapter: withStatementCache(sharingWriter(new PrismaBetterSQLite3({ url: file, timeout: 10_000 }), sqlite)) });
  // WAL lets readers proceed while the single writer commits; NORMAL sync is durable in WAL mode
  // across application crashes (only an OS crash can lose the last transactions).
  await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await db.$queryRawUnsafe("PRAGMA synchronous = NORMAL");
  await db.$queryRawUnsafe("PRAGMA foreign_keys = ON");
  return { db, queries: new Queries(provider), provider, url, sqlite, postgres: null, close: () => db.$disconnect() };
}

/** Creates the folder of a SQLite file URL (the embedded default lives in ./data/). */
export function ensureSqliteDirectory(url: string): string {
  const file = sqliteFileOf(url);
  if (file !== ":memory:") mkdirSync(dirname(resolve(file)), { recursive: true });
  return file;
}

/**
 * A unique-constraint violation: Prisma's own queries report it as P2002, raw statements as a
 * failed raw query (P2010) that carries the driver adapter's reason, and statements run on the
 * SQLite connection itself (sqlite-unit.ts) as better-sqlite3's error code.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, meta } = error as { code?: string; meta?: { driverAdapterError?: { cause?: { kind?: string } } } };
  if (code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY") return true;
  return code === "P2002" || (code === "P2010" && meta?.driverAdapterError?.cause?.kind === "UniqueConstraintViolation");
}
