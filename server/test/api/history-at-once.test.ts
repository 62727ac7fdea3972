// HERALD_HISTORY_LIMIT at once, on every provider: past the limit a terminal record leaves lists
// and counts immediately, long before the event retention lets the pruner delete it; its row and
// events stay, so a cursor from before still replays exactly. Active records are never hidden.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { headCursor, subscribe } from "../support/sse.ts";
import { storeOf } from "../support/store.ts";

const LIMIT = 5;

for (const provider of providers) {
  describe.skipIf(!provider.available)(`history limit at once on ${provider.name}`, () => {
    let h: TestHerald;
    beforeAll(async () => {
      // A week of event retention, and a pruner that never runs during the test.
      h = await startHerald(provider, { historyLimit: LIMIT, eventRetentionMs: 7 * 24 * 3_600_000, historyIntervalMs: 3_600_000 });
    });
    afterAll(async () => h?.close());

    const resolve = (id: string) =>
      gql(h.url, h.producerKey, `mutation($id: ID!) { resolveNotification(id: $id) { __typename } }`, { id }).then(
        (r) => r.data.resolveNotification.__typename,
      );
    const listed = (token: string, filter: Record<string, unknown>) =>
      gql(
        h.url,
        token,
        `query($f: NotificationFilter) { notifications(first: 100, filter: $f) { totalCount edges { node { key } } } notificationCounts(filter: $f) { total } }`,
        { f: filter },
      ).then((r) => ({
        keys: r.data.notifications.edges.map((e: { node: { key: string } }) => e.node.key),
        totalCount: r.data.notifications.totalCount as number,
        counted: r.data.notificationCounts.total as number,
      }));

    it("lists and counts only the newest terminal records of a target, keeps the rest stored, and never hides an active one", async () => {
      const ada = await h.newPerson("Ada");
      const early = await headCursor(h.url, ada.token);
      const active = await h.publish({ scope: "PERSON", personId: ada.id, key: "active-oldest", title: "still running" });
      const resolved: string[] = [];
      for (let i = 0; i < 12; i++) {
        const n = await h.publish({ scope: "PERSON", personId: ada.id, key: `done-${String(i).padStart(2, "0")}`, title: `done ${i}` });
        expect(await resolve(n.id)).toBe("Notification");
        resolved.push(n.id);
      }
      const newest = Array.from({ length: LIMIT }, (_, i) => `done-${String(11 - i).padStart(2, "0")}`);

      const all = await listed(ada.token, { includeTerminal: true });
      expect(all.keys).toEqual([...newest, "active-oldest"]);
      expect(all.totalCount).toBe(LIMIT + 1);
      expect(all.counted).toBe(LIMIT + 1);
      const terminal = await listed(ada.token, { statuses: ["RESOLVED"] });
      expect(terminal.keys).toEqual(newest);
      expect(terminal.counted).toBe(LIMIT);
      expect((await listed(ada.token, {})).keys).toEqual(["active-oldest"]);

      // Stored still: the rows and their events stay until the retention ends.
      expect(await storeOf(h.herald.database).count("Notification", (q) => q.where("id", "in", resolved))).toBe(12);
      expect(await h.herald.services.history.prune()).toBe(0);
      // A cursor from before replays every event exactly, the hidden records' too.
      const replay = subscribe(h.url, ada.token, { after: early });
      const events = await replay.waitUntil((received) => received.filter((e) => e.type === "RESOLVED").length === 12);
      expect(events.filter((e) => e.type === "RESOLVED").map((e) => e.notification.id)).toEqual(resolved);
      replay.dispose();
      expect(active.id).toBeTruthy();
    });
  });
}
