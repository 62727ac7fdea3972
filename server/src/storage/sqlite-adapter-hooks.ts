// Prisma's better-sqlite3 adapter keeps its connection in `client`, on the adapter object its
// factory connects (the adapter and its transactions read it from there). Herald reaches it twice:
// to reuse prepared statements (sqlite-statement-cache.ts) and to run units of work and share one
// writer lock (sqlite-writer.ts). The adapter's version is pinned; a new one that moved the
// connection fails here, at connect, with a clear error.
import type { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type BetterSqlite3 from "better-sqlite3";

export type Adapter = Awaited<ReturnType<PrismaBetterSQLite3["connect"]>>;

/** The adapter's connection slot, checked. */
export function connectionSlot(adapter: Adapter, usedBy: string): { client: BetterSqlite3.Database } {
  const held = adapter as unknown as { client: BetterSqlite3.Database };
  if (!held.client || typeof held.client.prepare !== "function" || typeof adapter.startTransaction !== "function") {
    throw new Error(`The SQLite adapter no longer keeps its connection in \`client\`: check ${usedBy} against its new version`);
  }
  return held;
}

/** The same adapter factory, with `adapt` applied to every adapter it connects. */
export function adaptingConnections(factory: PrismaBetterSQLite3, adapt: (adapter: Adapter) => void): PrismaBetterSQLite3 {
  const connect = async (): Promise<Adapter> => {
    const adapter = await factory.connect();
    adapt(adapter);
    return adapter;
  };
  return new Proxy(factory, {
    get(target, property) {
      if (property === "connect") return connect;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
