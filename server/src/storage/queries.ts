// Runs built statements (sql.ts) on the store's connection or inside a unit of work. Prisma's
// client still holds the connections and transactions; statements are no longer its queries, so
// this file and database.ts are where a change of driver would land.
import type { Compilable } from "kysely";
import type { Db, Provider, Tx } from "./database.ts";
import { type Builder, sqlFor, storedTime } from "./sql.ts";
import { decodeRow, type Row, type Table } from "./stored-values.ts";

/** The client, or one of its transactions. */
export type Connection = Db | Tx;

export class Queries {
  readonly build: Builder;

  constructor(readonly provider: Provider) {
    this.build = sqlFor(provider);
  }

  /** A time as the store keeps it: every Date a statement binds goes through here. */
  time(value: Date) {
    return storedTime(this.provider, value);
  }

  /** Rows of one table (any subset of its columns), decoded as the models type them. */
  async rows<T extends Table>(on: Connection, table: T, query: Compilable): Promise<Row<T>[]> {
    return (await this.raw(on, query)).map((row) => decodeRow(table, row));
  }

  async first<T extends Table>(on: Connection, table: T, query: Compilable): Promise<Row<T> | null> {
    return (await this.rows(on, table, query))[0] ?? null;
  }

  /** Rows as the driver gives them: for aggregates and joins, which decode what they select. */
  raw(on: Connection, query: Compilable): Promise<Record<string, unknown>[]> {
    const { sql, parameters } = compiled(query);
    return this.compiled(on, sql, parameters);
  }

  /** Runs a statement compiled elsewhere (the scanner's reads, which its thread also runs on a connection of its own). */
  compiled(on: Connection, sql: string, parameters: readonly unknown[]): Promise<Record<string, unknown>[]> {
    return on.$queryRawUnsafe<Record<string, unknown>[]>(sql, ...parameters);
  }

  /** Runs a write; the number of rows it touched. */
  execute(on: Connection, query: Compilable): Promise<number> {
    const { sql, parameters } = compiled(query);
    return on.$executeRawUnsafe(sql, ...parameters);
  }
}

/** The statement's text and values; a Date must have been bound with Queries.time, never as itself. */
function compiled(query: Compilable): { sql: string; parameters: readonly unknown[] } {
  const statement = query.compile();
  if (statement.parameters.some((value) => value instanceof Date)) {
    throw new Error("a time was bound unencoded: bind it with Queries.time (storage/queries.ts)");
  }
  return statement;
}
