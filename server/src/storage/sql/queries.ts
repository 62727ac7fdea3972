// Runs built statements (sql.ts) on the store or inside one of its transactions (connection.ts).
import type { Compilable, CompiledQuery } from "kysely";
import type { Connection } from "../connection/connection.ts";
import type { Provider } from "../connection/database-url.ts";
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

  /** Runs a kept statement (see keptStatement) with its values, in the order of its placeholders. */
  kept<A extends readonly unknown[]>(on: Connection, statement: KeptStatement<A>, ...values: A): Promise<Record<string, unknown>[]> {
    return on.query(statement.text(this.provider), values);
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

export interface KeptStatement<A extends readonly unknown[]> {
  /** The statement's text in the provider's dialect, compiled on first use. */
  text(provider: Provider): string;
  /** The values a call binds: a type only, never set. */
  readonly valuesType?: A;
}

/**
 * A statement whose text never changes, for the look-ups every publish or stream makes: built and
 * compiled once per dialect, so a call binds its values and builds nothing. `build` is called with
 * the placeholders, and every value the statement binds must be one of them, in order (a constant
 * such as a LIMIT would be bound too: write it with sql.lit); anything else fails at first use.
 */
export function keptStatement<A extends readonly unknown[]>(build: (b: Builder, ...values: A) => Compilable, ...placeholders: A): KeptStatement<A> {
  const texts = new Map<Provider, string>();
  return {
    text(provider) {
      let text = texts.get(provider);
      if (text === undefined) {
        const compiled: CompiledQuery = build(sqlFor(provider), ...placeholders).compile();
        const bindsPlaceholders = compiled.parameters.length === placeholders.length && compiled.parameters.every((p, i) => p === placeholders[i]);
        if (!bindsPlaceholders) throw new Error(`a kept statement binds ${JSON.stringify(compiled.parameters)}, not its placeholders ${JSON.stringify(placeholders)}: ${compiled.sql}`);
        text = compiled.sql;
        texts.set(provider, text);
      }
      return text;
    },
  };
}
