// Prisma 6.19's transaction manager sends COMMIT or ROLLBACK itself and only afterwards asks the
// driver adapter to end the transaction, which is what releases its pg connection. When that
// statement fails (PostgreSQL restarted mid-transaction), the release never happens: ten such
// transactions used up the pool (max 10) and every later query of the instance waited forever.
// This wraps the adapter so that a failed COMMIT or ROLLBACK still gives its connection back; a
// connection that failed is not queryable, so the pool drops it instead of reusing it.
import type { PrismaPg } from "@prisma/adapter-pg";

type Adapter = Awaited<ReturnType<PrismaPg["connect"]>>;
type Transaction = Awaited<ReturnType<Adapter["startTransaction"]>>;
type Query = Parameters<Transaction["executeRaw"]>[0];

const ENDS_TRANSACTION = /^\s*(COMMIT|ROLLBACK)\s*;?\s*$/i;

/** The same adapter factory, whose transactions release their connection even when ending them fails. */
export function releasingFailedEnds(factory: PrismaPg): PrismaPg {
  return override(factory, "connect", async () => guardAdapter(await factory.connect()));
}

function guardAdapter(adapter: Adapter): Adapter {
  return override(adapter, "startTransaction", async (...args: Parameters<Adapter["startTransaction"]>) =>
    guardTransaction(await adapter.startTransaction(...args)),
  );
}

function guardTransaction(transaction: Transaction): Transaction {
  return override(transaction, "executeRaw", async (query: Query) => {
    try {
      return await transaction.executeRaw(query);
    } catch (error) {
      if (ENDS_TRANSACTION.test(query.sql)) await transaction.rollback().catch(() => undefined);
      throw error;
    }
  });
}

/** `target` with one method replaced; every other property read from it as it is. */
function override<T extends object, K extends keyof T>(target: T, name: K, replacement: T[K]): T {
  return new Proxy(target, {
    get(object, property) {
      if (property === name) return replacement;
      const value = Reflect.get(object, property, object);
      return typeof value === "function" ? value.bind(object) : value;
    },
  });
}
