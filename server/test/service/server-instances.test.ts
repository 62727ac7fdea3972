// Server-lifetime records with two instances on one store, on every provider, with a clock moved
// by hand: the instance that published or last revised a record holds it; a sweep ends only the
// records of instances that stopped beating (or of none, at a start), through the expire path.
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHerald, type Herald } from "../../src/app.ts";
import { loadConfig, tuningFrom } from "../../src/config.ts";
import { TestClock } from "../support/clock.ts";
import { providers, type TestDatabase } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";

const silent = pino({ level: "silent" });
const grace = 60_000;

describe("instance heartbeat settings", () => {
  it("default to a beat every 15 s and a grace of 60 s", () => {
    const tuning = tuningFrom(loadConfig({}));
    expect([tuning.instanceHeartbeatMs, tuning.instanceGraceMs]).toEqual([15_000, 60_000]);
  });

  it("refuse, naming the setting, values out of range or a grace shorter than two heartbeats", () => {
    expect(() => loadConfig({ HERALD_INSTANCE_HEARTBEAT_SECONDS: "0" })).toThrow(/HERALD_INSTANCE_HEARTBEAT_SECONDS/);
    expect(() => loadConfig({ HERALD_INSTANCE_HEARTBEAT_SECONDS: "1.5" })).toThrow(/HERALD_INSTANCE_HEARTBEAT_SECONDS/);
    expect(() => loadConfig({ HERALD_INSTANCE_GRACE_SECONDS: "soon" })).toThrow(/HERALD_INSTANCE_GRACE_SECONDS/);
    expect(() => loadConfig({ HERALD_INSTANCE_GRACE_SECONDS: "100000" })).toThrow(/HERALD_INSTANCE_GRACE_SECONDS/);
    expect(() => loadConfig({ HERALD_INSTANCE_HEARTBEAT_SECONDS: "31" })).toThrow(/HERALD_INSTANCE_GRACE_SECONDS must be at least twice/);
    expect(tuningFrom(loadConfig({ HERALD_INSTANCE_HEARTBEAT_SECONDS: "1", HERALD_INSTANCE_GRACE_SECONDS: "2" })).instanceGraceMs).toBe(2_000);
  });
});

for (const provider of providers) {
  describe.skipIf(!provider.available)(`server instances on ${provider.name}`, () => {
    let database: TestDatabase;
    let a: Herald;
    let b: Herald;
    let personId: string;
    const clock = new TestClock();

    beforeAll(async () => {
      database = await provider.createDatabase();
      const tuning = { instanceGraceMs: grace };
      a = await createHerald({ databaseUrl: database.url, logger: silent, clock, tuning });
      b = await createHerald({ databaseUrl: database.url, logger: silent, clock, tuning });
      personId = (await a.services.directory.createPerson({ name: "Ada" })).id;
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
      await database?.drop();
    });

    const publish = (herald: Herald, key: string) =>
      herald.services.notifications.publish({
        scope: "PERSON",
        personId,
        key,
        title: key,
        source: { plugin: "p" },
        retention: { policy: "UNTIL_SERVER_RESTART" },
      });
    const row = async (id: string) => {
      const found = await storeOf(a.database).first("Notification", (q) => q.where("id", "=", id));
      if (!found) throw new Error(`no notification ${id}`);
      return found;
    };
    const beatBoth = () => Promise.all([a.instance.beat(), b.instance.beat()]);

    it("records the publishing instance, and the revising one, on server-lifetime records only", async () => {
      await beatBoth();
      const n = await publish(a, "held");
      expect((await row(n.id)).serverInstanceId).toBe(a.instance.id);
      await b.services.notifications.update(n.id, { title: "revised on b" });
      expect((await row(n.id)).serverInstanceId).toBe(b.instance.id);
      await a.services.notifications.update(n.id, { retention: { policy: "UNTIL_RESOLVED" } });
      expect((await row(n.id)).serverInstanceId).toBeNull();
    });

    it("keeps the records of an instance that beats, and ends them once its heartbeat is older than the grace", async () => {
      await beatBoth();
      const n = await publish(a, "crash");
      expect(await b.instance.expireEnded("start")).toBe(0);
      expect(await b.instance.expireEnded("periodic")).toBe(0);
      clock.advance(grace + 1);
      await b.instance.beat();
      expect(await b.instance.expireEnded("periodic")).toBe(1);
      const ended = await row(n.id);
      expect([ended.status, ended.terminalReason]).toEqual(["EXPIRED", "server_restart"]);
      const events = await storeOf(a.database).rows("NotificationEvent", (q) => q.where("notificationId", "=", n.id).orderBy("seq", "asc"));
      expect(events.map((e) => e.type)).toEqual(["CREATED", "EXPIRED"]);
      expect(await storeOf(a.database).count("ServerInstance", (q) => q.where("id", "=", a.instance.id))).toBe(0);
    });

    it("ends at a clean stop only what the stopping instance holds", async () => {
      await beatBoth();
      const mine = await publish(a, "stop-mine");
      const moved = await publish(a, "stop-moved");
      await b.services.notifications.update(moved.id, { title: "now b's" });
      expect(await a.instance.stop()).toBe(1);
      expect([(await row(mine.id)).status, (await row(moved.id)).status]).toEqual(["EXPIRED", "PENDING"]);
      expect(await storeOf(a.database).count("ServerInstance", (q) => q.where("id", "=", a.instance.id))).toBe(0);
    });

    it("ends records from before instances were recorded at a start, not in a periodic sweep", async () => {
      await beatBoth();
      const legacy = await publish(b, "legacy");
      const probe = storeOf(a.database);
      expect(await probe.execute(probe.build.updateTable("Notification").set({ serverInstanceId: null }).where("id", "=", legacy.id))).toBe(1);
      expect(await a.instance.expireEnded("periodic")).toBe(0);
      expect(await a.instance.expireEnded("start")).toBe(1);
      expect((await row(legacy.id)).status).toBe("EXPIRED");
    });
  });
}
