// Prepared statements kept per connection, by SQL text. SQLite prepares a statement in about the
// time it runs a short one, and the list statement is long: preparing anew was about a tenth of
// the list path's busy time and 5-7% of the write paths'. The driver runs each statement to
// completion synchronously, so one statement never serves two queries at once.
import type { SqliteStatement } from "./sqlite-driver.ts";

/** Statements kept per connection (least recently used dropped first); the hot paths use a few dozen. */
const MAX_STATEMENTS = 256;

export type Statement = SqliteStatement;

/**
 * `prepare`, remembering what it prepared per SQL text (least recently used dropped first), one
 * cache per connection.
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
