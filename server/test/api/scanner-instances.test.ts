// The trigger scanner with several instances on one PostgreSQL database (the multi-instance
// store; SQLite serves one instance): each cycle runs on one instance, and even cycles forced on
// both at once create each notification exactly once. Also: the server's own timer runs cycles
// without being asked.
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHerald, type Herald } from "@herald/server/app";
import { TestClock } from "../support/clock.ts";
import { startHerald } from "../support/herald.ts";
import { providers, type TestDatabase } from "../support/providers.ts";
import { eventually } from "../support/sse.ts";
import { storeOf } from "../support/store.ts";

const DAY = 86_400_000;
const silent = pino({ level: "silent" });

// Two clients of one SQLite file in one process would deadlock: the driver waits for the file
// lock synchronously, so the holder's transaction can never finish.
for (const provider of providers.filter((p) => p.name === "postgresql")) {
  describe.skipIf(!provider.available)(`scanning with two instances on ${provider.name}`, () => {
    let database: TestDatabase;
    let a: Herald;
    let b: Herald;
    const clock = new TestClock();
    const persons: string[] = [];

    beforeAll(async () => {
      database = await provider.createDatabase();
      a = await createHerald({ databaseUrl: database.url, logger: silent, clock });
      b = await createHerald({ databaseUrl: database.url, logger: silent, clock });
      const directory = a.services.directory;
      for (let i = 0; i < 8; i++) {
        const person = await directory.createPerson({ name: `P${i}` });
        persons.push(person.id);
        await directory.createEngagement({ name: `E${i}`, operatorPersonId: person.id });
      }
      clock.advance(15 * DAY);
      const inTwoDays = new Date(clock.now().getTime() + 2 * DAY).toISOString().slice(0, 10);
      for (const personId of persons) await directory.rememberFact({ personId, content: `Review on ${inTwoDays}` });
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await database?.drop();
    });

    const raised = () => storeOf(a.database).count("Notification", (q) => q.where("triggerType", "=", "TIME_BASED"));

    it("one instance claims each cycle; the other skips it", async () => {
      clock.advance(a.tuning.scanIntervalMs);
      const [ra, rb] = await Promise.all([a.scanner.tick(), b.scanner.tick()]);
      expect([ra, rb].filter((r) => r === null)).toHaveLength(1);
      const report = (ra ?? rb)!;
      expect(report).toMatchObject({ facts: 8, engagements: 8, created: 16 });
      expect(await raised()).toBe(16);
      // The same cycle again, on either instance: already claimed.
      expect(await a.scanner.tick()).toBeNull();
      expect(await b.scanner.tick()).toBeNull();
    });

    it("cycles forced on both instances at once still create each notification exactly once", async () => {
      const more = await a.services.directory.createPerson({ name: "Late" });
      await a.services.directory.createEngagement({ name: "Late", operatorPersonId: more.id });
      clock.advance(15 * DAY);
      const before = await raised();
      const now = clock.now();
      const reports = await Promise.all([a.scanner.runCycle(now), b.scanner.runCycle(now), a.scanner.runCycle(now), b.scanner.runCycle(now)]);
      const created = reports.reduce((sum, r) => sum + r.created, 0);
      // The late engagement is stale now; the 8 older ones were nudged for this same period already.
      expect(created).toBe(1);
      expect(await raised()).toBe(before + 1);
      const probe = storeOf(a.database);
      const perTrigger = await probe.raw(
        probe.build
          .selectFrom("Notification")
          .select(["personId", "triggerRef", (eb) => eb.fn.countAll().as("n")])
          .where("triggerType", "=", "TIME_BASED")
          .groupBy(["personId", "triggerRef"]),
      );
      expect(perTrigger.every((g) => Number(g.n) === 1)).toBe(true);
    });
  });
}

describe("the server's scanner timer", () => {
  it("runs a cycle by itself and stops with the server", async () => {
    const h = await startHerald(providers[0]!, { scanIntervalMs: 100 });
    try {
      const ada = await h.herald.services.directory.createPerson({ name: "Ada" });
      await h.herald.services.directory.createEngagement({ name: "Old", operatorPersonId: ada.id });
      h.clock.advance(30 * DAY);
      await eventually(
        async () =>
          (await storeOf(h.herald.database).count("Notification", (q) => q.where("personId", "=", ada.id).where("triggerType", "=", "TIME_BASED"))) === 1,
        10_000,
        "the timer's cycle to nudge",
      );
    } finally {
      await h.close();
    }
  });
});
