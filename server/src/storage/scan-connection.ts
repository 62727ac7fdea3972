// The selection thread's own read-only connection to the store: the scanner's long reads and the
// rule evaluation after them run beside the server instead of on its request thread. Only the
// driver of the store in use is loaded.
import type pg from "pg";
import { providerOf, sqliteFileOf } from "./database-url.ts";
import type { RawReader, RawRows } from "./scan-reads.ts";
import { statementLru } from "./statement-lru.ts";

export interface ScanConnection {
  read: RawReader;
  close(): Promise<void>;
}

// `timestamp` columns (Prisma's DateTime) stay text, read as UTC by scan-reads.ts: the driver's own
// parser would read them in the process's local time zone.
const TIMESTAMP_WITHOUT_TIME_ZONE = 1114;
const typesOf = (driver: typeof pg) => ({
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMP_WITHOUT_TIME_ZONE ? (text: string) => text : driver.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
});

export async function openScanConnection(url: string): Promise<ScanConnection> {
  if (providerOf(url) === "postgresql") {
    const [{ default: pg }, { hearingConnectionErrors }, { postgresPoolConfig }] = await Promise.all([
      import("pg"),
      import("./pg-connection-errors.ts"),
      import("./postgres-url.ts"),
    ]);
    const types = typesOf(pg);
    const pool = hearingConnectionErrors(new pg.Pool(postgresPoolConfig(url, { max: 1, types })));
    return {
      read: async (sql, params) => (await pool.query(sql, [...params])).rows as RawRows,
      close: () => pool.end(),
    };
  }
  // WAL lets this connection read while the server writes; read-only, so the server stays the one writer.
  const { default: Sqlite } = await import("better-sqlite3");
  const db = new Sqlite(sqliteFileOf(url), { readonly: true, fileMustExist: true, timeout: 10_000 });
  const prepared = statementLru((sql) => db.prepare<unknown[]>(sql));
  return {
    read: async (sql, params) => prepared(sql).all(...params) as RawRows,
    close: async () => void db.close(),
  };
}
