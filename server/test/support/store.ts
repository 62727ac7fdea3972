// Reads and writes a running Herald's store the way its own stores do (the statement builder,
// storage/sql/sql.ts, and the calls of storage/sql/run.ts), for tests that check what was written or prepare a row the API cannot make.
// Rows come back decoded as the models type them: times as Dates, integers as numbers.
import type { Herald } from "@herald/server/app";
import * as run from "@herald/server/storage/run";
import type { Compilable, Kysely, Selectable, SelectQueryBuilder } from "kysely";
type Database = Herald["database"];
type DB = Database["build"] extends Kysely<infer D> ? D : never;
type Table = keyof DB;
export type Row<T extends Table> = Selectable<DB[T]>;
type Filter<T extends Table> = (query: SelectQueryBuilder<DB, T, any>) => SelectQueryBuilder<DB, T, any>;
export interface StoreProbe {
  /** The builder, for statements the shortcuts below do not cover. */
  build: Database["build"];
  /** A time as the store keeps it: bind every Date through this. */
  time(value: Date): ReturnType<Database["time"]>;
  /** Every column of the table's rows the filter keeps (all rows without one). */
  rows<T extends Table>(table: T, filter?: Filter<T>): Promise<Row<T>[]>;
  /** Only these columns of the rows the filter keeps, decoded. */
  pick<T extends Table, C extends keyof DB[T] & string>(table: T, columns: readonly C[], filter?: Filter<T>): Promise<Pick<Row<T>, C & keyof Row<T>>[]>;
  /** The first such row, or null. */
  first<T extends Table>(table: T, filter?: Filter<T>): Promise<Row<T> | null>;
  /** How many rows the filter keeps. */
  count<T extends Table>(table: T, filter?: Filter<T>): Promise<number>;
  /** Runs a built statement (an update, an insert, a delete); the rows it changed. */
  execute(statement: Compilable): Promise<number>;
  /** Runs a built select; its rows as the driver gives them (for joins and aggregates). */
  raw(statement: Compilable): Promise<Record<string, unknown>[]>;
  /** Runs SQL text (DDL, triggers, provider-specific statements); the rows it returned, if any. */
  sql(text: string, ...parameters: unknown[]): Promise<Record<string, unknown>[]>;
}
export function storeOf(database: Database): StoreProbe {
  const { build, db: on } = database;
  const select = (table: Table, filter?: Filter<any>) => {
    const query = build.selectFrom(table as any);
    return filter ? filter(query) : query;
  };
  return {
    build,
    time: (value) => database.time(value),
    rows: (table, filter) => run.rows(on, table, select(table, filter as any).selectAll()) as Promise<any[]>,
    first: (table, filter) => run.first(on, table, select(table, filter as any).selectAll()) as Promise<any>,
    pick: (table, columns, filter) => run.rows(on, table, select(table, filter as any).select(columns as any)) as Promise<any[]>,
    count: async (table, filter) => {
      const [row] = await run.raw(
        on,
        select(table, filter as any).select((eb) => eb.fn.countAll().as("n")),
      );
      return Number(row?.n ?? 0);
    },
    execute: (statement) => run.execute(on, statement),
    raw: (statement) => run.raw(on, statement),
    sql: (text, ...parameters) => on.query(text, parameters),
  };
}
