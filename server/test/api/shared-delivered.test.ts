// DELIVERED per person for shared (APPLICATION) records, as seen and read are: a person whose
// stream carried the record sees it DELIVERED, another person still PENDING; lists and counts
// follow each person's view; a new revision is undelivered again. The mark is written without an
// event (docs/decisions.md, "Delivered per person for shared records"), so the log and every
// cursor stay as they were. On both providers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { eventually, headCursor, subscribe } from "../support/sse.ts";
import { storeOf } from "../support/store.ts";

const ONE = `query($id: ID!) { notification(id: $id) { id revision status deliveredAt seenAt } }`;
const COUNTS = `query($delivered: NotificationFilter, $all: NotificationFilter) {
  delivered: notifications(first: 100, filter: $delivered) { totalCount edges { node { id status } } }
  deliveredCounts: notificationCounts(filter: $delivered) { total unseen }
  counts: notificationCounts(filter: $all) { total unseen }
}`;

type Person = { id: string; token: string };

for (const provider of providers) {
  describe.skipIf(!provider.available)(`delivered per person for shared records on ${provider.name}`, () => {
    let h: TestHerald;
    beforeAll(async () => {
      h = await startHerald(provider, { heartbeatMs: 60_000 });
    });
    afterAll(async () => h?.close());

    const ok = async (p: Person, query: string, variables?: Record<string, unknown>) => {
      const r = await gql(h.url, p.token, query, variables);
      expect(r.errors).toBeUndefined();
      return r.data;
    };
    const view = async (p: Person, id: string) => (await ok(p, ONE, { id })).notification;
    const counts = async (p: Person) => ok(p, COUNTS, { delivered: { statuses: ["DELIVERED"], scope: "APPLICATION" }, all: { scope: "APPLICATION" } });

    it("marks a shared record delivered for the person whose stream carried it, and for nobody else", async () => {
      const [ada, bob] = [await h.newPerson("Ada"), await h.newPerson("Bob")];
      const stream = subscribe(h.url, ada.token);
      await h.attached(ada.id);
      const n = await h.publish({ scope: "APPLICATION", key: "shared-delivered", title: "Deploy at noon" });
      await stream.waitUntil((events) => events.some((e) => e.type === "CREATED" && e.notification.id === n.id));
      await eventually(async () => (await view(ada, n.id)).status === "DELIVERED", 10_000, "Ada's delivery mark");

      const adas = await view(ada, n.id);
      expect(adas).toMatchObject({ revision: 1, status: "DELIVERED", seenAt: null });
      expect(adas.deliveredAt).not.toBeNull();
      expect(await view(bob, n.id)).toMatchObject({ revision: 1, status: "PENDING", deliveredAt: null });

      // Lists and counts follow each person's view: DELIVERED is Ada's alone, unseen for both.
      const adaCounts = await counts(ada);
      expect(adaCounts.delivered.totalCount).toBe(1);
      expect(adaCounts.delivered.edges[0].node).toEqual({ id: n.id, status: "DELIVERED" });
      expect(adaCounts.deliveredCounts).toEqual({ total: 1, unseen: 1 });
      expect(adaCounts.counts).toEqual({ total: 1, unseen: 1 });
      const bobCounts = await counts(bob);
      expect(bobCounts.delivered.totalCount).toBe(0);
      expect(bobCounts.deliveredCounts).toEqual({ total: 0, unseen: 0 });
      expect(bobCounts.counts).toEqual({ total: 1, unseen: 1 });

      // No event for the mark: the log holds the CREATED alone and Ada's stream got nothing more.
      const store = storeOf(h.herald.database);
      expect(await store.count("NotificationEvent", (q) => q.where("notificationId", "=", n.id))).toBe(1);
      expect(stream.events.filter((e) => e.notification.id === n.id).map((e) => e.type)).toEqual(["CREATED"]);
      expect(stream.events.at(-1)!.cursor).toBe(await headCursor(h.url, ada.token));

      // Seen moves on from delivered; delivered stays recorded.
      await ok(ada, `mutation($ids: [ID!]!) { markNotificationsSeen(ids: $ids) { id } }`, { ids: [n.id] });
      expect(await view(ada, n.id)).toMatchObject({ status: "SEEN", deliveredAt: adas.deliveredAt });

      // A new revision is new to every person again, then delivered again to Ada's stream only.
      stream.dispose();
      await eventually(() => h.herald.feed.listenersOf(ada.id) === 0, 10_000, "the stream to close");
      await h.publish({ scope: "APPLICATION", key: "shared-delivered", title: "Deploy at one" });
      expect(await view(ada, n.id)).toMatchObject({ revision: 2, status: "PENDING", deliveredAt: null, seenAt: null });
      const again = subscribe(h.url, ada.token);
      await h.attached(ada.id);
      await h.publish({ scope: "APPLICATION", key: "shared-delivered", title: "Deploy at two" });
      await again.waitUntil((events) => events.some((e) => e.type === "UPDATED" && e.notification.id === n.id));
      await eventually(async () => (await view(ada, n.id)).status === "DELIVERED", 10_000, "Ada's second delivery mark");
      expect((await view(ada, n.id)).revision).toBe(3);
      expect(await view(bob, n.id)).toMatchObject({ revision: 3, status: "PENDING", deliveredAt: null });
      again.dispose();
    });
  });
}
