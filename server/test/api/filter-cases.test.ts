// The server's list rules checked against the table the SDK's matchesFilter is checked against
// (sdk/test/filter-cases.ts), so the two cannot drift. The rules live in the storage query (SQL
// on each provider), so the check goes through the real `notifications` query on both
// providers rather than a copy of the rules in a domain function.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CaseFilter, type CaseRecord, filterCases } from "../../../sdk/test/filter-cases.ts";
import { gql, resultFields } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";

const HOUR = 3_600_000;
const MINUTE = 60_000;
const LIST = `query($filter: NotificationFilter) { notifications(first: 100, filter: $filter) { totalCount edges { node { id } } } }`;
const COUNTS = `query($filter: NotificationFilter, $unread: NotificationFilter) {
  notificationCounts(filter: $filter) { total unread }
  unreadList: notifications(first: 1, filter: $unread) { totalCount }
}`;

for (const provider of providers) {
  describe.skipIf(!provider.available)(`list filters against the shared case table on ${provider.name}`, () => {
    let h: TestHerald;
    let person: { id: string; token: string };
    const sessions: Record<"A" | "B", string> = { A: "", B: "" };
    const engagements: Record<"A" | "B", string> = { A: "", B: "" };
    const ids: string[] = [];

    const producer = (query: string, variables?: Record<string, unknown>) => gql(h.url, h.producerKey, query, variables);
    const asPerson = (query: string, variables?: Record<string, unknown>) => gql(h.url, person.token, query, variables);

    /** Brings a published record into the case's state through the same paths a client uses. */
    async function realise(record: CaseRecord, index: number): Promise<string> {
      const now = h.clock.now().getTime();
      const n = await h.publish({
        scope: record.scope,
        ...(record.scope === "PERSON" ? { personId: person.id } : {}),
        ...(record.session ? { sessionId: sessions[record.session] } : {}),
        ...(record.engagement ? { engagementId: engagements[record.engagement] } : {}),
        key: `case:${index}`,
        title: `Case ${index}`,
        ...(record.severity ? { severity: record.severity } : {}),
        ...(record.plugin ? { source: { plugin: record.plugin } } : {}),
        ...(record.ttl ? { retention: { policy: "TTL", expiresAt: new Date(now + (record.ttl === "future" ? 2 * HOUR : 5 * MINUTE)).toISOString() } } : {}),
      });
      const id = n.id as string;
      const check = (r: { errors?: unknown }) => expect(r.errors, `case ${index}`).toBeUndefined();
      switch (record.status) {
        case "PENDING":
          break;
        case "DELIVERED":
          // What an open stream of the reader does when the record reaches it.
          await h.herald.services.notifications.markDelivered(person.id, id);
          break;
        case "SEEN":
          check(await asPerson(`mutation($ids: [ID!]!) { markNotificationsSeen(ids: $ids) { id } }`, { ids: [id] }));
          break;
        case "DISMISSED":
          check(await asPerson(`mutation($id: ID!) { dismissNotification(id: $id) { ${resultFields("dismiss")} } }`, { id }));
          break;
        case "RESOLVED":
          check(await producer(`mutation($id: ID!) { resolveNotification(id: $id) { ${resultFields("resolve")} } }`, { id }));
          break;
        case "EXPIRED":
          check(await producer(`mutation($id: ID!) { expireNotification(id: $id) { ${resultFields("resolve")} } }`, { id }));
          break;
      }
      if (record.read) check(await asPerson(`mutation($ids: [ID!]!) { markNotificationsRead(ids: $ids) { id } }`, { ids: [id] }));
      if (record.snoozed) {
        const until = new Date(now + (record.snoozed === "future" ? 2 * HOUR : MINUTE)).toISOString();
        check(await asPerson(`mutation($id: ID!, $u: DateTime!) { snoozeNotification(id: $id, until: $u) { id } }`, { id, u: until }));
      }
      return id;
    }

    function toFilter(f: CaseFilter): Record<string, unknown> {
      return {
        ...(f.statuses ? { statuses: f.statuses } : {}),
        ...(f.scope ? { scope: f.scope } : {}),
        ...(f.session ? { sessionId: sessions[f.session] } : {}),
        ...(f.engagement ? { engagementId: engagements[f.engagement] } : {}),
        ...(f.includeTerminal !== undefined ? { includeTerminal: f.includeTerminal } : {}),
        ...(f.includeSnoozed !== undefined ? { includeSnoozed: f.includeSnoozed } : {}),
        ...(f.severities !== undefined ? { severities: f.severities } : {}),
        ...(f.plugins !== undefined ? { plugins: f.plugins } : {}),
        ...(f.excludePlugins !== undefined ? { excludePlugins: f.excludePlugins } : {}),
        ...(f.unread !== undefined ? { unread: f.unread } : {}),
      };
    }

    beforeAll(async () => {
      // The snooze waker stays out of the way: a passed snooze is left for the list rules to judge.
      h = await startHerald(provider, { snoozeIntervalMs: 24 * HOUR });
      person = await h.newPerson("Reader");
      for (const name of ["A", "B"] as const) {
        const s = await producer(`mutation($o: ID!, $s: String!) { createSession(input: { harness: "pi", sessionId: $s, ownerPersonId: $o }) { id } }`, {
          o: person.id,
          s: `filter-${name}`,
        });
        sessions[name] = s.data.createSession.id;
        const e = await producer(`mutation($o: ID!, $n: String!) { createEngagement(input: { name: $n, operatorPersonId: $o }) { id } }`, {
          o: person.id,
          n: `Engagement ${name}`,
        });
        engagements[name] = e.data.createEngagement.id;
      }
      for (const [index, c] of filterCases.entries()) ids.push(await realise(c.record, index));
      // "Past" snoozes and TTLs are now behind the clock; "future" ones are still ahead.
      h.clock.advance(10 * MINUTE);
    });
    afterAll(async () => h?.close());

    it.each(filterCases.map((c, index) => [c.name, index] as const))("%s", async (_name, index) => {
      const c = filterCases[index]!;
      const r = await asPerson(LIST, { filter: toFilter(c.filter) });
      expect(r.errors).toBeUndefined();
      const listed = r.data.notifications.edges.map((e: any) => e.node.id);
      expect(listed.includes(ids[index]), JSON.stringify(c)).toBe(c.visible);
      // Counts read the same rules as the list (storage/notifications/notification-page-sql.ts): they must agree.
      if (listed.length < 100) expect(r.data.notifications.totalCount, JSON.stringify(c)).toBe(listed.length);
      else expect(r.data.notifications.totalCount).toBeGreaterThanOrEqual(100);
      // So do the counts: unread is the length of the same list narrowed to unread records
      // (none when the filter asks for read ones).
      const counts = await asPerson(COUNTS, { filter: toFilter(c.filter), unread: { ...toFilter(c.filter), unread: true } });
      expect(counts.errors).toBeUndefined();
      expect(counts.data.notificationCounts.total, JSON.stringify(c)).toBe(r.data.notifications.totalCount);
      const unread = c.filter.unread === false ? 0 : counts.data.unreadList.totalCount;
      expect(counts.data.notificationCounts.unread, JSON.stringify(c)).toBe(unread);
    });
  });
}
