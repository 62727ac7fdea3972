// Raw rows as the models type them. A statement hands back what the driver gives: the stored form
// of a time (SQLite keeps DateTime as ISO-8601 text, or epoch milliseconds; the PostgreSQL pools
// keep `timestamp` as text, see pg-store.ts), integers as bigint, booleans as 0/1 on SQLite. Stored times are UTC. The kinds come from the models
// (generated/columns.ts), so a new column needs nothing here.
import type { Selectable } from "kysely";
import { tableColumns } from "../generated/columns.ts";
import type { DB } from "../generated/database.ts";

export type Table = keyof typeof tableColumns;
export type Row<T extends Table> = Selectable<DB[T]>;

/** A stored time as a Date (null stays null). */
export function storedDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  if (typeof value === "number" || typeof value === "bigint") return new Date(Number(value));
  const text = String(value).replace(" ", "T");
  return new Date(/(Z|[+-]\d\d:?\d\d)$/.test(text) ? text : `${text}Z`);
}

const decoders = {
  time: storedDate,
  integer: (value: unknown) => (value === null || value === undefined ? null : Number(value)),
  boolean: (value: unknown) => (value === null || value === undefined ? null : value === true || Number(value) === 1),
} as const;

/** One raw row of `table` (its own columns, any subset) with its values decoded by kind. */
export function decodeRow<T extends Table>(table: T, raw: Record<string, unknown>): Row<T> {
  return decodeInPlace(table, { ...raw });
}

/** decodeRow on a row of the caller's own making, changed in place. */
export function decodeInPlace<T extends Table>(table: T, row: Record<string, unknown>): Row<T> {
  const kinds = tableColumns[table].kinds as Readonly<Record<string, keyof typeof decoders>>;
  for (const column in kinds) {
    if (column in row) row[column] = decoders[kinds[column]!](row[column]);
  }
  return row as Row<T>;
}

/** The table's columns, for checking a column name before it is spliced into a statement. */
export function columnsOf(table: Table): ReadonlySet<string> {
  let columns = columnSets.get(table);
  if (!columns) columnSets.set(table, (columns = new Set(tableColumns[table].columns)));
  return columns;
}
const columnSets = new Map<Table, ReadonlySet<string>>();

/** Whether a column of the table holds a time. */
export function isTimeColumn(table: Table, column: string): boolean {
  return (tableColumns[table].kinds as Readonly<Record<string, string>>)[column] === "time";
}
