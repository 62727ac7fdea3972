// A shared (APPLICATION) record's events over real SSE carry each person's own state: a producer's
// update of a record one person snoozed does not pop it back up on that person's stream.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { headCursor, subscribe } from "../support/sse.ts";

for (const provider of providers) {
  describe.skipIf(!provider.available)(`shared records on the stream, ${provider.name}`, () => {
    let h: TestHerald;
    beforeAll(async () => {
      h = await startHerald(provider, { heartbeatMs: 200, feedPollMs: 200 });
    });
    afterAll(async () => h?.close());

    const update = (id: string, patch: Record<string, unknown>) =>
      gql(h.url, h.producerKey, `mutation($id: ID!, $p: NotificationPatch!) { updateNotification(id: $id, patch: $p) { __typename } }`, {
        id,
        p: patch,
      });

    it("streams a producer's update of a snoozed APPLICATION record with the person's snooze, and without it to others", async () => {
      const ada = await h.newPerson("Ada");
      const bob = await h.newPerson("Bob");
      const shared = await h.publish({ scope: "APPLICATION", key: `deploy:${provider.name}`, title: "Deploy running" });
      const until = new Date(h.clock.now().getTime() + 3_600_000).toISOString();
      const snoozed = await gql(h.url, ada.token, `mutation($id: ID!, $u: DateTime!) { snoozeNotification(id: $id, until: $u) { __typename } }`, {
        id: shared.id,
        u: until,
      });
      expect(snoozed.errors).toBeUndefined();

      const adaLive = subscribe(h.url, ada.token);
      const bobLive = subscribe(h.url, bob.token);
      await h.attached(ada.id);
      await h.attached(bob.id);
      h.clock.tick();
      expect((await update(shared.id, { title: "Deploy 50%" })).data.updateNotification.__typename).toBe("Notification");

      const [adaEvent] = await adaLive.waitFor(1);
      const [bobEvent] = await bobLive.waitFor(1);
      expect(adaEvent).toMatchObject({ type: "UPDATED", notification: { id: shared.id, title: "Deploy 50%", revision: 2 } });
      expect(adaEvent!.notification.snoozedUntil).not.toBeNull();
      expect(Date.parse(adaEvent!.notification.snoozedUntil!)).toBe(Date.parse(until));
      expect(bobEvent).toMatchObject({ type: "UPDATED", notification: { id: shared.id, snoozedUntil: null, status: "PENDING" } });
      adaLive.dispose();
      bobLive.dispose();
    });

    it("replays a shared update after a cursor with the person's snooze too", async () => {
      const ada = await h.newPerson("Ada");
      const shared = await h.publish({ scope: "APPLICATION", key: `replay:${provider.name}`, title: "Backup running" });
      const until = new Date(h.clock.now().getTime() + 3_600_000).toISOString();
      await gql(h.url, ada.token, `mutation($id: ID!, $u: DateTime!) { snoozeNotification(id: $id, until: $u) { __typename } }`, { id: shared.id, u: until });
      const cursor = await headCursor(h.url, ada.token);
      h.clock.tick();
      await update(shared.id, { body: "halfway" });

      const replayed = subscribe(h.url, ada.token, { after: cursor });
      const events = await replayed.waitUntil((received) => received.some((e) => e.notification.id === shared.id && e.type === "UPDATED"));
      const updated = events.find((e) => e.notification.id === shared.id && e.type === "UPDATED")!;
      expect(updated.notification.snoozedUntil).not.toBeNull();
      replayed.dispose();
    });
  });
}
