// The embedded store's own connection (storage/connection/sqlite-store.ts): statements prepared once per text
// and run with each call's values, transactions that commit, roll back, take turns and end when
// they run past their time limit.
import { eventually } from "@herald/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { TransactionExpired } from "../../src/storage/connection/connection.ts";
import { SqliteConnection } from "../../src/storage/connection/sqlite-driver.ts";
import { SqliteStore } from "../../src/storage/connection/sqlite-store.ts";
import { statementLru } from "../../src/storage/connection/statement-lru.ts";

describe("prepared statements kept by text", () => {
  const opened: SqliteConnection[] = [];
  afterEach(() => opened.splice(0).forEach((db) => db.close()));

  function counted() {
    const connection = SqliteConnection.open(":memory:", { timeoutMs: 0 });
    opened.push(connection);
    let prepared = 0;
    const prepare = statementLru((sql) => {
      prepared++;
      return connection.prepare(sql);
    });
    return { prepare, prepared: () => prepared };
  }

  it("prepares a statement once and runs it with each call's own values", () => {
    const { prepare, prepared } = counted();
    prepare("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)").run();
    prepare("INSERT INTO t (id, name) VALUES (?, ?)").run(1, "one");
    prepare("INSERT INTO t (id, name) VALUES (?, ?)").run(2, "two");
    expect(prepare("SELECT id, name FROM t WHERE id = ?").all(1)).toEqual([{ id: 1, name: "one" }]);
    expect(prepare("SELECT id, name FROM t WHERE id = ?").all(2)).toEqual([{ id: 2, name: "two" }]);
    // One CREATE, one INSERT and one SELECT, whatever the number of calls.
    expect(prepared()).toBe(3);
  });

  it("keeps a statement usable after a call failed", () => {
    const { prepare } = counted();
    prepare("CREATE TABLE u (id INTEGER PRIMARY KEY)").run();
    prepare("INSERT INTO u (id) VALUES (?)").run(1);
    expect(() => prepare("INSERT INTO u (id) VALUES (?)").run(1)).toThrow(/UNIQUE/);
    prepare("INSERT INTO u (id) VALUES (?)").run(2);
    expect(prepare("SELECT count(*) AS n FROM u").get()).toEqual({ n: 2 });
  });
});

describe("the SQLite store", () => {
  const stores: SqliteStore[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });
  async function open(transactionTimeoutMs?: number) {
    const store = await SqliteStore.open(":memory:", { transactionTimeoutMs });
    stores.push(store);
    await store.execute(`CREATE TABLE "kv" ("k" TEXT PRIMARY KEY, "v" TEXT)`, []);
    return store;
  }
  const keys = async (store: SqliteStore) => (await store.query(`SELECT "k" FROM "kv" ORDER BY "k"`, [])).map((row) => row.k);

  it("reads with each call's values, integers as bigint, booleans bound as 0/1, and refuses a bare Date", async () => {
    const store = await open();
    const values = await Promise.all([1, 2, 3].map((n) => store.query("SELECT ? + 1 AS v", [n])));
    expect(values.map((rows) => Number(rows[0]!.v))).toEqual([2, 3, 4]);
    expect(await store.query("SELECT 1 AS one", [])).toEqual([{ one: 1n }]);
    // Bound as the integers 1 and 0, which come back as bigint like every integer.
    expect(await store.query("SELECT ? AS yes, ? AS no", [true, false])).toEqual([{ yes: 1n, no: 0n }]);
    await expect(store.query("SELECT ?", [new Date()])).rejects.toThrow(/unencoded/);
    expect(await store.execute(`INSERT INTO "kv" VALUES (?, ?), (?, ?)`, ["a", "1", "b", "2"])).toBe(2);
  });

  it("commits a transaction that resolves and rolls back one that throws", async () => {
    const store = await open();
    await store.transaction((tx) => tx.execute(`INSERT INTO "kv" VALUES (?, ?)`, ["a", "1"]));
    await expect(
      store.transaction(async (tx) => {
        await tx.execute(`INSERT INTO "kv" VALUES (?, ?)`, ["b", "2"]);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await keys(store)).toEqual(["a"]);
    expect(store.connection.inTransaction).toBe(false);
  });

  it("runs transactions one after another, each whole, however they await", async () => {
    const store = await open();
    let open1!: () => void;
    const gate = new Promise<void>((resolve) => (open1 = resolve));
    const seen: unknown[] = [];
    const first = store.transaction(async (tx) => {
      await tx.execute(`INSERT INTO "kv" VALUES (?, ?)`, ["first", "1"]);
      await gate;
      await tx.execute(`UPDATE "kv" SET "v" = ? WHERE "k" = ?`, ["2", "first"]);
    });
    const second = store.transaction(async (tx) => {
      seen.push(...(await tx.query(`SELECT "v" FROM "kv" WHERE "k" = ?`, ["first"])));
    });
    // The second waits for the writer lock the first holds across its await.
    await eventually(() => store.lock.isHeld, 5_000, "the first transaction to hold the writer lock");
    open1();
    await Promise.all([first, second]);
    expect(seen).toEqual([{ v: "2" }]);
  });

  it("ends a transaction that runs past its time limit: its writes are undone, the writer is free, its next statement fails", async () => {
    const store = await open(50);
    let resume!: () => void;
    const stuck = new Promise<void>((resolve) => (resume = resolve));
    const attempt = store.transaction(async (tx) => {
      await tx.execute(`INSERT INTO "kv" VALUES (?, ?)`, ["stuck", "1"]);
      await stuck;
      await tx.execute(`INSERT INTO "kv" VALUES (?, ?)`, ["after", "1"]);
    });
    await eventually(() => !store.lock.isHeld, 5_000, "the expired transaction to give the writer back");
    await store.transaction((tx) => tx.execute(`INSERT INTO "kv" VALUES (?, ?)`, ["next", "1"]));
    resume();
    await expect(attempt).rejects.toBeInstanceOf(TransactionExpired);
    expect(await keys(store)).toEqual(["next"]);
  });
});
