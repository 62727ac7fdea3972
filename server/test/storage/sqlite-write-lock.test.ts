// Every write on the embedded store holds its one writer lock (storage/connection/sqlite-store.ts): a write
// outside a transaction waits for an open one instead of running inside it (and being rolled back
// with it), and what would wait for itself (a transaction, a section or a store-level write inside
// an exclusive section) is refused at once, by the types where they can say so.
import { eventually } from "@herald/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { NestedWrite, SqliteStore } from "../../src/storage/connection/sqlite-store.ts";

describe("the SQLite writer lock", () => {
  const stores: SqliteStore[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });
  async function open() {
    const store = await SqliteStore.open(":memory:");
    stores.push(store);
    await store.execute(`CREATE TABLE "kv" ("k" TEXT PRIMARY KEY)`, []);
    return store;
  }
  const keys = async (store: SqliteStore) => (await store.query(`SELECT "k" FROM "kv" ORDER BY "k"`, [])).map((row) => row.k);

  it("keeps a write that raced a transaction which then rolled back", async () => {
    const store = await open();
    let fail!: () => void;
    const failing = new Promise<void>((resolve) => (fail = resolve));
    const transaction = store.transaction(async (tx) => {
      await tx.execute(`INSERT INTO "kv" VALUES (?)`, ["in-transaction"]);
      await failing;
      throw new Error("roll back");
    });
    await eventually(() => store.lock.isHeld, 5_000, "the transaction to hold the writer lock");
    // Both kinds of store-level write: execute, and query with a statement that returns rows.
    const writes = [store.execute(`INSERT INTO "kv" VALUES (?)`, ["autocommit"]), store.query(`INSERT INTO "kv" VALUES (?) RETURNING "k"`, ["returning"])];
    await eventually(() => store.lock.waiting === 2, 5_000, "both writes to wait for the writer lock");
    fail();
    await expect(transaction).rejects.toThrow("roll back");
    expect(await Promise.all(writes)).toEqual([1, [{ k: "returning" }]]);
    expect(await keys(store)).toEqual(["autocommit", "returning"]);
    expect(store.connection.inTransaction).toBe(false);
  });

  it("refuses a transaction, a section or a store-level write inside an exclusive section, and writes nothing", async () => {
    const store = await open();
    const inside = store.exclusive(async (section) => {
      section.prepare(`INSERT INTO "kv" VALUES ('section')`).run();
      const refused = await Promise.allSettled([
        store.transaction((tx) => tx.execute(`INSERT INTO "kv" VALUES ('nested-transaction')`, [])),
        store.exclusive(async () => undefined),
        store.execute(`INSERT INTO "kv" VALUES ('nested-write')`, []),
      ]);
      // @ts-expect-error a section opens no transaction
      expect(section.transaction).toBeUndefined();
      return refused.map((r) => (r.status === "rejected" ? r.reason : r.value));
    });
    const refusals = await inside;
    for (const refusal of refusals) expect(refusal).toBeInstanceOf(NestedWrite);
    expect(String(refusals[0])).toMatch(/A transaction inside an exclusive section/);
    expect(await keys(store)).toEqual(["section"]);
    expect(store.lock.isHeld).toBe(false);
  });

  it("refuses a write prepared outside the lock", async () => {
    const store = await open();
    expect(() => store.prepareRead(`INSERT INTO "kv" VALUES ('x')`)).toThrow(/outside the writer lock/);
    expect(() => store.prepareRead(`BEGIN IMMEDIATE`)).toThrow(/outside the writer lock/);
    // @ts-expect-error a read statement cannot run a write
    expect(store.prepareRead(`SELECT 1`).run).toBeDefined();
    expect(await keys(store)).toEqual([]);
  });

  it("fails a section's statements once the section has ended", async () => {
    const store = await open();
    let kept: { prepare(sql: string): unknown } | null = null;
    await store.exclusive(async (section) => {
      kept = section;
    });
    expect(() => kept!.prepare(`INSERT INTO "kv" VALUES ('late')`)).toThrow(/time limit/);
    expect(await keys(store)).toEqual([]);
  });
});
