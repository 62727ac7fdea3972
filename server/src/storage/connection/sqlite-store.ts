// The embedded store: one SQLite connection (sqlite-driver.ts) for the whole process, opened here,
// and the only way to write on it.
// - Statements are prepared once per SQL text (statement-lru.ts); preparing the long list
//   statement anew was about a tenth of the list path's time.
// - Integers come back as bigint (safe for 64-bit values); stored-values.ts decodes them by column.
// - Every write holds the writer lock (writer-lock.ts): a transaction from BEGIN to COMMIT, an
//   exclusive section (NotificationStore's units, sqlite-unit.ts) for its whole run, and a write
//   outside both for its one statement. There is only one connection, so a write that did not wait
//   for an open transaction would run inside it and be rolled back with it.
// - The driver enforces it: the connection itself is not handed out; a statement prepared outside
//   a transaction or section must be a read; a section offers no transaction (by its type), and
//   opening a transaction, a section or a store-level write inside one is refused at run time
//   (it would wait for itself) wherever the nesting guard runs (see `nesting`). Inside a
//   transaction the same mistake is not refused (work a transaction starts and does not await, such
//   as a request it lets in, may well write): it waits for the transaction's time limit.
import { AsyncLocalStorage } from "node:async_hooks";
import { type Connection, type RawRows, type Store, TRANSACTION_TIMEOUT_MS, TransactionExpired } from "./connection.ts";
import { SqliteConnection } from "./sqlite-driver.ts";
import { sqliteValues } from "./sqlite-values.ts";
import { type Statement, statementLru } from "./statement-lru.ts";
import { WriterLock } from "./writer-lock.ts";

export type { Statement };

/** A prepared statement that only reads: what the store prepares outside a transaction or section. */
export type ReadStatement = Omit<Statement, "run">;

/** A statement that returns rows and changes nothing (an INSERT ... RETURNING returns rows too). */
const isRead = (statement: Statement) => statement.reader && statement.readonly;

/** Runs a statement: its rows, or none for one that returns none. */
const rowsOf = (statement: Statement, values: unknown[]): RawRows => {
  if (statement.reader) return statement.all(...values) as RawRows;
  statement.run(...values);
  return [];
};

/** What an exclusive section may do on the connection: prepare statements (reads and writes). No transaction. */
export interface SqliteSection {
  /** A statement on the connection; fails with TransactionExpired once the section has ended or run past its time limit. */
  prepare(sql: string): Statement;
  /** Whether a transaction is open on the connection (one the section began and not yet ended). */
  readonly inTransaction: boolean;
}

/** How long a write waits for another process's lock on the file (a CLI command, a backup, `sqlite3` in a shell) before SQLITE_BUSY. */
export const SQLITE_BUSY_MS = 10_000;
/** The longest pause between two tries of a write that found the file locked. */
const BUSY_PAUSE_MAX_MS = 20;

/** SQLite's error when another connection holds the lock a statement needs (named by sqlite-driver.ts). */
const isBusy = (error: unknown) => (error as { code?: unknown } | null)?.code === "SQLITE_BUSY";

/**
 * Runs `attempt` (whole or not at all) until it does not find the file locked or `busyMs` has
 * passed; then the last SQLITE_BUSY goes to the caller (STORAGE_UNAVAILABLE). SQLite's own busy
 * timeout sleeps inside the call, which with a synchronous driver is the event loop: with it, a lock held
 * by another process froze every request, /health too. So the connection's timeout is 0 and the
 * waiting happens here, between tries, on timers.
 */
async function whenFree<T>(attempt: () => T, busyMs: number): Promise<T> {
  const deadline = performance.now() + busyMs;
  for (let pause = 1; ; pause = Math.min(pause * 2, BUSY_PAUSE_MAX_MS)) {
    try {
      return attempt();
    } catch (error) {
      if (!isBusy(error) || performance.now() + pause > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/** Refused: a transaction, section or store-level write inside an exclusive section of the same store. */
export class NestedWrite extends Error {
  constructor(attempted: string) {
    super(`${attempted} inside an exclusive section of the same SQLite store would wait for itself; write through the section`);
  }
}

/**
 * Which store's exclusive section the running code is in. Node 20's AsyncLocalStorage puts a hook on
 * every promise once used (2-3x the cost of a bare await, measured), so the guard runs where the
 * code is developed and tested, not in production (NODE_ENV=production), where a nesting mistake
 * waits for the section's or transaction's time limit and then fails instead of being refused.
 */
const nesting = process.env.NODE_ENV === "production" ? null : new AsyncLocalStorage<SqliteStore>();

export class SqliteStore implements Store {
  readonly lock = new WriterLock();
  /** The connection's state, to look at; statements go through the store, its transactions and sections. */
  readonly connection: Pick<SqliteConnection, "inTransaction" | "open">;
  private readonly prepared: (sql: string) => Statement;

  private constructor(
    private readonly sqlite: SqliteConnection,
    private readonly transactionTimeoutMs: number,
    private readonly busyMs: number,
  ) {
    this.connection = sqlite;
    this.prepared = statementLru((text) => sqlite.prepare(text));
  }

  /** Opens the file (":memory:" for a private in-memory store) with WAL, NORMAL sync and foreign keys. */
  static async open(file: string, options: { transactionTimeoutMs?: number; busyMs?: number } = {}): Promise<SqliteStore> {
    // No waiting inside a call (it would block the event loop): whenFree waits between tries.
    const connection = SqliteConnection.open(file, { timeoutMs: 0, bigInts: true });
    // WAL lets readers proceed while the single writer commits; NORMAL sync is durable in WAL mode
    // across application crashes (only an OS crash can lose the last transactions).
    connection.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON");
    return new SqliteStore(connection, options.transactionTimeoutMs ?? TRANSACTION_TIMEOUT_MS, options.busyMs ?? SQLITE_BUSY_MS);
  }

  /** A read on the connection, prepared once per SQL text; a statement that writes is refused (write through query/execute, a transaction or a section). */
  prepareRead(sql: string): ReadStatement {
    const statement = this.prepared(sql);
    if (!isRead(statement)) throw new Error(`A write prepared outside the writer lock: ${sql.slice(0, 80)}`);
    return statement;
  }

  /** A statement outside a transaction: a read runs at once, a write waits for the writer lock. */
  query(sql: string, parameters: readonly unknown[]): Promise<RawRows> {
    try {
      const statement = this.prepared(sql);
      const values = sqliteValues(parameters);
      // A read in WAL mode waits for no writer; one that finds the file locked all the same (the
      // log being recovered) is tried again like a write.
      if (isRead(statement)) {
        try {
          return Promise.resolve(statement.all(...values) as RawRows);
        } catch (error) {
          if (!isBusy(error)) throw error;
          return this.whenFree(() => statement.all(...values) as RawRows);
        }
      }
      return this.write("A store-level write", () => rowsOf(statement, values));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** A write outside a transaction: waits for the writer lock, then runs as one statement. */
  execute(sql: string, parameters: readonly unknown[]): Promise<number> {
    try {
      const statement = this.prepared(sql);
      return this.write("A store-level write", () => statement.run(...sqliteValues(parameters)).changes);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Runs `work` holding the writer lock, for code that reads and then writes synchronously on the
   * connection (sqlite-unit.ts) through the section it is given. The section opens no transaction
   * of the store's and the work must not either (refused: it would wait for itself).
   */
  async exclusive<T>(work: (section: SqliteSection) => Promise<T>): Promise<T> {
    this.refuseNested("An exclusive section");
    const release = await this.lock.acquire("exclusive");
    let open = true;
    const end = () => {
      if (!open) return;
      open = false;
      if (this.sqlite.inTransaction) this.prepared("ROLLBACK").run();
      this.current = null;
      release();
    };
    // A section past its time limit gives the writer back; its later statements fail.
    const timer = setTimeout(end, this.transactionTimeoutMs);
    timer.unref();
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const store = this;
    const handle: SqliteSection = {
      prepare: (sql) => {
        if (!open) throw new TransactionExpired();
        return store.prepared(sql);
      },
      get inTransaction() {
        return store.sqlite.inTransaction;
      },
    };
    this.current = handle;
    try {
      return await (nesting ? nesting.run(this, () => work(handle)) : work(handle));
    } finally {
      clearTimeout(timer);
      end();
    }
  }

  /** The section running now (the one holding the writer lock), for a unit that was not handed it. */
  section(): SqliteSection {
    if (!this.current) throw new Error("No exclusive section holds the SQLite writer lock");
    return this.current;
  }

  private current: SqliteSection | null = null;

  async transaction<T>(work: (tx: Connection) => Promise<T>): Promise<T> {
    this.refuseNested("A transaction");
    const release = await this.lock.acquire("transaction");
    let expired = false;
    const tx: Connection = {
      query: (sql, parameters) => (expired ? Promise.reject(new TransactionExpired()) : this.run(sql, parameters)),
      execute: (sql, parameters) => {
        if (expired) return Promise.reject(new TransactionExpired());
        try {
          return Promise.resolve(this.prepared(sql).run(...sqliteValues(parameters)).changes);
        } catch (error) {
          return Promise.reject(error);
        }
      },
    };
    const timer = setTimeout(() => {
      // Undoes what the work wrote and gives the writer back; the work's later statements fail.
      expired = true;
      if (this.sqlite.inTransaction) this.prepared("ROLLBACK").run();
      release();
    }, this.transactionTimeoutMs);
    timer.unref();
    try {
      // IMMEDIATE: the file's write lock is taken (and waited for) here, not by a write halfway through.
      await this.whenFree(() => this.prepared("BEGIN IMMEDIATE").run());
      const result = await work(tx);
      if (expired) throw new TransactionExpired();
      this.prepared("COMMIT").run();
      return result;
    } catch (error) {
      if (!expired && this.sqlite.inTransaction) this.prepared("ROLLBACK").run();
      throw error;
    } finally {
      clearTimeout(timer);
      release();
    }
  }

  close(): Promise<void> {
    this.sqlite.close();
    return Promise.resolve();
  }

  /** A statement inside a transaction that holds the lock: reads and writes at once. */
  private run(sql: string, parameters: readonly unknown[]): Promise<RawRows> {
    try {
      return Promise.resolve(rowsOf(this.prepared(sql), sqliteValues(parameters)));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** One write outside a transaction, under the writer lock. */
  private async write<T>(attempted: string, statement: () => T): Promise<T> {
    this.refuseNested(attempted);
    const release = await this.lock.acquire("write");
    try {
      return await this.whenFree(statement);
    } finally {
      release();
    }
  }

  /** Runs `attempt` (whole or not at all) once the file is not locked by another process; see whenFree above. */
  whenFree<T>(attempt: () => T): Promise<T> {
    return whenFree(attempt, this.busyMs);
  }

  private refuseNested(attempted: string): void {
    if (nesting?.getStore() === this) throw new NestedWrite(attempted);
  }
}
