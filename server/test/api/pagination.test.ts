// Keyset pagination over real HTTP: newest first, stable while rows are inserted, and cursors
// that only work for the person they were issued to.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";

const PAGE = `query($first: Int, $after: String, $last: Int, $before: String, $filter: NotificationFilter) {
  notifications(first: $first, after: $after, last: $last, before: $before, filter: $filter) {
    totalCount
    edges { cursor node { id createdAt } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

for (const provider of providers) {
  describe.skipIf(!provider.available)(`pagination on ${provider.name}`, () => {
    let h: TestHerald;
    let frank: { id: string; token: string };
    const expected: string[] = []; // newest first

    beforeAll(async () => {
      h = await startHerald(provider);
      frank = await h.newPerson("Frank");
      for (let i = 0; i < 230; i++) {
        // Every tenth pair shares a createdAt, so the id tie-break is exercised too.
        if (i % 10 !== 1) h.clock.tick();
        const r = await gql(h.url, h.producerKey, `mutation($i: PublishNotificationInput!) { publishNotification(input: $i) { ... on Notification { id } } }`, {
          i: { scope: "PERSON", personId: frank.id, key: `k${i}`, title: `n${i}`, source: { plugin: "t" } },
        });
        expected.push(r.data.publishNotification.id);
      }
      const created = await storeOf(h.herald.database).pick("Notification", ["id"], (q) =>
        q.where("personId", "=", frank.id).orderBy("createdAt", "desc").orderBy("id", "desc"),
      );
      expected.splice(0, expected.length, ...created.map((c) => c.id));
    });
    afterAll(async () => h?.close());

    const page = (variables: Record<string, unknown>, token = frank.token) => gql(h.url, token, PAGE, variables);

    it("walks every record once, newest first, while new ones are inserted", async () => {
      const seen: string[] = [];
      let after: string | null = null;
      let inserted = 0;
      for (let guard = 0; guard < 50; guard++) {
        const r = await page({ first: 40, after });
        expect(r.errors).toBeUndefined();
        const conn = r.data.notifications;
        seen.push(...conn.edges.map((e: { node: { id: string } }) => e.node.id));
        // Concurrent inserts land before the first page and must not disturb the walk.
        await Promise.all([0, 1, 2].map(() => h.publish({ scope: "PERSON", personId: frank.id, key: `late-${inserted++}`, title: "late" })));
        if (!conn.pageInfo.hasNextPage) break;
        after = conn.pageInfo.endCursor;
      }
      expect(seen).toEqual(expected);
      expect(new Set(seen).size).toBe(seen.length);
    });

    it("pages backwards with last/before and reports page boundaries", async () => {
      const first = (await page({ first: 5 })).data.notifications;
      expect(first.pageInfo.hasPreviousPage).toBe(false);
      expect(first.pageInfo.hasNextPage).toBe(true);
      const second = (await page({ first: 5, after: first.pageInfo.endCursor })).data.notifications;
      const back = (await page({ last: 5, before: second.pageInfo.startCursor })).data.notifications;
      expect(back.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(first.edges.map((e: { node: { id: string } }) => e.node.id));
      // Nothing is newer than the first page; a backward page that stops short of it says so.
      expect(back.pageInfo.hasPreviousPage).toBe(false);
      const partial = (await page({ last: 3, before: first.pageInfo.endCursor })).data.notifications;
      expect(partial.edges).toHaveLength(3);
      expect(partial.pageInfo.hasPreviousPage).toBe(true);
    });

    it("counts the whole filtered list", async () => {
      const r = await page({ first: 1, filter: { scope: "PERSON" } });
      expect(r.data.notifications.totalCount).toBeGreaterThanOrEqual(230);
      expect(r.data.notifications.edges).toHaveLength(1);
    });

    it("refuses page sizes out of range and first with last, naming the argument", async () => {
      const tooBig = await page({ first: 101 });
      expect(tooBig.errors?.[0]?.extensions).toMatchObject({ code: "VALIDATION_ERROR", field: "first" });
      const negative = await page({ last: -1 });
      expect(negative.errors?.[0]?.extensions).toMatchObject({ code: "VALIDATION_ERROR", field: "last" });
      const both = await page({ first: 1, last: 1 });
      expect(both.errors?.[0]?.extensions).toMatchObject({ code: "VALIDATION_ERROR" });
    });

    it("refuses malformed, tampered and foreign cursors", async () => {
      const malformed = await page({ first: 5, after: "not-a-cursor" });
      expect(malformed.errors?.[0]?.extensions).toMatchObject({ code: "VALIDATION_ERROR", field: "after" });
      const cursor: string = (await page({ first: 5 })).data.notifications.pageInfo.endCursor;
      const tampered = cursor.slice(0, 3) + (cursor[3] === "A" ? "B" : "A") + cursor.slice(4);
      expect((await page({ first: 5, after: tampered })).errors?.[0]?.extensions).toMatchObject({ field: "after" });
      const grace = await h.newPerson("Grace");
      const foreign = await page({ first: 5, before: cursor }, grace.token);
      expect(foreign.errors?.[0]?.extensions).toMatchObject({ code: "VALIDATION_ERROR", field: "before" });
      expect(foreign.data).toBeNull();
    });
  });
}
