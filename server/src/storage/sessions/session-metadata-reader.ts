// Reads one session's label state without writing anything: no file, folder, table or counter
// is created or changed. SQLite is opened read-only (and never through the server's start-up
// path, which creates the folder, sets WAL and migrates); PostgreSQL in a read-only transaction.
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { MetadataResult } from "../../domain/session-metadata.ts";
import { readLabelState } from "../../domain/session-labels.ts";
import { type Provider, providerOf, sqliteFileOf } from "../connection/database-url.ts";
import { postgresPoolConfig } from "../connection/postgres-url.ts";
import type { SqliteConnection } from "../connection/sqlite-driver.ts";

/** A statement as text and the values it binds. */
interface Statement {
  sql: string;
  parameters: readonly unknown[];
}

const TIMEOUT_MS = 1_500;

// This command runs after every agent turn, so it loads no query builder: its two statements are
// the text storage/sql/sql.ts compiles for them, written out here and held to it by
// test/storage/session-metadata-statements.test.ts.
const COLUMNS = ["label", "completionId", "sourceGeneration", "labelGeneration", "namingFingerprint"] as const;
const LABEL_COLUMNS = COLUMNS.map((column) => `"${column}"`).join(", ");
export const LABEL_QUERY_TEXT: Record<Provider, string> = {
  sqlite: `select ${LABEL_COLUMNS} from "Session" where "harness" = ? and "nativeSessionId" = ?`,
  postgresql: `select ${LABEL_COLUMNS} from "Session" where "harness" = $1 and "nativeSessionId" = $2`,
};

/** The session's label columns, in the provider's dialect. */
export function labelQuery(provider: Provider, harness: string, sessionId: string): Statement {
  return { sql: LABEL_QUERY_TEXT[provider], parameters: [harness, sessionId] };
}

/** Whether the SQLite file has a Session table yet (sqlite_master is SQLite's catalogue, not a model). */
export const HAS_SESSION_TABLE: Statement = {
  sql: `select 1 as "found" from "sqlite_master" where "type" = ? and "name" = ?`,
  parameters: ["table", "Session"],
};

class Missing extends Error {}

export async function readSessionMetadata(url: string, harness: string, sessionId: string): Promise<MetadataResult> {
  try {
    const row = providerOf(url) === "sqlite" ? await readSqlite(url, harness, sessionId) : await readPostgres(url, harness, sessionId);
    if (!row) return { status: "missing" };
    const state = readLabelState(row);
    if (state === "none") return { status: "missing" };
    if (state === "invalid") return { status: "unavailable" };
    return { status: "known", state };
  } catch (error) {
    return error instanceof Missing ? { status: "missing" } : { status: "unavailable" };
  }
}

type Row = Parameters<typeof readLabelState>[0];

function asRow(value: unknown): Row {
  const row = value as Record<string, unknown>;
  if (!COLUMNS.every((c) => typeof row[c] === "string")) throw new Error("unexpected column types");
  return row as unknown as Row;
}

async function readSqlite(url: string, harness: string, sessionId: string): Promise<Row | null> {
  const file = resolve(sqliteFileOf(url));
  try {
    if (!statSync(file).isFile()) throw new Error("not a regular file");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new Missing();
    throw error;
  }
  const driver = await import("../connection/sqlite-driver.ts");
  let db: SqliteConnection;
  if (existsSync(`${file}-wal`)) {
    // A server has the store open: read through its write-ahead log, which holds the latest
    // commits. SQLite would create a missing shared-memory index, so that case is refused.
    if (!existsSync(`${file}-shm`)) throw new Error("write-ahead log without its index");
    db = driver.SqliteConnection.open(file, { readOnly: true, timeoutMs: TIMEOUT_MS });
  } else {
    // No server has it open, so the file holds every commit. A read-only connection to a WAL
    // database would create -wal and -shm files beside it; an immutable one reads the file as it
    // is and creates nothing.
    db = driver.SqliteConnection.open(file, { readOnly: true, timeoutMs: TIMEOUT_MS, immutable: true });
  }
  try {
    const hasTable = db.prepare(HAS_SESSION_TABLE.sql).get(...HAS_SESSION_TABLE.parameters);
    if (!hasTable) throw new Missing();
    const query = labelQuery("sqlite", harness, sessionId);
    const row = db.prepare(query.sql).get(...query.parameters);
    return row ? asRow(row) : null;
  } finally {
    db.close();
  }
}

async function readPostgres(url: string, harness: string, sessionId: string): Promise<Row | null> {
  const { default: pg } = await import("pg");
  const config = postgresPoolConfig(url);
  const client = new pg.Client({
    connectionString: config.connectionString,
    // Every transaction of this connection is read-only, and none may hang the caller.
    options: [config.options, "-c default_transaction_read_only=on", `-c statement_timeout=${TIMEOUT_MS}`].filter(Boolean).join(" "),
    connectionTimeoutMillis: TIMEOUT_MS,
    query_timeout: TIMEOUT_MS,
  });
  // A dropped connection must not become an unhandled error (stderr) after the answer.
  client.on("error", () => undefined);
  try {
    await client.connect();
  } catch (error) {
    if ((error as { code?: string }).code === "3D000") throw new Missing(); // no such database
    throw error;
  }
  try {
    await client.query("BEGIN TRANSACTION READ ONLY");
    const query = labelQuery("postgresql", harness, sessionId);
    const result = await client.query(query.sql, [...query.parameters]);
    await client.query("ROLLBACK");
    return result.rows[0] ? asRow(result.rows[0]) : null;
  } catch (error) {
    if ((error as { code?: string }).code === "42P01") throw new Missing(); // no Session table (or schema)
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}
