// markNotificationsSeen writes a batch as a handful of statements (NotificationTx.applyBatch).
// The rules it re-implements are checked here on a 500-id call that mixes every case, on every
// provider: visible unseen records (PERSON and shared), ones already seen, dismissed or ended,
// another person's, and ids that do not exist.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSnapshot } from "@herald/server/domain/notification-snapshot";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";

for (const provider of providers) {
  describe.skipIf(!provider.available)(`markNotificationsSeen batch on ${provider.name}`, () => {
    let h: TestHerald;
    let ada: { id: string };
    let bob: { id: string };
    let carol: { id: string };

    beforeAll(async () => {
      h = await startHerald(provider);
      ada = await h.newPerson("Ada");
      bob = await h.newPerson("Bob");
      carol = await h.newPerson("Carol");
    });
    afterAll(async () => h?.close());

    it("a mixed 500-id call changes exactly the person's unseen records, with one event each, in order", async () => {
      const service = h.herald.services.notifications;
      const probe = storeOf(h.herald.database);
      const publish = (input: Record<string, unknown>) => service.publish({ source: { plugin: "t" }, title: "t", ...input });
      const adaUnseen: string[] = [];
      for (let i = 0; i < 120; i++) adaUnseen.push((await publish({ scope: "PERSON", personId: ada.id, key: `a${i}` })).id);
      const adaSeen: string[] = [];
      for (let i = 0; i < 20; i++) adaSeen.push((await publish({ scope: "PERSON", personId: ada.id, key: `s${i}` })).id);
      await service.markSeen(ada.id, adaSeen);
      const adaEnded: string[] = [];
      for (let i = 0; i < 30; i++) {
        const id = (await publish({ scope: "PERSON", personId: ada.id, key: `r${i}` })).id;
        await (i % 2 ? service.resolve(id, null) : service.dismiss(ada.id, id, null, null));
        adaEnded.push(id);
      }
      const bobs: string[] = [];
      for (let i = 0; i < 60; i++) bobs.push((await publish({ scope: "PERSON", personId: bob.id, key: `b${i}` })).id);
      const shared: string[] = [];
      for (let i = 0; i < 40; i++) shared.push((await publish({ scope: "APPLICATION", key: `app${i}` })).id);
      const sharedDismissed = shared.slice(0, 10);
      const sharedSeen = shared.slice(10, 20);
      const sharedEnded = shared.slice(20, 25);
      const sharedUnseen = shared.slice(25);
      for (const id of sharedDismissed) await service.dismiss(ada.id, id, null, null);
      await service.markSeen(ada.id, sharedSeen);
      for (const id of sharedEnded) await service.expire(id, null);
      await service.markSeen(bob.id, sharedUnseen.slice(0, 5)); // another person's receipt exists already
      // 499 distinct ids and one repeat: the per-call limit (500) counts ids as sent.
      const unknown = Array.from({ length: 499 - 120 - 20 - 30 - 60 - 40 }, () => `c${randomUUID().replaceAll("-", "")}`);

      // Interleaved, with a repeat: the result follows the order of first mention.
      const all = [...adaUnseen, ...adaSeen, ...adaEnded, ...bobs, ...shared, ...unknown];
      const ids = all
        .map((id, i) => ({ id, k: (i * 7919) % all.length }))
        .sort((a, b) => a.k - b.k)
        .map((x) => x.id);
      expect(ids).toHaveLength(499);
      const visible = new Set([...adaUnseen, ...adaSeen, ...adaEnded, ...shared]);
      const changes = new Set([...adaUnseen, ...sharedUnseen]);
      const before = await probe.rows("Notification", (q) => q.where("id", "in", all));
      const lastSeq = (await probe.first("NotificationEvent", (q) => q.orderBy("seq", "desc").limit(1)))!.seq;

      // Through the service: the call is what is under test (the API tests cover the transport).
      const result = await service.markSeen(ada.id, [...ids, ids[0]!]);
      expect(result.map((n) => n.id)).toEqual(ids.filter((id) => visible.has(id)));
      const expected = (id: string) =>
        adaEnded.includes(id)
          ? before.find((b) => b.id === id)!.status
          : sharedDismissed.includes(id)
            ? "DISMISSED"
            : sharedEnded.includes(id)
              ? "EXPIRED"
              : "SEEN";
      for (const n of result) expect([n.id, n.status]).toEqual([n.id, expected(n.id)]);
      for (const n of result) expect(n.revision).toBe(before.find((b) => b.id === n.id)!.revision);

      // One SEEN event per changed record, for Ada, in the result's order, with consecutive numbers.
      const events = await probe.rows("NotificationEvent", (q) => q.where("seq", ">", lastSeq).orderBy("seq", "asc"));
      expect(events.map((e) => e.notificationId)).toEqual(ids.filter((id) => changes.has(id)));
      expect(new Set(events.map((e) => `${e.type}|${e.personId}`))).toEqual(new Set([`SEEN|${ada.id}`]));
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => lastSeq + 1 + i));
      for (const e of events) {
        const snapshot = parseSnapshot(e.snapshot);
        expect(snapshot.status).toBe("SEEN");
        expect(snapshot.revision).toBe(e.revision);
        expect(snapshot.seenAt).not.toBeNull();
      }
      expect((await probe.first("EventCounter", (q) => q.where("name", "=", "events")))!.value).toBe(lastSeq + events.length);

      // Rows: Ada's unseen ones are SEEN (lockVersion moved on), nothing else changed; shared rows stay PENDING.
      const after = new Map((await probe.rows("Notification", (q) => q.where("id", "in", all))).map((row) => [row.id, row]));
      for (const row of before) {
        const now = after.get(row.id)!;
        if (adaUnseen.includes(row.id)) {
          expect([row.id, now.status, now.lockVersion, now.seenAt !== null]).toEqual([row.id, "SEEN", row.lockVersion + 1, true]);
        } else {
          expect([row.id, now.status, now.lockVersion, now.updatedAt.getTime()]).toEqual([row.id, row.status, row.lockVersion, row.updatedAt.getTime()]);
        }
      }
      // Receipts: Ada's for the unseen shared ones now say seen, the dismissed ones keep their dismissal, nobody else got one.
      const receipts = await probe.rows("NotificationReceipt", (q) => q.where("notificationId", "in", shared));
      const adas = new Map(receipts.filter((x) => x.personId === ada.id).map((x) => [x.notificationId, x]));
      for (const id of [...sharedUnseen, ...sharedSeen]) expect(adas.get(id)?.seenAt).not.toBeFalsy();
      for (const id of sharedDismissed) expect([id, adas.get(id)?.dismissedAt !== null, adas.get(id)?.seenAt ?? null]).toEqual([id, true, null]);
      expect(adas.has(sharedEnded[0]!)).toBe(false);
      expect(receipts.filter((x) => x.personId === bob.id).map((x) => x.seenAt !== null)).toEqual([true, true, true, true, true]);
      expect(receipts.some((x) => x.personId === carol.id)).toBe(false);

      // A repeat changes nothing and writes nothing.
      const again = await service.markSeen(ada.id, ids);
      expect(again.map((n) => `${n.id}:${n.status}`)).toEqual(result.map((n) => `${n.id}:${n.status}`));
      expect(await probe.count("NotificationEvent", (q) => q.where("seq", ">", lastSeq))).toBe(events.length);
    });
  });
}
