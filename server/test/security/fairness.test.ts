// A large markAllNotificationsSeen (or completeRequest) works in bounded chunks, each its own transaction, so another
// person's write gets in between instead of waiting for the whole batch. Order is read from the
// event log's sequence numbers, not from wall time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers, redisUrl } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";
import { eventually } from "../support/sse.ts";

const UNSEEN = 1_100;
const PENDING = 600;

for (const provider of providers) {
  const transport = provider.name === "postgresql" && redisUrl ? " + Redis" : "";
  describe.skipIf(!provider.available)(`fair writes on ${provider.name}${transport}`, () => {
    let h: TestHerald;
    beforeAll(async () => {
      const redis = provider.name === "postgresql" && redisUrl ? { redisUrl } : {};
      h = await startHerald(provider, redis);
    });
    afterAll(async () => h?.close());

    it(`lets another person's publish in while ${UNSEEN.toLocaleString("en")} notifications are marked seen`, { timeout: 180_000 }, async () => {
      const ada = await h.newPerson("Ada");
      // Seeded through the service in-process: the HTTP path is not what this test measures.
      const seeding = Date.now();
      for (let i = 0; i < UNSEEN; i += 20) {
        await Promise.all(
          Array.from({ length: Math.min(20, UNSEEN - i) }, (_, j) =>
            h.herald.services.notifications.publish({
              scope: "PERSON",
              personId: ada.id,
              key: `bulk-${i + j}`,
              title: `bulk ${i + j}`,
              source: { plugin: "tests" },
            }),
          ),
        );
      }
      console.log(`[fairness ${provider.name}] seeded ${UNSEEN} in ${Date.now() - seeding} ms`);
      // Created after the long seeding, so no keep-alive connection idles past the server's timeout.
      const bob = await h.newPerson("Bob");
      const store = storeOf(h.herald.database);
      const seenSoFar = () => store.count("NotificationEvent", (q) => q.where("personId", "=", ada.id).where("type", "=", "SEEN"));

      const markStart = Date.now();
      const markAll = gql(h.url, ada.token, "mutation { markAllNotificationsSeen }");
      // Issued once the batch is under way, the publish must not wait for all of it.
      await eventually(async () => (await seenSoFar()) > 0, 30_000, "the batch to start");
      const published = await h.publish({ scope: "PERSON", personId: bob.id, key: "meanwhile", title: "meanwhile" });
      const marked = await markAll;
      console.log(`[fairness ${provider.name}] markAll took ${Date.now() - markStart} ms`);

      expect(marked.data).toEqual({ markAllNotificationsSeen: UNSEEN });
      expect(await seenSoFar()).toBe(UNSEEN);
      const created = await store.first("NotificationEvent", (q) => q.where("notificationId", "=", published.id).where("type", "=", "CREATED"));
      if (!created) throw new Error("the publish wrote no CREATED event");
      const lastSeen = await store.first("NotificationEvent", (q) => q.where("personId", "=", ada.id).where("type", "=", "SEEN").orderBy("seq", "desc"));
      if (!lastSeen) throw new Error("the batch wrote no SEEN event");
      const seenAfter = await store.count("NotificationEvent", (q) =>
        q.where("personId", "=", ada.id).where("type", "=", "SEEN").where("seq", ">", created.seq),
      );
      console.log(`[fairness ${provider.name}] the publish committed with ${seenAfter} of ${UNSEEN} SEEN events still to come`);
      expect(created.seq).toBeLessThan(lastSeen.seq);
      // Interleaved, not merely squeezed in at the very end: most of the batch came after it.
      expect(seenAfter).toBeGreaterThan(UNSEEN / 2);
    });

    it(`lets another person's publish in while completeRequest expires ${PENDING} notifications`, { timeout: 180_000 }, async () => {
      const cy = await h.newPerson("Cy");
      for (let i = 0; i < PENDING; i += 20) {
        await Promise.all(
          Array.from({ length: Math.min(20, PENDING - i) }, (_, j) =>
            h.herald.services.notifications.publish({
              scope: "PERSON",
              personId: cy.id,
              key: `req-${i + j}`,
              title: `step ${i + j}`,
              source: { plugin: "tests" },
              retention: { policy: "UNTIL_REQUEST_COMPLETE", requestId: "long-request" },
            }),
          ),
        );
      }
      const dee = await h.newPerson("Dee");
      const store = storeOf(h.herald.database);
      const expiredSoFar = () => store.count("NotificationEvent", (q) => q.where("personId", "=", cy.id).where("type", "=", "EXPIRED"));
      const completing = gql(h.url, h.producerKey, `mutation { completeRequest(requestId: "long-request") }`);
      await eventually(async () => (await expiredSoFar()) > 0, 30_000, "the expiry to start");
      const published = await h.publish({ scope: "PERSON", personId: dee.id, key: "meanwhile", title: "meanwhile" });
      expect((await completing).data).toEqual({ completeRequest: PENDING });
      const created = await store.first("NotificationEvent", (q) => q.where("notificationId", "=", published.id).where("type", "=", "CREATED"));
      if (!created) throw new Error("the publish wrote no CREATED event");
      const expiredAfter = await store.count("NotificationEvent", (q) =>
        q.where("personId", "=", cy.id).where("type", "=", "EXPIRED").where("seq", ">", created.seq),
      );
      console.log(`[fairness ${provider.name}] the publish committed with ${expiredAfter} of ${PENDING} EXPIRED events still to come`);
      expect(expiredAfter).toBeGreaterThan(PENDING / 2);
    });
  });
}
