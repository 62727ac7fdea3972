// NotificationTx writes with raw SQL (storage/notifications/notification-write-sql.ts). What it writes must be
// what Prisma's own writes were: every column of the model, times in the store's own form, rows
// that Prisma's queries read back as the record the write returned.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../src/storage/connection/database-url.ts";
import { newRowId } from "../../src/storage/sql/row-id.ts";
import { toColumns, toReceipt, toRecord } from "../../src/storage/notifications/notification-mapper.ts";
import { tableColumns } from "../../src/storage/generated/columns.ts";
import { EVENT_COUNTER, NotificationWriteSql } from "../../src/storage/notifications/notification-write-sql.ts";
import { StaleWrite } from "../../src/storage/connection/retrying-transaction.ts";
import { TransactionRunner } from "../../src/storage/sql/statement-runner.ts";
import { decideSnooze } from "../../src/domain/lifecycle.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";

const models = readFileSync(join(repoRoot, "prisma", "models.prisma"), "utf8");
function scalarColumnsOf(model: string): string[] {
  const body = models.match(new RegExp(`^model ${model} \\{([\\s\\S]*?)^\\}`, "m"))![1]!;
  return [...body.matchAll(/^\s+(\w+)\s+(String|Int|DateTime|Boolean|Bytes)\??(\s|$)/gm)].map((m) => m[1]!).sort();
}

const NOTIFICATION_COLUMNS = tableColumns.Notification.columns;
const RECEIPT_COLUMNS = tableColumns.NotificationReceipt.columns;

describe("the raw writes' columns", () => {
  it("are generated from every column of Notification and NotificationReceipt", () => {
    expect([...NOTIFICATION_COLUMNS].sort()).toEqual(scalarColumnsOf("Notification"));
    expect([...RECEIPT_COLUMNS].sort()).toEqual(scalarColumnsOf("NotificationReceipt"));
  });

  it("cover every column the mapper writes, so a new one cannot be left out of the INSERT", () => {
    const columns = Object.keys(toColumns({ source: { plugin: "p" }, retention: {}, trigger: {}, displayOverrides: {}, actions: [] } as never, null, "t"));
    expect([...columns, "id", "createdAt", "dedupKey", "serverInstanceId", "lockVersion"].sort()).toEqual([...NOTIFICATION_COLUMNS].sort());
  });

  it("makes ids in the order they were made, also within one millisecond", () => {
    const ids = Array.from({ length: 2_000 }, () => newRowId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]).toMatch(/^c[0-9a-z]{24}$/);
  });
});

for (const provider of providers) {
  describe.skipIf(!provider.available)(`raw notification writes on ${provider.name}`, () => {
    let h: TestHerald;
    let ada: { id: string };

    beforeAll(async () => {
      h = await startHerald(provider);
      ada = await h.newPerson("Ada");
    });
    afterAll(async () => h?.close());

    it("store a publish and its revisions as they read back, with consecutive events", async () => {
      const service = h.herald.services.notifications;
      const db = storeOf(h.herald.database);
      const input = {
        scope: "PERSON",
        personId: ada.id,
        key: "k",
        title: "Ünïcode 'quoted' \"title\"",
        body: "b\\n",
        severity: "WARNING",
        source: { plugin: "tests", subsystem: "raw" },
        data: { nested: [1, "two", null] },
        retention: { policy: "TTL", expiresAt: new Date(h.clock.now().getTime() + 3_600_000) },
      };
      const created = await service.publish(input);
      const revised = await service.publish({ ...input, title: "second" });
      expect(revised.id).toBe(created.id);
      const row = (await db.first("Notification", (q) => q.where("id", "=", created.id)))!;
      expect(toRecord(row)).toEqual(revised);
      expect(row.lockVersion).toBe(1);

      const events = await db.rows("NotificationEvent", (q) => q.where("notificationId", "=", created.id).orderBy("seq", "asc"));
      expect(events.map((e) => [e.type, e.revision, e.personId])).toEqual([
        ["CREATED", 1, ada.id],
        ["UPDATED", 2, ada.id],
      ]);
      expect(JSON.parse(events[1]!.snapshot)).toEqual(JSON.parse(JSON.stringify(revised)));
      expect(events[0]!.createdAt).toBeInstanceOf(Date);
    });

    it("keep times in the form Prisma's client wrote, so SQL comparisons agree with rows stored before", async () => {
      if (provider.name !== "sqlite") return;
      const db = storeOf(h.herald.database);
      const [raw] = (await db.sql(`SELECT typeof("createdAt") AS kind, CAST("createdAt" AS TEXT) AS "createdAt" FROM "Notification" LIMIT 1`)) as {
        kind: string;
        createdAt: string;
      }[];
      const [person] = (await db.sql(`SELECT CAST("createdAt" AS TEXT) AS "createdAt" FROM "Person" LIMIT 1`)) as { createdAt: string }[];
      expect(raw!.kind).toBe("text");
      expect(raw!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
      expect(person!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    });

    it("write shared receipts (batch insert, batch update, single upsert) that read back whole", async () => {
      const service = h.herald.services.notifications;
      const db = storeOf(h.herald.database);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await service.publish({ scope: "APPLICATION", key: `shared${i}`, title: "t", source: { plugin: "tests" } })).id);
      await service.markSeen(ada.id, ids.slice(0, 2));
      const dismissed = await service.dismiss(ada.id, ids[0]!, null, "done");
      await service.markSeen(ada.id, ids);
      const receipts = await db.rows("NotificationReceipt", (q) => q.where("personId", "=", ada.id).where("notificationId", "in", ids));
      const byId = new Map(receipts.map((r) => [r.notificationId, toReceipt(r)]));
      expect(byId.get(ids[0]!)).toMatchObject({ dismissReason: "done", dismissedAt: dismissed.dismissedAt });
      for (const id of ids) expect(byId.get(id)!.seenAt).toBeInstanceOf(Date);
      const view = await service.get(ada.id, ids[2]!);
      expect(view!.status).toBe("SEEN");
    });

    // A receipt is written whole (upsertReceipt), decided from the receipt as read. That is safe
    // because the decision's first read locks the shared record's row on PostgreSQL, so two marks
    // of one record are decided one after the other; SQLite has one writer. This holds a mark's
    // transaction open after its read and shows the other mark waiting, then both fields kept.
    it("keep both of two racing marks of one shared record (the second waits for the first's lock)", async () => {
      if (provider.name !== "postgresql") return;
      const service = h.herald.services.notifications;
      const db = storeOf(h.herald.database);
      const { id } = await service.publish({ scope: "APPLICATION", key: "raced", title: "t", source: { plugin: "tests" } });
      const until = new Date(h.clock.now().getTime() + 3_600_000);
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let marked: Promise<unknown> | null = null;
      const snoozed = service.writes.change(async (tx) => {
        const decision = await service.writes.decideAsPerson(tx, ada.id, id, (view, receipt) => decideSnooze(view, receipt, ada.id, until, h.clock.now()));
        marked ??= service.markRead(ada.id, [id]);
        await released;
        return decision;
      });
      // Event, not time: the read mark is seen blocked on a lock in PostgreSQL's own view (or, were
      // the record not locked, it finishes first and its field is lost below).
      let done = false;
      while (marked === null) await new Promise((resolve) => setImmediate(resolve));
      void (marked as Promise<unknown>).finally(() => (done = true));
      while (!done) {
        const waiting = await db.sql(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database() AND query LIKE '%"Notification"%'`,
        );
        if ((waiting[0] as { n: number }).n > 0) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      release();
      await snoozed;
      await marked;
      const [receipt] = await db.rows("NotificationReceipt", (q) => q.where("personId", "=", ada.id).where("notificationId", "=", id));
      expect(toReceipt(receipt!)).toMatchObject({ snoozedUntil: until, readAt: expect.any(Date) });
    });

    it("append no event and leave the counter alone when the write they carry finds its rows changed", async () => {
      const { db, provider: name } = h.herald.database;
      const probe = storeOf(h.herald.database);
      const counter = async () => (await probe.first("EventCounter", (q) => q.where("name", "=", EVENT_COUNTER)))!.value;
      const before = await counter();
      const id = (await h.herald.services.notifications.publish({ scope: "PERSON", personId: ada.id, key: "stale", title: "t", source: { plugin: "tests" } }))
        .id;
      const event = { personId: ada.id, type: "UPDATED" as const, notificationId: id, revision: 2, snapshot: "{}" };
      const attempt = db.transaction(async (tx) => {
        const sql = new NotificationWriteSql(new TransactionRunner(tx), name);
        // lockVersion 7 was never read: another writer "moved" the row on.
        await sql.appendEvents([event], new Date(), [sql.updateRows([id], 7, { title: "lost" })]);
      });
      await expect(attempt).rejects.toBeInstanceOf(StaleWrite);
      expect(await counter()).toBe(before + 1);
      expect((await probe.first("Notification", (q) => q.where("id", "=", id)))!.title).toBe("t");
      expect(await probe.count("NotificationEvent", (q) => q.where("notificationId", "=", id))).toBe(1);
    });
  });
}
