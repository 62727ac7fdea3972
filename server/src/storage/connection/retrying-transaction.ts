// A unit of work that lost a race to a concurrent writer is decided again from the start.
import { type Db, isUniqueViolation, type Tx } from "./database.ts";
import { isStalePlan } from "./pg-statement-names.ts";

/** Thrown by a unit of work whose compare-and-set found the row changed meanwhile. */
export class StaleWrite extends Error {}

const MAX_ATTEMPTS = 8;

/**
 * Runs `work` in a transaction, retrying from the start after a stale write, a unique
 * violation or a PostgreSQL serialization abort (each means another writer got there first), or
 * a prepared statement's plan made stale by a schema change (pg-statement-names.ts).
 */
export function retryingTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  return retrying(() => db.transaction(work));
}

/** Runs one attempt after another (each one whole unit of work) until one is not beaten by another writer. */
export async function retrying<T>(attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      const retryable = error instanceof StaleWrite || isUniqueViolation(error) || isSerializationFailure(error) || isStalePlan(error);
      if (!retryable || n >= MAX_ATTEMPTS) throw error;
      await new Promise((r) => setTimeout(r, Math.random() * 5 * n));
    }
  }
}

/** PostgreSQL's serialization failure (40001) and deadlock (40P01): the transaction was undone, and may simply run again. */
function isSerializationFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "40001" || code === "40P01";
}
