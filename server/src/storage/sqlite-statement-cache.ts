// Prisma's SQLite adapter prepares every query anew and binds its parameters to the fresh
// statement (`prepare(sql).bind(args)`); better-sqlite3 lets a statement be bound only once, so the
// adapter cannot reuse one. Preparing was about 10% of the list path's busy time (the page
// statement is long) and 5-7% of the write paths'. This hands the adapter a connection whose
// prepare() returns the statement prepared earlier for the same SQL, behind a small object that
// passes the parameters with each run instead of binding them to the statement.
// better-sqlite3 runs each statement to completion synchronously, so one statement never serves
// two queries at once.
import type { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type BetterSqlite3 from "better-sqlite3";
import { adaptingConnections, connectionSlot } from "./sqlite-adapter-hooks.ts";

/** Statements kept per connection (least recently used dropped first); the hot paths use a few dozen. */
const MAX_STATEMENTS = 256;

export type Statement = BetterSqlite3.Statement<unknown[]>;

// A statement's columns are fixed once it is prepared (a migration needs the server restarted),
// and better-sqlite3 builds the list anew on every call: 3% of the list path's busy time.
const columnsOf = new WeakMap<Statement, BetterSqlite3.ColumnDefinition[]>();

/** What the adapter uses of a statement: run() as is, or bind() and then run(), columns(), raw().all(). */
class CachedStatement {
  constructor(private readonly statement: Statement) {}

  get reader(): boolean {
    return this.statement.reader;
  }

  run(): BetterSqlite3.RunResult {
    return this.statement.run();
  }

  bind(params: unknown[]): BoundCall {
    return new BoundCall(this.statement, params);
  }
}

class BoundCall {
  constructor(
    private readonly statement: Statement,
    private readonly params: unknown[],
  ) {}

  get reader(): boolean {
    return this.statement.reader;
  }

  run(): BetterSqlite3.RunResult {
    return this.statement.run(...this.params);
  }

  columns(): BetterSqlite3.ColumnDefinition[] {
    let columns = columnsOf.get(this.statement);
    if (!columns) columnsOf.set(this.statement, (columns = this.statement.columns()));
    return columns;
  }

  raw(): { all(): unknown[] } {
    return { all: () => this.statement.raw(true).all(...this.params) };
  }
}

/**
 * `prepare`, remembering what it prepared per SQL text (least recently used dropped first). Each
 * user keeps its own: statements carry modes (raw, pluck) that must not leak from one to another.
 */
export function statementLru(prepare: (sql: string) => Statement): (sql: string) => Statement {
  const statements = new Map<string, Statement>();
  return (sql) => {
    let statement = statements.get(sql);
    if (statement) {
      // Most recently used last: the first entry is the one to drop.
      statements.delete(sql);
    } else {
      statement = prepare(sql);
      if (statements.size >= MAX_STATEMENTS) statements.delete(statements.keys().next().value!);
    }
    statements.set(sql, statement);
    return statement;
  };
}

/** A better-sqlite3 connection whose prepare() reuses statements; everything else is the connection itself. */
export function reusingStatements(connection: BetterSqlite3.Database): BetterSqlite3.Database {
  const prepared = statementLru((sql) => connection.prepare<unknown[]>(sql));
  const prepare = (sql: string): CachedStatement => new CachedStatement(prepared(sql));
  return new Proxy(connection, {
    get(target, property) {
      if (property === "prepare") return prepare;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The same adapter factory, whose connections reuse their prepared statements. */
export function withStatementCache(factory: PrismaBetterSQLite3): PrismaBetterSQLite3 {
  return adaptingConnections(factory, (adapter) => {
    const slot = connectionSlot(adapter, "reusingStatements");
    slot.client = reusingStatements(slot.client);
  });
}
