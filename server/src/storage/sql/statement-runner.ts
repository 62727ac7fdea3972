// Where NotificationTx's statements run: in one of the store's transactions (PostgreSQL, and
// units that also write through other stores), or in a SQLite unit of work (sqlite-unit.ts) that
// reads at once and writes everything at its commit.
import type { DeleteQueryBuilder, InsertQueryBuilder, UpdateQueryBuilder } from "kysely";
import type { Connection } from "../connection/connection.ts";
import * as run from "./run.ts";
import { StaleWrite } from "../connection/retrying-transaction.ts";
import type { Runnable, ShapedRun } from "./shaped.ts";
import type { DB } from "./sql.ts";

/** A built statement that changes rows (a builder, or a shaped one that can give its builder: appendEvents may run it inside its own). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type WriteBuilder = UpdateQueryBuilder<DB, any, any, any> | InsertQueryBuilder<DB, any, any> | DeleteQueryBuilder<DB, any, any>;
export type WriteQuery = WriteBuilder | ShapedRun<WriteBuilder>;

/**
 * A write that must touch exactly `rows` rows (null: any number), or the rows changed since they
 * were read (a StaleWrite). Built, not yet run: appendEvents can carry the last one in its own statement.
 */
export interface RowWrite {
  statement: WriteQuery;
  rows: number | null;
  /** Told how many rows the statement changed, once it ran (before its transaction commits). */
  counted?: (rows: number) => void;
}

export interface StatementRunner {
  /** Runs a statement that returns rows, now. */
  read(statement: Runnable): Promise<Record<string, unknown>[]>;
  /** Runs the writes in order, now or at the unit's commit; StaleWrite when one touched another number of rows than it must. */
  write(writes: readonly RowWrite[]): Promise<void>;
  /** True when writes wait for the unit's commit (which then checks that what was read still holds). */
  readonly deferred: boolean;
}

/** Statements in one of the store's transactions, each run when asked. */
export class TransactionRunner implements StatementRunner {
  readonly deferred = false;

  constructor(private readonly tx: Connection) {}

  read(statement: Runnable): Promise<Record<string, unknown>[]> {
    return run.raw(this.tx, statement);
  }

  async write(writes: readonly RowWrite[]): Promise<void> {
    for (const write of writes) {
      const rows = await run.execute(this.tx, write.statement);
      if (write.rows !== null && rows !== write.rows) throw new StaleWrite();
      write.counted?.(rows);
    }
  }
}
