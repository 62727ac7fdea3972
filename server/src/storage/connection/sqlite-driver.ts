// The one module that loads the SQLite driver, @photostructure/sqlite: Node's own node:sqlite
// (SQLite's C API as Node 22+ exposes it) published for Node 20 with its binaries inside the npm
// package, so an install compiles nothing (better-sqlite3 compiled SQLite for about 50 s of every
// `npm ci`). What the stores need of it, and the driver does not give as they need it:
// - a statement that says whether it returns rows (`reader`) and whether it only reads
//   (`readonly`): the writer lock's rule is that a statement prepared outside it must be a read,
//   and SQLite's authorizer tells exactly which tables and actions a statement touches as it is
//   prepared;
// - errors that name SQLite's extended result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT_UNIQUE`)
//   in `code`, where the stores' error checks read it (the driver's own `code` is one value for
//   every SQLite error);
// - the count of changed rows as a number;
// - a close that lets the write-ahead log go. The driver's close leaves a connection whose statements
//   are still referenced open until they are garbage-collected (it does not finalize them, and
//   SQLite then keeps the connection as a zombie), so the log and its index stayed beside the file
//   after a clean shutdown. Leaving WAL mode first checkpoints and removes both; the server sets
//   WAL again when it opens the store. test/storage/sqlite-driver.test.ts says when the driver
//   no longer needs this.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { constants, DatabaseSync, type DatabaseSyncInstance, type StatementSyncInstance } from "@photostructure/sqlite";

export interface SqliteOpenOptions {
  /** Read-only connection: a statement that would write fails in SQLite. */
  readOnly?: boolean;
  /** SQLite's own busy timeout: a call waits (blocking its thread) this long for another process's lock. */
  timeoutMs: number;
  /** Integers come back as bigint (safe for 64-bit values) instead of number. */
  bigInts?: boolean;
  /**
   * The file is read as it is, with no locking and no -wal or -shm file created beside it (SQLite's
   * `immutable` URI parameter): for a store no process has open.
   */
  immutable?: boolean;
}

/** What a statement that changes rows reports. */
export interface RunResult {
  changes: number;
}

/** Actions a statement may take and still only read (SQLite's authorizer codes). */
const READ_ACTIONS = new Set<number>([constants.SQLITE_READ, constants.SQLITE_SELECT, constants.SQLITE_FUNCTION, constants.SQLITE_RECURSIVE]);

/** SQLite's extended result codes the stores tell apart, by number (sqlite3.h). */
const EXTENDED_CODES = new Map<number, string>([
  [5, "SQLITE_BUSY"],
  [261, "SQLITE_BUSY_RECOVERY"],
  [517, "SQLITE_BUSY_SNAPSHOT"],
  [773, "SQLITE_BUSY_TIMEOUT"],
  [6, "SQLITE_LOCKED"],
  [19, "SQLITE_CONSTRAINT"],
  [275, "SQLITE_CONSTRAINT_CHECK"],
  [787, "SQLITE_CONSTRAINT_FOREIGNKEY"],
  [1299, "SQLITE_CONSTRAINT_NOTNULL"],
  [1555, "SQLITE_CONSTRAINT_PRIMARYKEY"],
  [1811, "SQLITE_CONSTRAINT_TRIGGER"],
  [2067, "SQLITE_CONSTRAINT_UNIQUE"],
  [8, "SQLITE_READONLY"],
]);

/** The same error, its `code` naming SQLite's extended result code (the primary code's name where the extended one is not listed). */
export function namedSqliteError(error: unknown): unknown {
  if (typeof error === "object" && error !== null && "sqliteExtendedCode" in error) {
    const e = error as { code?: unknown; sqliteExtendedCode?: unknown; sqliteCodeName?: unknown };
    const name = EXTENDED_CODES.get(Number(e.sqliteExtendedCode)) ?? e.sqliteCodeName;
    if (typeof name === "string") e.code = name;
  }
  return error;
}

export class SqliteStatement {
  /** The result's column names, in order (empty for a statement that returns no rows). */
  private readonly names: string[];

  constructor(
    private readonly statement: StatementSyncInstance,
    /** Whether it only reads: no write, no transaction control, no pragma. */
    readonly readonly: boolean,
  ) {
    this.names = statement.columns().map((column) => column.name);
    // Rows are plain objects: a column of this name would set the row's prototype instead.
    if (this.names.includes("__proto__")) throw new Error('A result column may not be named "__proto__"');
    // Rows come from the driver as arrays and become objects here: the driver's own objects cost
    // about a third more on the stores' wide rows (a page of 20 notifications: 165 µs, against
    // 114-144 µs this way).
    if (this.names.length > 0) statement.setReturnArrays(true);
  }

  /** Whether it returns rows (a SELECT, or a write with RETURNING). */
  get reader(): boolean {
    return this.names.length > 0;
  }

  all(...values: unknown[]): Record<string, unknown>[] {
    let rows: unknown[][];
    try {
      rows = this.statement.all(...values) as unknown[][];
    } catch (error) {
      throw namedSqliteError(error);
    }
    const objects = new Array<Record<string, unknown>>(rows.length);
    for (let i = 0; i < rows.length; i++) objects[i] = this.object(rows[i]!);
    return objects;
  }

  get(...values: unknown[]): Record<string, unknown> | undefined {
    let row: unknown[] | undefined;
    try {
      row = this.statement.get(...values) as unknown[] | undefined;
    } catch (error) {
      throw namedSqliteError(error);
    }
    return row === undefined ? undefined : this.object(row);
  }

  private object(row: unknown[]): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    const names = this.names;
    for (let i = 0; i < names.length; i++) object[names[i]!] = row[i];
    return object;
  }

  run(...values: unknown[]): RunResult {
    try {
      return { changes: Number(this.statement.run(...values).changes) };
    } catch (error) {
      throw namedSqliteError(error);
    }
  }
}

export class SqliteConnection {
  private constructor(
    private readonly db: DatabaseSyncInstance,
    /** Whether close() leaves WAL mode first (a writable file; see the top of this file). */
    private readonly releasesLogOnClose: boolean,
  ) {}

  static open(file: string, options: SqliteOpenOptions): SqliteConnection {
    let location: string | URL = file;
    if (options.immutable) {
      location = pathToFileURL(resolve(file));
      location.searchParams.set("immutable", "1");
    }
    try {
      const db = new DatabaseSync(location, { readOnly: options.readOnly ?? false, timeout: options.timeoutMs, readBigInts: options.bigInts ?? false });
      return new SqliteConnection(db, !options.readOnly && !options.immutable && file !== ":memory:");
    } catch (error) {
      throw namedSqliteError(error);
    }
  }

  /** Prepares `sql`, asking SQLite's authorizer as it does whether the statement only reads. */
  prepare(sql: string): SqliteStatement {
    let readonly = true;
    this.db.setAuthorizer((action) => {
      if (!READ_ACTIONS.has(action)) readonly = false;
      return constants.SQLITE_OK;
    });
    try {
      const statement = this.db.prepare(sql);
      return new SqliteStatement(statement, readonly);
    } catch (error) {
      throw namedSqliteError(error);
    } finally {
      this.db.setAuthorizer(null);
    }
  }

  /** Runs one or more statements that return nothing (pragmas, a migration's script). */
  exec(sql: string): void {
    try {
      this.db.exec(sql);
    } catch (error) {
      throw namedSqliteError(error);
    }
  }

  get inTransaction(): boolean {
    return this.db.isTransaction;
  }

  get open(): boolean {
    return this.db.isOpen;
  }

  close(): void {
    if (!this.db.isOpen) return;
    if (this.releasesLogOnClose) {
      try {
        if (!this.db.isTransaction) this.db.exec("PRAGMA journal_mode = DELETE");
      } catch {
        // Another connection has the file open: the log stays for it, as SQLite's own close would leave it.
      }
    }
    this.db.close();
  }
}
