// The production store: a node-postgres pool, opened here.
// - `timestamp` columns (the models' DateTime) come back as text and are read as UTC by
//   stored-values.ts; pg's own parser would read them in the process's local time zone.
// - int8 (counts) comes back as bigint, as every other 64-bit integer does.
// - A transaction has a pooled connection to itself from BEGIN to COMMIT. When ending it fails
//   (the server restarted mid-transaction) or it runs past TRANSACTION_TIMEOUT_MS, the connection
//   is dropped from the pool rather than given back, so a broken connection is never reused and a
//   failed end never keeps one checked out.
import type pg from "pg";
import { checkedParameters, type Connection, type RawRows, type Store, TRANSACTION_TIMEOUT_MS, TransactionExpired } from "./connection.ts";

const INT8 = 20;
const TIMESTAMP_WITHOUT_TIME_ZONE = 1114;

/** The pool's type parsers: timestamps as text, 64-bit integers as bigint, the rest as pg reads them. */
export function postgresTypes(driver: typeof pg): { getTypeParser: typeof pg.types.getTypeParser } {
  const getTypeParser = ((oid: number, format?: "text" | "binary") => {
    if (oid === TIMESTAMP_WITHOUT_TIME_ZONE && format !== "binary") return (text: string) => text;
    if (oid === INT8 && format !== "binary") return (text: string) => BigInt(text);
    return driver.types.getTypeParser(oid, format);
  }) as typeof pg.types.getTypeParser;
  return { getTypeParser };
}

export class PostgresStore implements Store {
  constructor(
    readonly pool: pg.Pool,
    private readonly transactionTimeoutMs = TRANSACTION_TIMEOUT_MS,
  ) {}

  async query(sql: string, parameters: readonly unknown[]): Promise<RawRows> {
    return (await this.pool.query(sql, [...checkedParameters(parameters)])).rows;
  }

  async execute(sql: string, parameters: readonly unknown[]): Promise<number> {
    return (await this.pool.query(sql, [...checkedParameters(parameters)])).rowCount ?? 0;
  }

  async transaction<T>(work: (tx: Connection) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let released = false;
    let expired = false;
    const release = (drop?: Error) => {
      if (released) return;
      released = true;
      client.release(drop);
    };
    const run = (sql: string, parameters: readonly unknown[]) => {
      if (expired) return Promise.reject(new TransactionExpired());
      return client.query(sql, [...checkedParameters(parameters)]);
    };
    const tx: Connection = {
      query: async (sql, parameters) => (await run(sql, parameters)).rows,
      execute: async (sql, parameters) => (await run(sql, parameters)).rowCount ?? 0,
    };
    // Dropping the connection ends the transaction on the server (it rolls back) and fails what the work still sends.
    const timer = setTimeout(() => {
      expired = true;
      release(new TransactionExpired());
    }, this.transactionTimeoutMs);
    timer.unref();
    let drop: Error | undefined;
    try {
      await client.query("BEGIN");
      const result = await work(tx);
      if (expired) throw new TransactionExpired();
      await client.query("COMMIT");
      return result;
    } catch (error) {
      if (!expired) {
        try {
          await client.query("ROLLBACK");
        } catch (failed) {
          drop = failed as Error;
        }
      }
      throw error;
    } finally {
      clearTimeout(timer);
      release(drop);
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
