// Read apart from seen: markNotificationsRead / markNotificationsUnread / markAllNotificationsRead,
// Notification.readAt, NotificationFilter.unread and notificationCounts.unread, on both providers.
// Read is per person for shared (APPLICATION) records, implies seen, and unread keeps seen.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { headCursor, subscribe } from "../support/sse.ts";
import { storeOf } from "../support/store.ts";

const FIELDS = `id revision status seenAt readAt`;
const READ = `mutation($ids: [ID!]!) { markNotificationsRead(ids: $ids) { ${FIELDS} } }`;
const UNREAD = `mutation($ids: [ID!]!) { markNotificationsUnread(ids: $ids) { ${FIELDS} } }`;
const READ_ALL = `mutation($filter: NotificationFilter) { markAllNotificationsRead(filter: $filter) }`;
const ONE = `query($id: ID!) { notification(id: $id) { ${FIELDS} } }`;
const LIST = `query($filter: NotificationFilter) {
  notifications(first: 100, filter: $filter) { totalCount edges { node { id readAt } } }
  notificationCounts(filter: $filter) { total unseen unread }
}`;
const READ_EVENTS = `subscription($after: String) { notificationEvents(after: $after) { cursor type notification { id status seenAt readAt } } }`;

type Person = { id: string; token: string };

for (const provider of providers) {
  describe.skipIf(!provider.available)(`read state on ${provider.name}`, () => {
    let h: TestHerald;
    let ada: Person;
    let bob: Person;
    const as = (p: Person, query: string, variables?: Record<string, unknown>) => gql(h.url, p.token, query, variables);
    const ok = async (p: Person, query: string, variables?: Record<string, unknown>) => {
      const r = await as(p, query, variables);
      expect(r.errors).toBeUndefined();
      return r.data;
    };
    const list = async (p: Person, filter: Record<string, unknown> = {}) => (await ok(p, LIST, { filter })) as any;

    beforeAll(async () => {
      h = await startHerald(provider);
      ada = await h.newPerson("Ada");
      bob = await h.newPerson("Bob");
    });
    afterAll(async () => h?.close());

    it("reads a PERSON record: read implies seen, no new revision; unread keeps seen", async () => {
      const n = await h.publish({ scope: "PERSON", personId: ada.id, key: "own", title: "Build failed" });
      const fresh = (await ok(ada, ONE, { id: n.id })).notification;
      expect(fresh).toMatchObject({ status: "PENDING", seenAt: null, readAt: null });

      const [read] = (await ok(ada, READ, { ids: [n.id] })).markNotificationsRead;
      expect(read).toMatchObject({ id: n.id, revision: 1, status: "SEEN" });
      expect(read.readAt).not.toBeNull();
      expect(read.seenAt).toBe(read.readAt);

      const [unread] = (await ok(ada, UNREAD, { ids: [n.id] })).markNotificationsUnread;
      expect(unread).toMatchObject({ id: n.id, revision: 1, status: "SEEN", seenAt: read.seenAt, readAt: null });
      // Repeats change nothing.
      expect((await ok(ada, UNREAD, { ids: [n.id] })).markNotificationsUnread[0]).toMatchObject({ readAt: null, seenAt: read.seenAt });
    });

    it("keeps read per person for shared records", async () => {
      const n = await h.publish({ scope: "APPLICATION", key: "maintenance", title: "Maintenance tonight" });
      const bobBefore = await list(bob, { scope: "APPLICATION" });
      const [read] = (await ok(ada, READ, { ids: [n.id] })).markNotificationsRead;
      expect(read).toMatchObject({ status: "SEEN", revision: 1 });
      expect(read.readAt).not.toBeNull();
      // Bob's view and counts are untouched.
      expect((await ok(bob, ONE, { id: n.id })).notification).toMatchObject({ status: "PENDING", seenAt: null, readAt: null });
      expect((await list(bob, { scope: "APPLICATION" })).notificationCounts).toEqual(bobBefore.notificationCounts);
      expect((await list(bob, { scope: "APPLICATION", unread: true })).notifications.edges.map((e: any) => e.node.id)).toContain(n.id);
      expect((await list(ada, { scope: "APPLICATION", unread: true })).notifications.edges.map((e: any) => e.node.id)).not.toContain(n.id);
      // Ada's unread keeps her seen; Bob's read is his own.
      const [unread] = (await ok(ada, UNREAD, { ids: [n.id] })).markNotificationsUnread;
      expect(unread).toMatchObject({ status: "SEEN", readAt: null, seenAt: read.seenAt });
      expect((await ok(bob, READ, { ids: [n.id] })).markNotificationsRead[0].readAt).not.toBeNull();
      expect((await ok(ada, ONE, { id: n.id })).notification.readAt).toBeNull();
    });

    it("filters on unread, and counts.unread equals the unread list's length", async () => {
      const carol = await h.newPerson("Carol");
      const ids: string[] = [];
      for (const [i, severity] of (["INFO", "WARNING", "ERROR", "ERROR"] as const).entries()) {
        ids.push((await h.publish({ scope: "PERSON", personId: carol.id, key: `c${i}`, title: `C${i}`, severity })).id);
      }
      const shared = await h.publish({ scope: "APPLICATION", key: "carol-shared", title: "Shared", severity: "ERROR" });
      await ok(carol, READ, { ids: [ids[0], ids[2]] });

      for (const filter of [{}, { severities: ["ERROR"] }, { scope: "PERSON" }, { scope: "APPLICATION" }]) {
        const unread = await list(carol, { ...filter, unread: true });
        const read = await list(carol, { ...filter, unread: false });
        const all = await list(carol, filter);
        const label = JSON.stringify(filter);
        expect(
          unread.notifications.edges.every((e: any) => e.node.readAt === null),
          label,
        ).toBe(true);
        expect(
          read.notifications.edges.every((e: any) => e.node.readAt !== null),
          label,
        ).toBe(true);
        expect(all.notificationCounts.unread, label).toBe(unread.notifications.edges.length);
        expect(unread.notifications.totalCount, label).toBe(unread.notifications.edges.length);
        expect(all.notificationCounts.total - all.notificationCounts.unread, label).toBe(read.notifications.edges.length);
        // The unread list's own counts agree with it too; a read-only list has no unread ones.
        expect(unread.notificationCounts.unread, label).toBe(unread.notifications.edges.length);
        expect(read.notificationCounts.unread, label).toBe(0);
      }
      const errors = await list(carol, { severities: ["ERROR"], unread: true });
      expect(errors.notifications.edges.map((e: any) => e.node.id).sort()).toEqual([ids[3], shared.id].sort());
    });

    it("markAllNotificationsRead marks what the filter holds unread, for the caller only", async () => {
      const dave = await h.newPerson("Dave");
      const info = await h.publish({ scope: "PERSON", personId: dave.id, key: "d-info", title: "Info" });
      const error = await h.publish({ scope: "PERSON", personId: dave.id, key: "d-error", title: "Error", severity: "ERROR", source: { plugin: "ci" } });
      const shared = await h.publish({ scope: "APPLICATION", key: "d-shared", title: "Shared error", severity: "ERROR", source: { plugin: "ci" } });

      expect((await ok(dave, READ_ALL, { filter: { severities: ["ERROR"], plugins: ["ci"] } })).markAllNotificationsRead).toBe(2);
      expect((await ok(dave, ONE, { id: error.id })).notification).toMatchObject({ status: "SEEN" });
      expect((await ok(dave, ONE, { id: error.id })).notification.readAt).not.toBeNull();
      expect((await ok(dave, ONE, { id: shared.id })).notification.readAt).not.toBeNull();
      expect((await ok(dave, ONE, { id: info.id })).notification).toMatchObject({ status: "PENDING", readAt: null });
      // Someone else's view of the shared record stays unread.
      expect((await ok(ada, ONE, { id: shared.id })).notification.readAt).toBeNull();
      // Again: nothing left to change.
      expect((await ok(dave, READ_ALL, { filter: { severities: ["ERROR"], plugins: ["ci"] } })).markAllNotificationsRead).toBe(0);
      expect((await list(dave, { severities: ["ERROR"], plugins: ["ci"] })).notificationCounts.unread).toBe(0);
    });

    it("changes nothing through another person's ids", async () => {
      const n = await h.publish({ scope: "PERSON", personId: ada.id, key: "private", title: "Ada's own" });
      const probe = storeOf(h.herald.database);
      const lastSeq = (await probe.first("NotificationEvent", (q) => q.orderBy("seq", "desc").limit(1)))!.seq;
      expect((await ok(bob, READ, { ids: [n.id] })).markNotificationsRead).toEqual([]);
      expect((await ok(bob, READ_ALL, { filter: { unread: true } })).markAllNotificationsRead).toBeGreaterThanOrEqual(0);
      expect((await ok(ada, ONE, { id: n.id })).notification).toMatchObject({ status: "PENDING", seenAt: null, readAt: null });
      await ok(ada, READ, { ids: [n.id] });
      expect((await ok(bob, UNREAD, { ids: [n.id] })).markNotificationsUnread).toEqual([]);
      expect((await ok(ada, ONE, { id: n.id })).notification.readAt).not.toBeNull();
      const events = await probe.rows("NotificationEvent", (q) => q.where("seq", ">", lastSeq).where("notificationId", "=", n.id));
      expect(events.map((e) => e.type)).toEqual(["READ"]);
    });

    it("sends READ and UNREAD to the person's other streams, and only to them", async () => {
      const n = await h.publish({ scope: "APPLICATION", key: "live-read", title: "Live read" });
      const adaStream = subscribe(h.url, ada.token, { query: READ_EVENTS, variables: { after: await headCursor(h.url, ada.token) } });
      const bobStream = subscribe(h.url, bob.token, { query: READ_EVENTS, variables: { after: await headCursor(h.url, bob.token) } });
      try {
        await ok(ada, READ, { ids: [n.id] });
        await ok(ada, UNREAD, { ids: [n.id] });
        // A marker Bob does receive: once it is there, Ada's READ/UNREAD would have been too.
        await ok(bob, READ, { ids: [n.id] });
        const got = await adaStream.waitUntil((events) => events.some((e) => e.type === "UNREAD"));
        const mine = got.filter((e) => e.notification.id === n.id) as any[];
        expect(mine.map((e) => e.type)).toEqual(["READ", "UNREAD"]);
        expect(mine[0].notification.readAt).not.toBeNull();
        expect(mine[0].notification.status).toBe("SEEN");
        expect(mine[1].notification).toMatchObject({ status: "SEEN", readAt: null });
        const bobs = (await bobStream.waitUntil((events) => events.some((e) => e.type === "READ"))) as any[];
        expect(bobs.map((e) => `${e.type}:${e.notification.id}`)).toEqual([`READ:${n.id}`]);
      } finally {
        adaStream.dispose();
        bobStream.dispose();
      }
    });

    it("invoking a follow-up reads the notification; a new revision is unread again", async () => {
      const n = await h.publish({
        scope: "PERSON",
        personId: ada.id,
        key: "deploy",
        title: "Deploy?",
        actions: [{ kind: "RUN_ACTION", id: "go", label: "Deploy", actionId: "deploy.run" }],
      });
      const invoked = await as(ada, `mutation($id: ID!) { invokeNotificationAction(id: $id, actionId: "go") { id } }`, { id: n.id });
      expect(invoked.errors).toBeUndefined();
      const read = (await ok(ada, ONE, { id: n.id })).notification;
      expect(read).toMatchObject({ status: "SEEN", revision: 1 });
      expect(read.readAt).not.toBeNull();

      await h.publish({ scope: "PERSON", personId: ada.id, key: "deploy", title: "Deploy? (again)" });
      expect((await ok(ada, ONE, { id: n.id })).notification).toMatchObject({ revision: 2, status: "PENDING", seenAt: null, readAt: null });
    });

    it("refuses an oversized excludePlugins list, naming the field", async () => {
      const r = await as(ada, LIST, { filter: { excludePlugins: Array.from({ length: 101 }, (_, i) => `p${i}`) } });
      expect(r.errors![0]!.extensions).toMatchObject({ code: "VALIDATION_ERROR", field: "filter.excludePlugins" });
    });
  });
}
