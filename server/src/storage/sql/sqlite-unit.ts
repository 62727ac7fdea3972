// One unit of NotificationStore's work on SQLite, run on the better-sqlite3 connection synchronously
// (an awaited transaction per write cost several times what SQLite did on these paths). Reads
// run at once, outside a transaction; writes are collected and run at commit(), synchronously, in
// one BEGIN IMMEDIATE ... COMMIT, so no other code on the event loop can run while it is open.
// What the unit decided is only valid if what it read still holds at commit:
// - other code of this process writes these tables only in NotificationStore's units or in the
//   store's transactions and writes (sqlite-store.ts), and all hold the writer lock (writer-lock.ts);
//   a unit runs in an exclusive section that holds it from its first read to its commit, so nothing
//   of this process changes them between the reads and the commit (a section past its time limit
//   has given the lock back: its statements fail);
// - another process (a CLI command, another instance) on the same file can. SQLite's
//   `PRAGMA data_version` moves when another connection committed; then the reads are run again
//   inside the transaction and must return what they did, or the unit is decided again (StaleWrite).
import { isDeepStrictEqual } from "node:util";
import type { Runnable } from "./shaped.ts";
import { StaleWrite } from "../connection/retrying-transaction.ts";
import type { SqliteSection, SqliteStore } from "../connection/sqlite-store.ts";
import { sqliteValues } from "../connection/sqlite-values.ts";
import type { RowWrite, StatementRunner } from "./statement-runner.ts";

interface Read {
  sql: string;
  params: unknown[];
  rows: unknown[];
}

export class SqliteUnit implements StatementRunner {
  readonly deferred = true;
  private readonly reads: Read[] = [];
  private readonly writes: RowWrite[] = [];
  /** The connection's data_version before the first read. */
  private version: unknown = null;

  private readonly section: SqliteSection;

  /** A unit in the exclusive section that holds `store`'s writer lock now (`section`, or the one running). */
  constructor(store: SqliteStore, section: SqliteSection = store.section()) {
    this.section = section;
  }

  read(statement: Runnable): Promise<Record<string, unknown>[]> {
    this.version ??= this.dataVersion();
    const { sql, parameters } = statement.compile();
    const params = sqliteValues(parameters);
    const rows = this.section.prepare(sql).all(...params) as Record<string, unknown>[];
    this.reads.push({ sql, params, rows });
    return Promise.resolve(rows);
  }

  write(writes: readonly RowWrite[]): Promise<void> {
    this.writes.push(...writes);
    return Promise.resolve();
  }

  /** Checks the reads and runs the writes as one transaction; nothing is written if any step fails. */
  commit(): void {
    if (this.writes.length === 0 && this.reads.length === 0) return;
    const connection = this.section;
    if (connection.inTransaction) throw new Error("A transaction is already open on the SQLite connection");
    // A unit that only read takes no write lock; one that writes takes it before checking its reads.
    this.section.prepare(this.writes.length > 0 ? "BEGIN IMMEDIATE" : "BEGIN").run();
    try {
      if (this.version !== null && this.dataVersion() !== this.version) this.checkReads();
      for (const write of this.writes) {
        const { sql, parameters } = write.statement.compile();
        const { changes } = this.section.prepare(sql).run(...sqliteValues(parameters));
        if (write.rows !== null && changes !== write.rows) throw new StaleWrite();
        write.counted?.(changes);
      }
      this.section.prepare("COMMIT").run();
    } catch (error) {
      if (connection.inTransaction) this.section.prepare("ROLLBACK").run();
      throw error;
    }
  }

  private checkReads(): void {
    for (const read of this.reads) {
      if (!isDeepStrictEqual(this.section.prepare(read.sql).all(...read.params), read.rows)) throw new StaleWrite();
    }
  }

  private dataVersion(): unknown {
    return (this.section.prepare("PRAGMA data_version").get() as { data_version: unknown }).data_version;
  }
}
