// Runs a statement built with sql.ts on the store or on one of its transactions, and decodes the
// rows it returns as the models type them (stored-values.ts). Every store reaches its tables
// through these few calls; a notification unit of work runs its statements through the same
// calls in TransactionRunner or, on SQLite, through the unit (sqlite-unit.ts).
import type { Connection } from "../connection/connection.ts";
import type { Runnable } from "./shaped.ts";
import { decodeRow, type Row, type Table } from "./stored-values.ts";

/** Rows of one table (any subset of its columns), decoded as the models type them. */
export async function rows<T extends Table>(on: Connection, table: T, query: Runnable): Promise<Row<T>[]> {
  return (await raw(on, query)).map((row) => decodeRow(table, row));
}

export async function first<T extends Table>(on: Connection, table: T, query: Runnable): Promise<Row<T> | null> {
  return (await rows(on, table, query))[0] ?? null;
}

/** The row a statement must return (an INSERT or UPDATE ... RETURNING); fails saying `missing` when it returned none. */
export async function only<T extends Table>(on: Connection, table: T, query: Runnable, missing: string): Promise<Row<T>> {
  const row = await first(on, table, query);
  if (!row) throw new Error(missing);
  return row;
}

/** Rows as the driver gives them: for aggregates and joins, which decode what they select. */
export function raw(on: Connection, query: Runnable): Promise<Record<string, unknown>[]> {
  const { sql, parameters } = query.compile();
  return on.query(sql, parameters);
}

/** Runs a write; the number of rows it touched. */
export function execute(on: Connection, query: Runnable): Promise<number> {
  const { sql, parameters } = query.compile();
  return on.execute(sql, parameters);
}
