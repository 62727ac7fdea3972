// Runs built statements (sql.ts) on the store or inside one of its transactions (connection.ts).
import type { Compilable } from "kysely";
import type { Connection } from "./connection.ts";
import type { Provider } from "./database-url.ts";
import { type Builder, sqlFor, storedTime } from "./sql.ts";
import { decodeRow, type Row, type Table } from "./stored-values.ts";

export type { Connection };

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

  /** The row a statement must return (an INSERT or UPDATE ... RETURNING); fails saying `missing` when it returned none. */
  async only<T extends Table>(on: Connection, table: T, query: Compilable, missing: string): Promise<Row<T>> {
    const row = await this.first(on, table, query);
    if (!row) throw new Error(missing);
    return row;
  }

  /** Rows as the driver gives them: for aggregates and joins, which decode what they select. */
  raw(on: Connection, query: Compilable): Promise<Record<string, unknown>[]> {
    const { sql, parameters } = query.compile();
    return this.compiled(on, sql, parameters);
  }

  /** Runs a statement compiled elsewhere (the scanner's reads, which its thread also runs on a connection of its own). */
  compiled(on: Connection, sql: string, parameters: readonly unknown[]): Promise<Record<string, unknown>[]> {
    return on.query(sql, parameters);
  }

  /** Runs a write; the number of rows it touched. */
  execute(on: Connection, query: Compilable): Promise<number> {
    const { sql, parameters } = query.compile();
    return on.execute(sql, parameters);
  }
}
