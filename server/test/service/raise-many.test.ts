// NotificationService.raiseMany, the scanner's batch path, on every provider: one transaction
// per batch with an event per new record, triggers that fired before (or repeat in the batch)
// skipped, and parallel batches (two instances on PostgreSQL) creating each notification once.
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHerald, type Herald } from "../../src/app.ts";
import type { RaiseInput } from "../../src/service/notification-service.ts";
import { TestClock } from "../support/clock.ts";
import { providers, type TestDatabase } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";

const silent = pino({ level: "silent" });
const raiseOf = (personId: string, ref: string): RaiseInput => ({
  personId,
  triggerRef: ref,
  triggerType: "TIME_BASED",
  triggerSource: "scan:dates",
  subsystem: "scanner",
  engagementId: null,
  title: `Reminder ${ref}`,
  body: "body",
});

for (const provider of providers) {
  describe.skipIf(!provider.available)(`raiseMany on ${provider.name}`, () => {
    let database: TestDatabase;
    let a: Herald;
    // A second instance on PostgreSQL (the multi-instance store); SQLite serves one instance.
    let b: Herald;
    const clock = new TestClock();

    beforeAll(async () => {
      database = await provider.createDatabase();
      a = await createHerald({ databaseUrl: database.url, logger: silent, clock });
      b = provider.name === "postgresql" ? await createHerald({ databaseUrl: database.url, logger: silent, clock }) : a;
    });
    afterAll(async () => {
      if (b !== a) await b?.close();
      await a?.close();
      await database?.drop();
    });

    it("writes a batch with one CREATED event each, skipping triggers that fired and repeats", async () => {
      const ada = await a.services.directory.createPerson({ name: "Ada" });
      const first = await a.services.notifications.raise(raiseOf(ada.id, "fact:1:2026-01-01"));
      expect(first.created).toBe(true);
      await a.services.notifications.dismiss(ada.id, first.record.id, null, null);
      const created = await a.services.notifications.raiseMany([
        raiseOf(ada.id, "fact:1:2026-01-01"),
        raiseOf(ada.id, "fact:2:2026-01-01"),
        raiseOf(ada.id, "fact:3:2026-01-01"),
        raiseOf(ada.id, "fact:3:2026-01-01"),
      ]);
      expect(created).toBe(2);
      const rows = await storeOf(a.database).rows("Notification", (q) => q.where("personId", "=", ada.id).orderBy("triggerRef", "asc"));
      expect(rows.map((r) => [r.triggerRef, r.status, r.key, r.sourcePlugin, r.dedupKey])).toEqual([
        ["fact:1:2026-01-01", "DISMISSED", "companion:scan:dates:fact:1:2026-01-01", "herald", `${ada.id}|scan:dates|fact:1:2026-01-01`],
        ["fact:2:2026-01-01", "PENDING", "companion:scan:dates:fact:2:2026-01-01", "herald", `${ada.id}|scan:dates|fact:2:2026-01-01`],
        ["fact:3:2026-01-01", "PENDING", "companion:scan:dates:fact:3:2026-01-01", "herald", `${ada.id}|scan:dates|fact:3:2026-01-01`],
      ]);
      const events = await storeOf(a.database).rows("NotificationEvent", (q) =>
        q
          .where(
            "notificationId",
            "in",
            rows.slice(1).map((r) => r.id),
          )
          .orderBy("seq", "asc"),
      );
      expect(events.map((e) => [e.type, e.personId, e.revision])).toEqual([
        ["CREATED", ada.id, 1],
        ["CREATED", ada.id, 1],
      ]);
      expect(events[1]!.seq).toBe(events[0]!.seq + 1);
      // The log's counter moved past the batch: the next change gets the next number.
      const next = await a.services.notifications.raise(raiseOf(ada.id, "fact:4:2026-01-01"));
      const nextEvent = await storeOf(a.database).first("NotificationEvent", (q) => q.where("notificationId", "=", next.record.id));
      expect(nextEvent!.seq).toBe(events[1]!.seq + 1);
      expect(await a.services.notifications.raiseMany([])).toBe(0);
    });

    it("revises a producer's active record under a companion key instead of colliding with it", async () => {
      const bob = await a.services.directory.createPerson({ name: "Bob" });
      await a.services.notifications.publish({
        scope: "PERSON",
        personId: bob.id,
        key: "companion:scan:dates:stale:x:1",
        title: "old",
        source: { plugin: "p" },
      });
      expect(await a.services.notifications.raiseMany([raiseOf(bob.id, "stale:x:1"), raiseOf(bob.id, "stale:x:2")])).toBe(1);
      const rows = await storeOf(a.database).rows("Notification", (q) => q.where("personId", "=", bob.id).orderBy("key", "asc"));
      expect(rows.map((r) => [r.key, r.title, r.revision])).toEqual([
        ["companion:scan:dates:stale:x:1", "Reminder stale:x:1", 2],
        ["companion:scan:dates:stale:x:2", "Reminder stale:x:2", 1],
      ]);
    });

    it("parallel, overlapping batches create each notification exactly once", async () => {
      const cy = await a.services.directory.createPerson({ name: "Cy" });
      const refs = Array.from({ length: 40 }, (_, i) => `fact:race${i}:2026-02-02`);
      // Four batches of 30 out of the 40 triggers, each starting somewhere else.
      const batches = [0, 10, 20, 30].map((start) => Array.from({ length: 30 }, (_, i) => raiseOf(cy.id, refs[(start + i) % 40]!)));
      const counts = await Promise.all(batches.map((batch, i) => (i % 2 === 0 ? a : b).services.notifications.raiseMany(batch)));
      expect(counts.reduce((sum, n) => sum + n, 0)).toBe(40);
      const probe = storeOf(a.database);
      const perTrigger = await probe.raw(
        probe.build
          .selectFrom("Notification")
          .select((eb) => ["triggerRef", eb.fn.countAll().as("n")])
          .where("personId", "=", cy.id)
          .groupBy("triggerRef"),
      );
      expect(perTrigger).toHaveLength(40);
      expect(perTrigger.every((g) => Number(g.n) === 1)).toBe(true);
      const events = await probe.count("NotificationEvent", (q) => q.where("personId", "=", cy.id));
      expect(events).toBe(40);
    });
  });
}
