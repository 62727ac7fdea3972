// The selection thread's own read-only connection to the store: the scanner's long reads and the
// rule evaluation after them run beside the server instead of on its request thread.
import Database from "better-sqlite3";
import pg from "pg";
import { providerOf, sqliteFileOf } from "./database-url.ts";
import { hearingConnectionErrors } from "./pg-connection-errors.ts";
import { postgresPoolConfig } from "./postgres-url.ts";
import type { RawReader, RawRows } from "./scan-reads.ts";

export interface ScanConnection {
  read: RawReader;
  close(): Promise<void>;
}

// `timestamp` columns (Prisma's DateTime) stay text, read as UTC by scan-reads.ts: the driver's own
// parser would read them in the process's local time zone.
const TIMESTAMP_WITHOUT_TIME_ZONE = 1114;
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMP_WITHOUT_TIME_ZONE ? (text: string) => text : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export function openScanConnection(url: string): ScanConnection {
  if (providerOf(url) === "postgresql") {
    const pool = hearingConnectionErrors(new pg.Pool(postgresPoolConfig(url, { max: 1, types })));
    return {
      read: async (sql, params) => (await pool.query(sql, [...params])).rows as RawRows,
      close: () => pool.end(),
    };
  }
  // WAL lets this connection read while the server writes; read-only, so the server stays the one writer.
  const db = new Database(sqliteFileOf(url), { readonly: true, fileMustExist: true, timeout: 10_000 });
  const statements = new Map<string, Database.Statement>();
  return {
    read: async (sql, params) => {
      let statement = statements.get(sql);
      if (!statement) statements.set(sql, (statement = db.prepare(sql)));
      return statement.all(...params) as RawRows;
    },
    close: async () => void db.close(),
  };
}
