// The production store: a node-postgres pool, opened here.
// - Columns come back as pg-types.ts says (timestamps as text read as UTC, int8 as bigint).
// - A transaction has a pooled connection to itself from BEGIN to COMMIT. When ending it fails
//   (the server restarted mid-transaction) or it runs past TRANSACTION_TIMEOUT_MS, the connection
//   is dropped from the pool rather than given back, so a broken connection is never reused and a
//   failed end never keeps one checked out.
// - Statements with parameters run prepared under a name (pg-statement-names.ts says which, and
//   what happens when a schema change makes a kept plan stale).
import type pg from "pg";
import { checkedParameters, type Connection, type RawRows, type Store, TRANSACTION_TIMEOUT_MS, TransactionExpired } from "./connection.ts";
import { isStalePlan, StatementNames } from "./pg-statement-names.ts";

export class PostgresStore implements Store {
  readonly names = new StatementNames();

  constructor(
    readonly pool: pg.Pool,
    private readonly transactionTimeoutMs = TRANSACTION_TIMEOUT_MS,
  ) {}

  async query(sql: string, parameters: readonly unknown[]): Promise<RawRows> {
    return (await this.#pooled(sql, parameters)).rows;
  }

  async execute(sql: string, parameters: readonly unknown[]): Promise<number> {
    return (await this.#pooled(sql, parameters)).rowCount ?? 0;
  }

  #statement(sql: string, parameters: readonly unknown[]): pg.QueryConfig {
    const values = [...checkedParameters(parameters)];
    return { name: this.names.nameFor(sql, values.length), text: sql, values };
  }

  /** Outside a transaction a stale plan did not run, so the statement runs again, parsed anew. */
  async #pooled(sql: string, parameters: readonly unknown[]): Promise<pg.QueryResult> {
    try {
      return await this.pool.query(this.#statement(sql, parameters));
    } catch (error) {
      if (!isStalePlan(error)) throw error;
      this.names.renew();
      return this.pool.query(this.#statement(sql, parameters));
    }
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
      return client.query(this.#statement(sql, parameters)).catch((error: unknown) => {
        // PostgreSQL undid the transaction; the next attempt (retrying-transaction.ts) parses anew.
        if (isStalePlan(error)) this.names.renew();
        throw error;
      });
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
