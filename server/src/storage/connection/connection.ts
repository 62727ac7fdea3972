// What Herald's statements run on: the store's own connection (better-sqlite3 or a node-postgres
// pool), never an ORM's client. Stores build statements with sql/sql.ts and run them with
// sql/run.ts on a Store or on one of its transactions; both are opened by database.ts.

/** Rows as the driver gives them; stored-values.ts decodes them as the models type them. */
export type RawRows = Record<string, unknown>[];

/** The store or one of its transactions: where a statement runs. */
export interface Connection {
  /** Runs a statement and returns its rows (none for a statement that returns none). */
  query(sql: string, parameters: readonly unknown[]): Promise<RawRows>;
  /** Runs a write and returns how many rows it changed. */
  execute(sql: string, parameters: readonly unknown[]): Promise<number>;
}

/** The store's connections: statements outside a transaction, transactions, and closing. */
export interface Store extends Connection {
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws. A
   * transaction that runs past its time limit (TRANSACTION_TIMEOUT_MS by default) is rolled back,
   * gives its connection back, and its later statements fail with TransactionExpired.
   */
  transaction<T>(work: (tx: Connection) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** How long a transaction may stay open: a stuck one must not hold a connection (or SQLite's writer) for ever. */
export const TRANSACTION_TIMEOUT_MS = 20_000;

/** Thrown by a statement of a transaction that ran past its time limit. */
export class TransactionExpired extends Error {
  constructor() {
    super("The transaction ran past its time limit and was rolled back");
  }
}

/** Checks what a statement binds: a time must have been encoded by sql.ts (storedTime), never bound as a Date. */
export function checkedParameters(parameters: readonly unknown[]): readonly unknown[] {
  for (const value of parameters) {
    if (value instanceof Date) throw new Error("a time was bound unencoded: bind it with Database.time (storage/sql/sql.ts, storedTime)");
  }
  return parameters;
}
