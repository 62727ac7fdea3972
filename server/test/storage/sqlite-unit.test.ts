// NotificationStore's units on SQLite run on the connection itself (storage/sql/sqlite-unit.ts) and
// share one writer lock with the store's own transactions (storage/connection/sqlite-store.ts). On a real
// SQLite file: a transaction held open across awaits while publishes arrive, a publish whose last
// statement fails, and another connection committing between a unit's reads and its commit.
import { eventually } from "@herald/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteFileOf } from "../../src/storage/connection/database-url.ts";
import { SqliteConnection } from "../../src/storage/connection/sqlite-driver.ts";
import { EVENT_COUNTER } from "../../src/storage/notifications/notification-write-sql.ts";
import { sqlFor } from "../../src/storage/sql/sql.ts";
import { StaleWrite } from "../../src/storage/connection/retrying-transaction.ts";
import { SqliteUnit } from "../../src/storage/sql/sqlite-unit.ts";
import * as run from "../../src/storage/sql/run.ts";
import type { SqliteStore } from "../../src/storage/connection/sqlite-store.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";

const sqliteCase = providers.find((p) => p.name === "sqlite")!;

describe("SQLite units of work beside the store's transactions", () => {
  let h: TestHerald;
  let ada: { id: string };
  let writer: SqliteStore;

  beforeAll(async () => {
    h = await startHerald(sqliteCase);
    ada = await h.newPerson("Ada");
    writer = h.herald.database.sqlite!;
  });
  afterAll(async () => h?.close());

  const publish = (key: string, title = "t") =>
    h.herald.services.notifications.publish({ scope: "PERSON", personId: ada.id, key, title, source: { plugin: "tests" } });
  const probe = () => storeOf(h.herald.database);
  const counter = async () => Number((await probe().first("EventCounter", (q) => q.where("name", "=", EVENT_COUNTER)))!.value);
  const notificationsKeyed = (prefix: string) => probe().count("Notification", (q) => q.where("key", "like", `${prefix}%`));
  const setting = (key: string) => probe().first("ServerSetting", (q) => q.where("key", "=", key));
  const build = () => h.herald.database.build;

  it("wait for an open transaction of another store and are not rolled back with it", async () => {
    const db = h.herald.database.db;
    const before = await counter();
    const order: string[] = [];
    let publishes: Promise<unknown>[] = [];
    // Counts who asks for the writer lock, so the transaction goes on once every publish waits for it.
    const lock = writer.lock;
    const acquire = lock.acquire.bind(lock);
    let asked = 0;
    lock.acquire = () => {
      asked++;
      return acquire();
    };
    try {
      const other = db.transaction(async (tx) => {
        await run.execute(tx, build().insertInto("ServerSetting").values({ key: "held-open", value: "x" }));
        // Publishes arrive while this transaction's BEGIN is open across awaits.
        const askedBefore = asked;
        publishes = Array.from({ length: 6 }, (_, i) => publish(`held-${i}`).then(() => order.push(`publish ${i}`)));
        // Every publish asks for the lock (or, were it not shared, ends): then this transaction goes on.
        await eventually(() => asked - askedBefore >= 6 || order.length > 0, 10_000, "the publishes to wait for the writer lock");
        await run.execute(tx, build().updateTable("ServerSetting").set({ value: "y" }).where("key", "=", "held-open"));
        order.push("other transaction ends");
        throw new Error("the other store gives up");
      });
      await expect(other).rejects.toThrow("the other store gives up");
      await Promise.all(publishes);
    } finally {
      lock.acquire = acquire;
    }

    // Every publish ran after the other transaction ended, none joined it, and its rollback took none of them along.
    expect(order[0]).toBe("other transaction ends");
    expect(order).toHaveLength(7);
    expect(await setting("held-open")).toBeNull();
    expect(await notificationsKeyed("held-")).toBe(6);
    expect(await counter()).toBe(before + 6);
    expect(writer.connection.inTransaction).toBe(false);
  });

  it("let transactions that arrive during publishes run between them, each whole", async () => {
    const db = h.herald.database.db;
    const before = await counter();
    const work = Array.from({ length: 10 }, (_, i) =>
      i % 2 === 0
        ? publish(`mixed-${i}`)
        : db.transaction(async (tx) => {
            await run.execute(
              tx,
              build()
                .insertInto("ServerSetting")
                .values({ key: `mixed-${i}`, value: "a" }),
            );
            // Kept: a pause held inside the transaction is what is under test (work queues behind it); no
            // event stands for it, and its length does not matter.
            await new Promise((resolve) => setTimeout(resolve, 5));
            await run.execute(tx, build().updateTable("ServerSetting").set({ value: "b" }).where("key", "=", `mixed-${i}`));
          }),
    );
    await Promise.all(work);
    expect(await notificationsKeyed("mixed-")).toBe(5);
    expect(await probe().count("ServerSetting", (s) => s.where("key", "like", "mixed-%").where("value", "=", "b"))).toBe(5);
    expect(await counter()).toBe(before + 5);
  });

  it("write nothing of a publish whose last statement fails", async () => {
    const db = probe();
    // The event INSERT comes after the notification's INSERT and the counter in the same unit.
    await db.sql(
      `CREATE TRIGGER "poisoned_event" BEFORE INSERT ON "NotificationEvent" WHEN NEW."snapshot" LIKE '%poisoned%' BEGIN SELECT RAISE(ABORT, 'poisoned event'); END`,
    );
    try {
      const before = await counter();
      await expect(publish("poison", "poisoned")).rejects.toThrow("poisoned event");
      expect(await notificationsKeyed("poison")).toBe(0);
      expect(await counter()).toBe(before);
      expect(writer.connection.inTransaction).toBe(false);
      // The connection and the lock are free: the next publish goes through.
      await publish("after-poison");
      expect(await counter()).toBe(before + 1);
    } finally {
      await db.sql(`DROP TRIGGER "poisoned_event"`);
    }
  });

  describe("another connection committing between a unit's reads and its commit", () => {
    let other: SqliteConnection;
    beforeAll(() => {
      other = SqliteConnection.open(sqliteFileOf(h.databaseUrl), { timeoutMs: 5_000 });
    });
    afterAll(() => other?.close());

    const readCounterThenWrite = (label: string, meanwhile: () => void) =>
      writer.exclusive(async () => {
        const unit = new SqliteUnit(writer);
        const db = sqlFor("sqlite");
        const [row] = await unit.read(db.selectFrom("EventCounter").select("value").where("name", "=", EVENT_COUNTER));
        meanwhile();
        await unit.write([{ statement: db.insertInto("ServerSetting").values({ key: `${label}-${String(row!.value)}`, value: "v" }), rows: 1 }]);
        unit.commit();
      });

    it("commits when what it read still holds", async () => {
      const value = await counter();
      await readCounterThenWrite("holds", () => other.prepare(`INSERT INTO "ServerSetting" ("key", "value") VALUES ('unrelated', 'v')`).run());
      expect(await setting(`holds-${value}`)).not.toBeNull();
    });

    it("is stale, and writes nothing, when what it read changed", async () => {
      const value = await counter();
      const attempt = readCounterThenWrite("changed", () =>
        other.prepare(`UPDATE "EventCounter" SET "value" = "value" + 1 WHERE "name" = ?`).run(EVENT_COUNTER),
      );
      await expect(attempt).rejects.toBeInstanceOf(StaleWrite);
      expect(await setting(`changed-${value}`)).toBeNull();
      expect(writer.connection.inTransaction).toBe(false);
      // A publish after another process moved the counter numbers its event from the new value.
      const published = await publish("after-other-process");
      const event = await probe().first("NotificationEvent", (e) => e.where("notificationId", "=", published.id));
      expect(event?.seq).toBe(value + 2);
    });
  });
});
