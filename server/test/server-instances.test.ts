// UNTIL_SERVER_RESTART with several real `herald serve` processes on one store, on every
// provider: a record lives as long as the instance that published it. Another instance starting
// leaves it alone; a clean stop of its instance ends it; a crashed instance's records end on
// another instance's sweep once the crashed one's heartbeat is older than the grace.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "./support/graphql.ts";
import { heraldCommand, type Served, serve, stop } from "./support/processes.ts";
import { providers, type TestDatabase } from "./support/providers.ts";
import { headCursor, type ReceivedEvent, type Subscription, subscribe } from "./support/sse.ts";

const EVENTS = `subscription($after: String) {
  notificationEvents(after: $after) { cursor type notification { id revision status title snoozedUntil terminalReason } }
}`;

for (const provider of providers) {
  describe.skipIf(!provider.available)(`server-lifetime records across instances on ${provider.name}`, () => {
    let db: TestDatabase;
    let key: string;
    let ada: { id: string; token: string };
    const running: Served[] = [];
    // A small heartbeat and grace, so a crashed instance's records end within seconds.
    const env = () => ({
      DATABASE_URL: db.url,
      NODE_ENV: "production",
      HERALD_FEED_POLL_MS: "200",
      HERALD_INSTANCE_HEARTBEAT_SECONDS: "1",
      HERALD_INSTANCE_GRACE_SECONDS: "2",
    });
    const start = async () => {
      const served = await serve(env());
      running.push(served);
      return served;
    };

    beforeAll(async () => {
      db = await provider.createDatabase();
      key = (await heraldCommand(["key", "create", "--name", "lifetime"], { DATABASE_URL: db.url })).lastLine;
      const person = await heraldCommand(["person", "create", "--name", "Ada"], { DATABASE_URL: db.url });
      ada = { id: person.stdout.split("\n")[0]!.replace("person ", "").trim(), token: person.lastLine };
    });
    afterAll(async () => {
      await Promise.all(running.map((served) => stop(served)));
      await db?.drop();
    });

    const publish = async (server: Served, k: string) => {
      const r = await gql(
        server.url,
        key,
        `mutation($p: ID!, $k: String!) { publishNotification(input: { scope: PERSON, personId: $p, key: $k, title: $k, source: { plugin: "lifetime" }, retention: { policy: UNTIL_SERVER_RESTART } }) { ... on Notification { id status } } }`,
        { p: ada.id, k },
      );
      return r.data.publishNotification as { id: string; status: string };
    };
    const statusOn = async (server: Served, id: string) =>
      (await gql(server.url, ada.token, `query($id: ID!) { notification(id: $id) { status } }`, { id })).data.notification.status as string;
    const watch = async (server: Served): Promise<Subscription> =>
      subscribe(server.url, ada.token, { query: EVENTS, variables: { after: await headCursor(server.url, ada.token) } });
    const expiredEventOf = (sub: Subscription, id: string) =>
      sub
        .waitUntil((events) => events.some((e) => isExpiry(e, id)), 30_000)
        .then((events) => events.find((e) => isExpiry(e, id))!.notification as ReceivedEvent["notification"] & { terminalReason: string });

    it("keeps a record while its instance runs, whoever else starts, and ends it when that instance stops cleanly", { timeout: 180_000 }, async () => {
      const a = await start();
      const held = await publish(a, "held-by-a");
      expect(held.status).toBe("PENDING");
      // B's start settles what instances that are gone left behind, before it serves: A is not gone.
      const b = await start();
      expect(await statusOn(b, held.id)).toBe("PENDING");

      const sub = await watch(b);
      await stop(a);
      const ended = await expiredEventOf(sub, held.id);
      sub.dispose();
      expect([ended.status, ended.terminalReason]).toEqual(["EXPIRED", "server_restart"]);
    });

    it("ends a crashed instance's records after the grace while the running instance keeps its own", { timeout: 180_000 }, async () => {
      const b = running.at(-1)!;
      const c = await start();
      const crashed = await publish(c, "held-by-c");
      const kept = await publish(b, "held-by-b");
      const sub = await watch(b);
      await c.kill();
      const ended = await expiredEventOf(sub, crashed.id);
      sub.dispose();
      expect([ended.status, ended.terminalReason]).toEqual(["EXPIRED", "server_restart"]);
      // The sweep that ended C's record has run: B's own, still heartbeating, was left alone.
      expect(await statusOn(b, kept.id)).toBe("PENDING");
    });
  });
}

function isExpiry(event: ReceivedEvent, id: string): boolean {
  return event.type === "EXPIRED" && event.notification.id === id;
}
