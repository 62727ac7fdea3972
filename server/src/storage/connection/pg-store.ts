// The production store: a node-postgres pool, opened here.
// - Columns come back as pg-types.ts says (timestamps as text read as UTC, int8 as bigint).
// - A transaction has a pooled connection to itself from BEGIN to COMMIT. When ending it fails
//   (the server restarted mid-transaction) or it runs past TRANSACTION_TIMEOUT_MS, the connection
//   is dropped from the pool rather than given back, so a broken connection is never reused and a
//   failed end never keeps one checked out.
import type pg from "pg";
import { checkedParameters, type Connection, type RawRows, type Store, TRANSACTION_TIMEOUT_MS, TransactionExpired } from "./connection.ts";

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
