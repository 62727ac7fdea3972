// The scanner's selection thread on every provider: it selects exactly what the same selection
// on the server's own client selects (reminders, nudges, and nothing that fired), it does so off
// the request thread, and it reads stored times as UTC whatever the process's time zone.
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHerald, type Herald } from "../../src/app.ts";
import { InProcessSelector, SelectionThread } from "../../src/background/scanner/selection-thread.ts";
import { newFact } from "../../src/service/facts.ts";
import { ScanReads } from "../../src/storage/companion/scan-reads.ts";
import { providers, type TestDatabase } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";

const DAY = 86_400_000;
const now = new Date("2026-06-10T12:00:00Z");
const options = { dateLeadDays: 7, staleEngagementDays: 14, timeZone: "UTC" };

for (const provider of providers) {
  describe.skipIf(!provider.available)(`the selection thread on ${provider.name}`, () => {
    let database: TestDatabase;
    let herald: Herald;
    let thread: SelectionThread;
    const zone = process.env.TZ;

    beforeAll(async () => {
      // Far from UTC: a driver reading `timestamp` columns in local time would move every
      // nudge's period (named by the last activity's instant) by hours.
      process.env.TZ = "Pacific/Kiritimati";
      database = await provider.createDatabase();
      herald = await createHerald({ databaseUrl: database.url, logger: pino({ level: "silent" }), clock: { now: () => now } });
      const store = storeOf(herald.database);
      const created = store.time(new Date());
      await store.execute(
        store.build.insertInto("Person").values([
          // Every row names every column it sets: a multi-row insert on SQLite has no DEFAULT for a missing one.
          { id: "ada", name: "Ada", quietMode: false, createdAt: created },
          { id: "bob", name: "Bob", quietMode: false, createdAt: created },
          { id: "cy", name: "Cy", quietMode: true, createdAt: created },
        ]),
      );
      // Ada's engagement has been silent for 20 days, Bob's for 3, Cy's for 30 (but Cy is quiet).
      const engagements = [
        { id: "e-ada", name: "Harbour study", operatorPersonId: "ada", createdAt: new Date(now.getTime() - 20 * DAY - 3_600_123) },
        { id: "e-bob", name: "Garden", operatorPersonId: "bob", createdAt: new Date(now.getTime() - 3 * DAY) },
        { id: "e-cy", name: "Attic", operatorPersonId: "cy", createdAt: new Date(now.getTime() - 30 * DAY) },
      ];
      await store.execute(store.build.insertInto("Engagement").values(engagements.map((e) => ({ ...e, createdAt: store.time(e.createdAt) }))));
      const said = new Date(now.getTime() - 30 * DAY);
      const facts = [
        newFact("ada", "My sister's birthday is June 14", null, said),
        // A weekly habit of the person's own: no reminder.
        newFact("ada", "I go to pottery class every Friday", null, said),
        newFact("ada", "Dentist on 2026-09-01", null, said),
        newFact("ada", "Prefers tea", null, said),
        newFact("bob", "Our anniversary is June 11", null, said),
        newFact("cy", "My birthday is June 12", null, said),
      ];
      await store.execute(store.build.insertInto("RememberedFact").values(facts.map((f, i) => ({ id: `f${i}`, ...f, createdAt: store.time(f.createdAt) }))));
      thread = new SelectionThread({ databaseUrl: database.url, options });
    });
    afterAll(async () => {
      await thread?.close();
      await herald?.close();
      await database?.drop();
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    });

    const onClient = () => new InProcessSelector(new ScanReads(herald.database.provider, (sql, params) => herald.database.db.query(sql, params)), options);

    it("selects what the server's own client selects, off the request thread", async () => {
      const [off, on] = [await thread.select(now), await onClient().select(now)];
      expect(off.due).toEqual(on.due);
      expect(off.due.map((d) => `${d.personId} ${d.triggerRef}`).sort()).toEqual([
        "ada fact:f0:2026-06-14",
        `ada stale:e-ada:${new Date(now.getTime() - 20 * DAY - 3_600_123).toISOString()}`,
        "bob fact:f4:2026-06-11",
      ]);
      expect([off.facts, off.engagements]).toEqual([on.facts, on.engagements]);
      expect(on.threadId).toBe(0);
      expect(off.threadId).not.toBe(0);
    });

    it("leaves out what fired, and sees the server's commits at once", async () => {
      const first = await thread.select(now);
      expect(await herald.services.notifications.raiseMany(first.due.slice(0, 2))).toBe(2);
      const next = await thread.select(now);
      expect(next.due).toEqual(first.due.slice(2));
      expect(next.threadId).toBe(first.threadId);
    });

    it("is started again after it stops, and the scanner's cycles run on it", async () => {
      await thread.close();
      const again = await thread.select(now);
      expect(again.threadId).not.toBe(0);
      const report = await herald.scanner.runCycle(now);
      expect(report.selectedOn).not.toBe(0);
      expect(report.created).toBe(1);
      expect((await herald.scanner.runCycle(now)).created).toBe(0);
    });
  });
}
