// The selection thread's own read-only connection to the store: the scanner's long reads and the
// rule evaluation after them run beside the server instead of on its request thread. Only the
// driver of the store in use is loaded.
import { providerOf, sqliteFileOf } from "../connection/database-url.ts";
import type { RawReader, RawRows } from "./scan-reads.ts";
import { statementLru } from "../connection/statement-lru.ts";

export interface ScanConnection {
  read: RawReader;
  close(): Promise<void>;
}

export async function openScanConnection(url: string): Promise<ScanConnection> {
  if (providerOf(url) === "postgresql") {
    const [{ default: pg }, { hearingConnectionErrors }, { postgresPoolConfig }, { postgresTypes }] = await Promise.all([
      import("pg"),
      import("../connection/pg-connection-errors.ts"),
      import("../connection/postgres-url.ts"),
      import("../connection/pg-types.ts"),
    ]);
    // The server's parsers (pg-types.ts): the same statements run on either connection.
    const types = postgresTypes(pg);
    const pool = hearingConnectionErrors(new pg.Pool(postgresPoolConfig(url, { max: 1, types })));
    return {
      read: async (sql, params) => (await pool.query(sql, [...params])).rows as RawRows,
      close: () => pool.end(),
    };
  }
  // WAL lets this connection read while the server writes; read-only, so the server stays the one writer.
  const { SqliteConnection } = await import("../connection/sqlite-driver.ts");
  const db = SqliteConnection.open(sqliteFileOf(url), { readOnly: true, timeoutMs: 10_000 });
  const prepared = statementLru((sql) => db.prepare(sql));
  return {
    read: async (sql, params) => prepared(sql).all(...params) as RawRows,
    close: async () => db.close(),
  };
}
