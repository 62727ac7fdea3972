// The SQLite connection prepares each statement once and runs it with each call's parameters.
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/storage/database.ts";
import { reusingStatements } from "../../src/storage/sqlite-statement-cache.ts";

describe("reused SQLite statements", () => {
  const opened: Database.Database[] = [];
  afterEach(() => opened.splice(0).forEach((db) => db.close()));

  function counted() {
    const connection = new Database(":memory:");
    opened.push(connection);
    let prepared = 0;
    const prepare = connection.prepare.bind(connection);
    connection.prepare = ((sql: string) => {
      prepared++;
      return prepare(sql);
    }) as typeof connection.prepare;
    return { db: reusingStatements(connection), prepared: () => prepared };
  }

  it("prepares a statement once and binds each call's own parameters, as the adapter calls it", () => {
    const { db, prepared } = counted();
    db.prepare("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)").run();
    const insert = (id: number, name: string) => (db.prepare("INSERT INTO t (id, name) VALUES (?, ?)") as never as Binder).bind([id, name]).run();
    insert(1, "one");
    insert(2, "two");
    const select = (id: number) => (db.prepare("SELECT id, name FROM t WHERE id = ?") as never as Binder).bind([id]);
    expect(select(1).reader).toBe(true);
    expect(select(1).columns().map((c) => c.name)).toEqual(["id", "name"]);
    expect(select(1).raw().all()).toEqual([[1, "one"]]);
    expect(select(2).raw().all()).toEqual([[2, "two"]]);
    // One CREATE, one INSERT and one SELECT, whatever the number of calls.
    expect(prepared()).toBe(3);
  });

  it("keeps a statement usable after a call failed", () => {
    const { db } = counted();
    db.prepare("CREATE TABLE u (id INTEGER PRIMARY KEY)").run();
    const insert = (id: number) => (db.prepare("INSERT INTO u (id) VALUES (?)") as never as Binder).bind([id]).run();
    insert(1);
    expect(() => insert(1)).toThrow(/UNIQUE/);
    insert(2);
    expect((db.prepare("SELECT count(*) AS n FROM u") as never as Binder).bind([]).raw().all()).toEqual([[2]]);
  });

  it("serves Prisma's SQLite client: reads see each call's parameters, transactions commit and roll back", async () => {
    const database = await openDatabase("file::memory:");
    try {
      const values = await Promise.all([1, 2, 3].map((n) => database.db.$queryRawUnsafe<{ v: bigint }[]>("SELECT ? + 1 AS v", n)));
      expect(values.map((rows) => Number(rows[0]!.v))).toEqual([2, 3, 4]);
      await database.db.$executeRawUnsafe(`CREATE TABLE "kv" ("k" TEXT PRIMARY KEY, "v" TEXT)`);
      await database.db.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`INSERT INTO "kv" VALUES (?, ?)`, "a", "1");
      });
      await expect(
        database.db.$transaction(async (tx) => {
          await tx.$executeRawUnsafe(`INSERT INTO "kv" VALUES (?, ?)`, "b", "2");
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      expect(await database.db.$queryRawUnsafe(`SELECT "k" FROM "kv" ORDER BY "k"`)).toEqual([{ k: "a" }]);
    } finally {
      await database.close();
    }
  });
});

interface Binder {
  reader: boolean;
  bind(params: unknown[]): { reader: boolean; run(): unknown; columns(): { name: string }[]; raw(): { all(): unknown[] } };
}
