// The one rule for writing to the SQLite connection (all of Herald's queries share one): a unit of
// work holds the writer lock from its first read to its commit. Prisma's interactive transactions
// take the same lock before their BEGIN and give it back at their COMMIT or ROLLBACK (they hold
// BEGIN across awaits, so nothing else may start a transaction meanwhile), and NotificationStore's
// own units take it around their reads and their synchronous BEGIN IMMEDIATE ... COMMIT. So at most
// one transaction is open on the connection at any time, and none waits on another's BEGIN.
// Prisma's statements outside a transaction take no lock: the connection runs each to completion.
// While one of Prisma's interactive transactions is open they run inside it (the adapter has one
// connection for everything); NotificationStore's units never leave a BEGIN open across an await,
// so they add no such window.
import type { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type BetterSqlite3 from "better-sqlite3";
import { type Adapter, adaptingConnections, connectionSlot } from "./sqlite-adapter-hooks.ts";
import { type Statement, statementLru } from "./sqlite-statement-cache.ts";

type Transaction = Awaited<ReturnType<Adapter["startTransaction"]>>;

/** A first-come, first-served lock whose holders may await. */
export class WriterLock {
  private tail: Promise<void> = Promise.resolve();
  private held = false;

  /** Resolves with the release function once every earlier holder has released. */
  acquire(): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const turn = this.tail.then(() => {
      this.held = true;
      let done = false;
      return () => {
        if (done) return;
        done = true;
        this.held = false;
        release();
      };
    });
    this.tail = this.tail.then(() => released);
    return turn;
  }

  get isHeld(): boolean {
    return this.held;
  }
}

/** The SQLite connection Prisma's adapter opened, with the writer lock every transaction on it takes. */
export class SqliteWriter {
  readonly lock = new WriterLock();
  private current: BetterSqlite3.Database | null = null;
  private prepared: ((sql: string) => Statement) | null = null;

  /** The connection of the adapter connected last (Prisma connects again after a disconnect). */
  get connection(): BetterSqlite3.Database {
    if (!this.current || !this.current.open) throw new Error("The SQLite connection is not open");
    return this.current;
  }

  /** Runs `work` holding the writer lock; `work` must not start a Prisma transaction (it would wait for itself). */
  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.lock.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** A statement on the connection, prepared once per SQL text. Integers come back as bigint (the adapter's setting). */
  prepare(sql: string): Statement {
    const connection = this.connection;
    this.prepared ??= statementLru((text) => connection.prepare<unknown[]>(text));
    return this.prepared(sql);
  }

  /** Called by the adapter wrapper below with each new connection. */
  adopt(connection: BetterSqlite3.Database): void {
    this.current = connection;
    this.prepared = null;
  }
}

/**
 * The same adapter factory, whose connections are handed to `writer` and whose transactions take
 * `writer.lock` before BEGIN and release it when Prisma ends them (commit() and rollback() of the
 * driver adapter's Transaction, which Prisma calls after its COMMIT or ROLLBACK statement).
 */
export function sharingWriter(factory: PrismaBetterSQLite3, writer: SqliteWriter): PrismaBetterSQLite3 {
  return adaptingConnections(factory, (adapter) => {
    writer.adopt(connectionSlot(adapter, "sharingWriter").client);
    const start = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => {
      const release = await writer.lock.acquire();
      let transaction: Transaction;
      try {
        transaction = await start(isolationLevel);
      } catch (error) {
        release();
        throw error;
      }
      const commit = transaction.commit.bind(transaction);
      const rollback = transaction.rollback.bind(transaction);
      transaction.commit = () => commit().finally(release);
      transaction.rollback = () => rollback().finally(release);
      return transaction;
    };
  });
}
