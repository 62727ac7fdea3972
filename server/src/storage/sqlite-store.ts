// The embedded store: one better-sqlite3 connection for the whole process, opened here.
// - Statements are prepared once per SQL text (statement-lru.ts); preparing the long list
//   statement anew was about a tenth of the list path's time.
// - Integers come back as bigint (safe for 64-bit values); stored-values.ts decodes them by column.
// - A transaction holds the writer lock (writer-lock.ts) from BEGIN to COMMIT and may await in
//   between. A statement run outside a transaction while one is open runs inside it (there is only
//   one connection); NotificationStore's units (sqlite-unit.ts) never leave a BEGIN open across an
//   await, so they add no such window.
import type BetterSqlite3 from "better-sqlite3";
import { type Connection, type RawRows, type Store, TRANSACTION_TIMEOUT_MS, TransactionExpired } from "./connection.ts";
import { sqliteValues } from "./sqlite-values.ts";
import { type Statement, statementLru } from "./statement-lru.ts";
import { WriterLock } from "./writer-lock.ts";

export type { Statement };

/** How long a statement waits for another process's lock on the file (a CLI command beside a server) before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 10_000;

export class SqliteStore implements Store {
  readonly lock = new WriterLock();
  private readonly prepared: (sql: string) => Statement;

  private constructor(
    readonly connection: BetterSqlite3.Database,
    private readonly transactionTimeoutMs: number,
  ) {
    this.prepared = statementLru((text) => connection.prepare<unknown[]>(text));
  }

  /** Opens the file (":memory:" for a private in-memory store) with WAL, NORMAL sync and foreign keys. */
  static async open(file: string, options: { transactionTimeoutMs?: number } = {}): Promise<SqliteStore> {
    const { default: Sqlite } = await import("better-sqlite3");
    const connection = new Sqlite(file, { timeout: BUSY_TIMEOUT_MS });
    connection.defaultSafeIntegers(true);
    // WAL lets readers proceed while the single writer commits; NORMAL sync is durable in WAL mode
    // across application crashes (only an OS crash can lose the last transactions).
    connection.pragma("journal_mode = WAL");
    connection.pragma("synchronous = NORMAL");
    connection.pragma("foreign_keys = ON");
    return new SqliteStore(connection, options.transactionTimeoutMs ?? TRANSACTION_TIMEOUT_MS);
  }

  /** A statement on the connection, prepared once per SQL text. */
  prepare(sql: string): Statement {
    return this.prepared(sql);
  }

  query(sql: string, parameters: readonly unknown[]): Promise<RawRows> {
    try {
      const statement = this.prepare(sql);
      const values = sqliteValues(parameters);
      if (!statement.reader) {
        statement.run(...values);
        return Promise.resolve([]);
      }
      return Promise.resolve(statement.all(...values) as RawRows);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  execute(sql: string, parameters: readonly unknown[]): Promise<number> {
    try {
      return Promise.resolve(this.prepare(sql).run(...sqliteValues(parameters)).changes);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Runs `work` holding the writer lock; `work` must not start a transaction (it would wait for itself). */
  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.lock.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }

  async transaction<T>(work: (tx: Connection) => Promise<T>): Promise<T> {
    const release = await this.lock.acquire();
    let expired = false;
    const tx: Connection = {
      query: (sql, parameters) => (expired ? Promise.reject(new TransactionExpired()) : this.query(sql, parameters)),
      execute: (sql, parameters) => (expired ? Promise.reject(new TransactionExpired()) : this.execute(sql, parameters)),
    };
    const timer = setTimeout(() => {
      // Undoes what the work wrote and gives the writer back; the work's later statements fail.
      expired = true;
      if (this.connection.inTransaction) this.prepare("ROLLBACK").run();
      release();
    }, this.transactionTimeoutMs);
    timer.unref();
    try {
      this.prepare("BEGIN").run();
      const result = await work(tx);
      if (expired) throw new TransactionExpired();
      this.prepare("COMMIT").run();
      return result;
    } catch (error) {
      if (!expired && this.connection.inTransaction) this.prepare("ROLLBACK").run();
      throw error;
    } finally {
      clearTimeout(timer);
      release();
    }
  }

  close(): Promise<void> {
    if (this.connection.open) this.connection.close();
    return Promise.resolve();
  }
}
