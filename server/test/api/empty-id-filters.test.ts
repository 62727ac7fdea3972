// An empty sessionId or engagementId in a filter is no filter (as a null one is), whatever filter
// of a similar shape ran before it: the list, its count and markAllNotificationsRead answer the
// same rows for "" and null on both stores, in either order. Each order gets a server of its own,
// so nothing one order ran can decide what the other answers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";

const LIST = `query($filter: NotificationFilter) { notifications(first: 50, filter: $filter) { totalCount edges { node { id } } } notificationCounts(filter: $filter) { total unread } }`;
const READ_ALL = `mutation($filter: NotificationFilter) { markAllNotificationsRead(filter: $filter) }`;
const UNREAD = `mutation($ids: [ID!]!) { markNotificationsUnread(ids: $ids) { id } }`;

type Value = "set" | "" | null;
const fields = ["sessionId", "engagementId"] as const;
/** The filter values in the order they are asked. */
const orders: { name: string; values: Value[] }[] = [
  { name: "empty after a null and a set id", values: [null, "set", ""] },
  { name: "empty first, then a set id and a null", values: ["", "set", null] },
];

for (const provider of providers) {
  for (const order of orders) {
    describe.skipIf(!provider.available)(`an empty sessionId or engagementId is no filter on ${provider.name} (${order.name})`, () => {
      let h: TestHerald;
      let person: { id: string; token: string };
      const setIds = { sessionId: "", engagementId: "" };
      const all: string[] = [];
      const within = { sessionId: [] as string[], engagementId: [] as string[] };
      const asPerson = (query: string, variables?: Record<string, unknown>) => gql(h.url, person.token, query, variables);
      const filterOf = (field: (typeof fields)[number], value: Value) => ({ [field]: value === "set" ? setIds[field] : value });

      async function publish(input: Record<string, unknown>): Promise<string> {
        const n = await h.publish({ key: `row:${all.length}`, title: `Row ${all.length}`, ...input });
        expect(n.__typename, JSON.stringify(n)).toBe("Notification");
        all.push(n.id);
        return n.id;
      }

      beforeAll(async () => {
        h = await startHerald(provider);
        person = await h.newPerson("Reader");
        const producer = (query: string, variables: Record<string, unknown>) => gql(h.url, h.producerKey, query, variables);
        const s = await producer(`mutation($o: ID!) { createSession(input: { harness: "pi", sessionId: "empty-filter", ownerPersonId: $o }) { id } }`, {
          o: person.id,
        });
        setIds.sessionId = s.data.createSession.id;
        const e = await producer(`mutation($o: ID!) { createEngagement(input: { name: "Empty filter", operatorPersonId: $o }) { id } }`, { o: person.id });
        setIds.engagementId = e.data.createEngagement.id;
        for (let i = 0; i < 2; i++) within.sessionId.push(await publish({ scope: "SESSION", sessionId: setIds.sessionId }));
        for (let i = 0; i < 2; i++) within.engagementId.push(await publish({ scope: "PERSON", personId: person.id, engagementId: setIds.engagementId }));
        await publish({ scope: "PERSON", personId: person.id });
        // A shared record: a session filter leaves the shared rows out, no filter keeps them.
        await publish({ scope: "APPLICATION" });
      });
      afterAll(async () => h?.close());

      it.each(fields)("%s: lists and counts the same rows for the empty string as for null, whatever ran before", async (field) => {
        for (const value of order.values) {
          const expected = value === "set" ? within[field] : all;
          const r = await asPerson(LIST, { filter: filterOf(field, value) });
          expect(r.errors).toBeUndefined();
          const ids = r.data.notifications.edges.map((e: { node: { id: string } }) => e.node.id);
          expect(ids.sort(), `${field}: ${JSON.stringify(value)}`).toEqual([...expected].sort());
          expect(r.data.notifications.totalCount, `${field}: ${JSON.stringify(value)}`).toBe(expected.length);
          expect(r.data.notificationCounts, `${field}: ${JSON.stringify(value)}`).toEqual({ total: expected.length, unread: expected.length });
        }
      });

      it.each(fields)("%s: markAllNotificationsRead marks what the empty string's list holds, whatever ran before", async (field) => {
        expect((await asPerson(UNREAD, { ids: all })).errors).toBeUndefined();
        // The empty string must mark every unread row it lists, never only the set id's.
        const marks: { value: "set" | ""; changed: number }[] =
          order.values[0] === ""
            ? [
                { value: "", changed: all.length },
                { value: "set", changed: 0 },
              ]
            : [
                { value: "set", changed: within[field].length },
                { value: "", changed: all.length - within[field].length },
              ];
        for (const { value, changed } of marks) {
          const r = await asPerson(READ_ALL, { filter: filterOf(field, value) });
          expect(r.errors).toBeUndefined();
          expect(r.data.markAllNotificationsRead, `${field}: ${JSON.stringify(value)}`).toBe(changed);
        }
        expect((await asPerson(LIST, { filter: { unread: true } })).data.notifications.totalCount).toBe(0);
      });
    });
  }
}
