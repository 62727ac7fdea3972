// At most one active occurrence per (scope target, key), also under parallel publishes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";

for (const provider of providers) {
  describe.skipIf(!provider.available)(`concurrent publishes on ${provider.name}`, () => {
    let h: TestHerald;
    let ada: { id: string; token: string };

    beforeAll(async () => {
      h = await startHerald(provider);
      ada = await h.newPerson("Ada");
    });
    afterAll(async () => h?.close());

    const publish = (key: string, title: string) =>
      gql(
        h.url,
        h.producerKey,
        `mutation($i: PublishNotificationInput!) { publishNotification(input: $i) { __typename ... on Notification { id revision } } }`,
        {
          i: { scope: "PERSON", personId: ada.id, key, title, source: { plugin: "race" } },
        },
      );

    it("turns 24 parallel publishes of one key into one occurrence with revisions 1..24", async () => {
      const results = await Promise.all(Array.from({ length: 24 }, (_, i) => publish("race", `attempt ${i}`)));
      for (const r of results) expect(r.errors).toBeUndefined();
      const notes = results.map((r) => r.data.publishNotification);
      expect(new Set(notes.map((n) => n.id)).size).toBe(1);
      expect(notes.map((n) => n.revision).sort((a, b) => a - b)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
      const probe = storeOf(h.herald.database);
      const rows = await probe.rows("Notification", (q) => q.where("personId", "=", ada.id).where("key", "=", "race"));
      expect(rows).toHaveLength(1);
      expect(rows[0]!.revision).toBe(24);
      const events = await probe.rows("NotificationEvent", (q) => q.where("notificationId", "=", rows[0]!.id));
      expect(events.map((e) => e.revision).sort((a, b) => a - b)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    });

    it("keeps distinct keys apart under parallel publishes and resolutions", async () => {
      const keys = Array.from({ length: 6 }, (_, i) => `multi-${i}`);
      await Promise.all(keys.flatMap((k) => [publish(k, "a"), publish(k, "b"), publish(k, "c")]));
      const probe = storeOf(h.herald.database);
      const rows = await probe.rows("Notification", (q) => q.where("personId", "=", ada.id).where("key", "in", keys));
      expect(rows).toHaveLength(keys.length);
      expect(rows.every((r) => r.revision === 3)).toBe(true);

      // Resolve and republish race: afterwards at most one active occurrence per key.
      await Promise.all(
        rows.flatMap((r) => [
          gql(h.url, h.producerKey, `mutation($id: ID!) { resolveNotification(id: $id) { __typename } }`, { id: r.id }),
          publish(r.key, "again"),
        ]),
      );
      for (const key of keys) {
        const active = await probe.count("Notification", (q) => q.where("personId", "=", ada.id).where("key", "=", key).where("activeKey", "is not", null));
        expect(active).toBeLessThanOrEqual(1);
      }
    });

    it("gives event-log sequence numbers that are unique and gapless across parallel writers", async () => {
      await Promise.all(Array.from({ length: 20 }, (_, i) => publish(`seq-${i % 4}`, `s${i}`)));
      const events = await storeOf(h.herald.database).pick("NotificationEvent", ["seq"], (q) => q.orderBy("seq", "asc"));
      const seqs = events.map((e) => e.seq);
      expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    });
  });
}
