// The one way Herald builds SQL: Kysely, typed by generated/database.ts (prisma-kysely, from
// prisma/models.prisma), for either dialect. Statements are only compiled here; whoever holds the
// connection runs them (a StatementRunner inside a unit of work, the scanner's own connection, the
// metadata reader), so building a statement never opens one.
import {
  type CompiledQuery,
  DummyDriver,
  type Expression,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type RawBuilder,
  sql,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";
import type { Provider } from "../connection/database-url.ts";
import type { DB } from "../generated/database.ts";

export { sql };
export type { DB };
export type Statement = CompiledQuery;
export type Builder = Kysely<DB>;

const builders = new Map<Provider, Builder>();

/** A statement builder of the provider's dialect (one per provider, stateless). */
export function sqlFor(provider: Provider): Builder {
  let builder = builders.get(provider);
  if (!builder) {
    const postgres = provider === "postgresql";
    builder = new Kysely<DB>({
      dialect: {
        createAdapter: () => (postgres ? new PostgresAdapter() : new SqliteAdapter()),
        createDriver: () => new DummyDriver(),
        createIntrospector: (db) => (postgres ? new PostgresIntrospector(db) : new SqliteIntrospector(db)),
        createQueryCompiler: () => (postgres ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
      },
    });
    builders.set(provider, builder);
  }
  return builder;
}

/**
 * A time as the store keeps and compares it (the one encoding of times): PostgreSQL timestamp(3)
 * holding UTC, SQLite ISO-8601 text ending "+00:00", which is what Prisma writes on both.
 */
export function storedTime(provider: Provider, value: Date | Expression<Date>): RawBuilder<Date> {
  // An expression (a shaped statement's slot) is bound as timeParameter binds a time when it runs.
  const bound = value instanceof Date ? timeParameter(provider, value) : value;
  return provider === "postgresql" ? sql<Date>`CAST(${bound} AS timestamp(3))` : sql<Date>`${bound}`;
}

/** The value storedTime binds for a time. */
export function timeParameter(provider: Provider, value: Date): string {
  const iso = value.toISOString();
  return provider === "postgresql" ? iso : iso.replace("Z", "+00:00");
}

/**
 * A read that locks the rows it returns until its transaction ends: `FOR UPDATE` on PostgreSQL.
 * SQLite has no row locks and needs none: its writer lock already runs one transaction at a time
 * (connection/writer-lock.ts).
 */
export function forUpdate<Q extends { forUpdate(): Q }>(provider: Provider, query: Q): Q {
  return provider === "postgresql" ? query.forUpdate() : query;
}
