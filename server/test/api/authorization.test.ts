// Who may call what, over real HTTP, on every storage provider (docs/api.md, "Who calls").
// Ada owns every notification here. Bob (another person), the producer key, Ada's own token used
// for producer work, and missing, bogus or revoked credentials all try to reach or change Ada's
// records, and every attempt must fail without changing or revealing anything.
// No APPLICATION notification is published in this file, so Bob's own view is exactly empty.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql, type GraphQLResponse, resultFields } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";

type Person = { id: string; token: string };
type Vars = Record<string, unknown>;

const LIST = `query($filter: NotificationFilter) {
  notifications(first: 100, filter: $filter) { edges { node { id } } totalCount }
  notificationCounts(filter: $filter) { total unseen }
}`;
const NOTIFICATION = `query($id: ID!) { notification(id: $id) { id title status revision } }`;
const ALL_STATUSES = ["PENDING", "DELIVERED", "SEEN", "DISMISSED", "RESOLVED", "EXPIRED"];

/** A failure response must not echo the credential nor carry a stack trace. */
function expectNoSecretOrStack(text: string, secret: string) {
  expect(text).not.toContain(secret);
  expect(text).not.toMatch(/"stack"/);
  expect(text).not.toMatch(/\\n\s*at |\bat \S+ \(\S+:\d+:\d+\)/);
  expect(text).not.toContain("originalError");
}

for (const provider of providers) {
  describe.skipIf(!provider.available)(`authorization on ${provider.name}`, () => {
    let h: TestHerald;
    let ada: Person;
    let bob: Person;
    let session: { id: string; harness: string; sessionId: string };
    let engagement: { id: string; name: string };
    // Ada's notifications, by role.
    let personal: any;
    let inSession: any;
    let engaged: any;
    let requestBound: any;
    let snoozed: any;
    let done: any;
    const paged: any[] = [];
    let adaIds: string[] = [];
    let adaTitles: string[] = [];
    let adaCursor: string;
    let adaFirstPage: string[];
    let adaCounts: { total: number; unseen: number };

    const as = (who: Person | string | null, query: string, variables?: Vars) =>
      gql(h.url, who === null || typeof who === "string" ? who : who.token, query, variables);
    const producer = (query: string, variables?: Vars) => gql(h.url, h.producerKey, query, variables);
    const idsOf = (r: GraphQLResponse<any>): string[] => r.data.notifications.edges.map((e: any) => e.node.id);
    const firstError = (r: GraphQLResponse) => r.errors?.[0];
    /** Nothing in a response names one of Ada's notifications. */
    const expectNothingOfAda = (r: GraphQLResponse) => {
      const text = JSON.stringify(r);
      for (const id of adaIds) expect(text).not.toContain(id);
      for (const title of adaTitles) expect(text).not.toContain(title);
    };
    /** Everything a refused call could have written: row counts, Ada's rows and Ada herself. */
    const snapshot = async () => {
      const probe = storeOf(h.herald.database);
      const counts = {
        persons: await probe.count("Person"),
        credentials: await probe.count("Credential"),
        sessions: await probe.count("Session"),
        engagements: await probe.count("Engagement"),
        members: await probe.count("EngagementMember"),
        facts: await probe.count("RememberedFact"),
        notifications: await probe.count("Notification"),
        receipts: await probe.count("NotificationReceipt"),
        events: await probe.count("NotificationEvent"),
      };
      const adaRows = await probe.rows("Notification", (q) => q.where("personId", "=", ada.id).orderBy("id", "asc"));
      const adaPerson = await probe.first("Person", (q) => q.where("id", "=", ada.id));
      return { counts, adaRows, adaPerson };
    };

    beforeAll(async () => {
      h = await startHerald(provider);
      ada = await h.newPerson("Ada");
      bob = await h.newPerson("Bob");

      const s = await producer(
        `mutation($o: ID!) { createSession(input: { harness: "pi", sessionId: "ada-native-1", ownerPersonId: $o }) { id harness sessionId } }`,
        {
          o: ada.id,
        },
      );
      session = s.data.createSession;
      const e = await producer(`mutation($o: ID!) { createEngagement(input: { name: "Ada's audit", operatorPersonId: $o }) { id name } }`, { o: ada.id });
      engagement = e.data.createEngagement;

      personal = await h.publish({ scope: "PERSON", personId: ada.id, key: "ada:personal", title: "Ada personal secret" });
      inSession = await h.publish({ scope: "SESSION", sessionId: session.id, key: "ada:session", title: "Ada session secret" });
      engaged = await h.publish({ scope: "PERSON", personId: ada.id, key: "ada:engaged", title: "Ada engagement secret", engagementId: engagement.id });
      requestBound = await h.publish({
        scope: "PERSON",
        personId: ada.id,
        key: "ada:request",
        title: "Ada request secret",
        retention: { policy: "UNTIL_REQUEST_COMPLETE", requestId: "ada-request" },
      });
      snoozed = await h.publish({ scope: "PERSON", personId: ada.id, key: "ada:snoozed", title: "Ada snoozed secret" });
      done = await h.publish({ scope: "PERSON", personId: ada.id, key: "ada:done", title: "Ada finished secret" });
      for (let i = 0; i < 3; i++) paged.push(await h.publish({ scope: "PERSON", personId: ada.id, key: `ada:page:${i}`, title: `Ada paged secret ${i}` }));

      const until = new Date(h.clock.now().getTime() + 3_600_000).toISOString();
      const sz = await as(ada, `mutation($id: ID!, $u: DateTime!) { snoozeNotification(id: $id, until: $u) { snoozedUntil } }`, { id: snoozed.id, u: until });
      expect(sz.data.snoozeNotification.snoozedUntil).toBe(until);
      const rs = await producer(`mutation($id: ID!) { resolveNotification(id: $id) { ${resultFields("resolve")} } }`, { id: done.id });
      expect(rs.data.resolveNotification.status).toBe("RESOLVED");

      const all = [personal, inSession, engaged, requestBound, snoozed, done, ...paged];
      adaIds = all.map((n) => n.id);
      adaTitles = all.map((n) => n.title);
      expect(inSession).toMatchObject({ scope: "SESSION", personId: ada.id, sessionId: session.id });
      expect(engaged.engagement).toEqual(engagement);

      const page = await as(ada, `{ notifications(first: 2) { edges { node { id } } pageInfo { hasNextPage endCursor } } }`);
      expect(page.data.notifications.pageInfo.hasNextPage).toBe(true);
      adaCursor = page.data.notifications.pageInfo.endCursor;
      adaFirstPage = idsOf(page);
      adaCounts = (await as(ada, `{ notificationCounts { total unseen } }`)).data.notificationCounts;
      // Active, not snoozed: personal, session, engaged, request-bound and the three paged ones.
      expect(adaCounts).toEqual({ total: 7, unseen: 7 });
    });
    afterAll(async () => h?.close());

    describe("another person's token (Bob)", () => {
      it("gets null for Ada's notifications by id, whatever their scope or state, and by key", async () => {
        for (const n of [personal, inSession, engaged, snoozed, done]) {
          const r = await as(bob, NOTIFICATION, { id: n.id });
          expect(r.errors).toBeUndefined();
          expect(r.data).toEqual({ notification: null });
        }
        const byKey = await as(bob, NOTIFICATION, { id: personal.key });
        expect(byKey.data).toEqual({ notification: null });
        // The same ids are Ada's to read.
        const own = await as(ada, NOTIFICATION, { id: inSession.id });
        expect(own.data.notification).toMatchObject({ id: inSession.id, title: "Ada session secret" });
      });

      const filters: { name: string; filter: () => Vars | null; adaSees: () => any[] }[] = [
        { name: "no filter", filter: () => null, adaSees: () => [personal, inSession, engaged, ...paged] },
        { name: "Ada's sessionId", filter: () => ({ sessionId: session.id }), adaSees: () => [inSession] },
        { name: "Ada's engagementId", filter: () => ({ engagementId: engagement.id }), adaSees: () => [engaged] },
        { name: "scope PERSON", filter: () => ({ scope: "PERSON" }), adaSees: () => [personal, engaged, ...paged] },
        { name: "scope SESSION", filter: () => ({ scope: "SESSION" }), adaSees: () => [inSession] },
        { name: "includeTerminal", filter: () => ({ includeTerminal: true }), adaSees: () => [personal, done] },
        { name: "includeSnoozed", filter: () => ({ includeSnoozed: true }), adaSees: () => [personal, snoozed] },
        {
          name: "every status, terminal and snoozed",
          filter: () => ({ statuses: ALL_STATUSES, includeTerminal: true, includeSnoozed: true }),
          adaSees: () => [personal, inSession, engaged, requestBound, snoozed, done, ...paged],
        },
      ];

      it.each(filters)("lists, counts and marks none of Ada's notifications with $name", async ({ filter, adaSees }) => {
        // The filter does select Ada's records for Ada...
        const mine = await as(ada, LIST, { filter: filter() });
        expect(idsOf(mine)).toEqual(expect.arrayContaining(adaSees().map((n) => n.id)));
        expect(mine.data.notificationCounts.total).toBeGreaterThanOrEqual(adaSees().length);

        // ...and nothing at all for Bob, who has no notifications of his own.
        const before = await snapshot();
        const theirs = await as(bob, LIST, { filter: filter() });
        expect(theirs.errors).toBeUndefined();
        expect(theirs.data).toEqual({ notifications: { edges: [], totalCount: 0 }, notificationCounts: { total: 0, unseen: 0 } });
        const marked = await as(bob, `mutation($filter: NotificationFilter) { markAllNotificationsSeen(filter: $filter) }`, { filter: filter() });
        expect(marked.data).toEqual({ markAllNotificationsSeen: 0 });
        expect(await snapshot()).toEqual(before);
      });

      it("cannot page with a cursor Ada received, after or before", async () => {
        for (const [args, field] of [
          [`first: 2, after: $c`, "after"],
          [`last: 2, before: $c`, "before"],
        ] as const) {
          const r = await as(bob, `query($c: String) { notifications(${args}) { edges { cursor node { id } } pageInfo { endCursor } } }`, { c: adaCursor });
          expect(r.data ?? null).toBeNull();
          expect(firstError(r)?.extensions).toEqual({ code: "VALIDATION_ERROR", field });
          expectNothingOfAda(r);
        }
      });

      it("cannot mark Ada's notifications seen, by ids or all at once", async () => {
        const before = await snapshot();
        const r = await as(bob, `mutation($ids: [ID!]!) { markNotificationsSeen(ids: $ids) { id status } }`, { ids: adaIds });
        expect(r.errors).toBeUndefined();
        expect(r.data).toEqual({ markNotificationsSeen: [] });
        const all = await as(bob, `mutation { markAllNotificationsSeen }`);
        expect(all.data).toEqual({ markAllNotificationsSeen: 0 });
        expect(await snapshot()).toEqual(before);

        // Ada still has all of them unseen.
        expect((await as(ada, `{ notificationCounts { total unseen } }`)).data.notificationCounts).toEqual(adaCounts);
        for (const n of [personal, inSession, engaged]) {
          const mine = await as(ada, `query($id: ID!) { notification(id: $id) { status seenAt } }`, { id: n.id });
          expect(mine.data.notification).toEqual({ status: "PENDING", seenAt: null });
        }
      });

      it("gets NotFoundError when dismissing Ada's notifications, which stay PENDING", async () => {
        const before = await snapshot();
        for (const n of [personal, inSession, engaged]) {
          for (const rev of [undefined, n.revision]) {
            const r = await as(
              bob,
              `mutation($id: ID!, $rev: Int) { dismissNotification(id: $id, expectedRevision: $rev, reason: "not mine") { ${resultFields("dismiss")} } }`,
              {
                id: n.id,
                rev,
              },
            );
            expect(r.errors).toBeUndefined();
            expect(r.data.dismissNotification).toMatchObject({ __typename: "NotFoundError" });
            expectNothingOfAda(r);
          }
          const mine = await as(ada, `query($id: ID!) { notification(id: $id) { status revision dismissedAt } }`, { id: n.id });
          expect(mine.data.notification).toEqual({ status: "PENDING", revision: n.revision, dismissedAt: null });
        }
        expect(await snapshot()).toEqual(before);
      });

      it("gets NOT_FOUND when snoozing or unsnoozing Ada's notifications, and changes nothing", async () => {
        const until = new Date(h.clock.now().getTime() + 7_200_000).toISOString();
        const before = await snapshot();
        for (const n of [personal, inSession, snoozed]) {
          const s = await as(bob, `mutation($id: ID!, $u: DateTime!) { snoozeNotification(id: $id, until: $u) { id snoozedUntil } }`, { id: n.id, u: until });
          expect(s.data ?? null).toBeNull();
          expect(firstError(s)?.extensions?.code).toBe("NOT_FOUND");
          expectNothingOfAda(s);
          const u = await as(bob, `mutation($id: ID!) { unsnoozeNotification(id: $id) { id snoozedUntil } }`, { id: n.id });
          expect(u.data ?? null).toBeNull();
          expect(firstError(u)?.extensions?.code).toBe("NOT_FOUND");
          expectNothingOfAda(u);
        }
        expect(await snapshot()).toEqual(before);
        // Ada's snoozed one is still snoozed, her others still not.
        const view = await as(ada, `query($a: ID!, $b: ID!) { a: notification(id: $a) { snoozedUntil } b: notification(id: $b) { snoozedUntil } }`, {
          a: snoozed.id,
          b: personal.id,
        });
        expect(view.data.a.snoozedUntil).not.toBeNull();
        expect(view.data.b.snoozedUntil).toBeNull();
      });

      it("does not see Ada's session, which Ada and producers do see", async () => {
        const q = `query($h: String!, $s: String!) { session(harness: $h, sessionId: $s) { id harness sessionId } }`;
        const vars = { h: session.harness, s: session.sessionId };
        const theirs = await as(bob, q, vars);
        expect(theirs.errors).toBeUndefined();
        expect(theirs.data).toEqual({ session: null });
        expect((await as(ada, q, vars)).data.session).toEqual(session);
        expect((await producer(q, vars)).data.session).toEqual(session);
      });

      it("is himself as viewer and sets only his own quiet mode", async () => {
        const me = await as(bob, `{ viewer { id name preferences { quietMode } } }`);
        expect(me.data.viewer).toEqual({ id: bob.id, name: "Bob", preferences: { quietMode: false } });
        const on = await as(bob, `mutation { setQuietMode(enabled: true) { quietMode } }`);
        expect(on.data.setQuietMode.quietMode).toBe(true);
        expect((await as(bob, `{ viewer { preferences { quietMode } } }`)).data.viewer.preferences.quietMode).toBe(true);
        expect((await as(ada, `{ viewer { id preferences { quietMode } } }`)).data.viewer).toEqual({ id: ada.id, preferences: { quietMode: false } });
        await as(bob, `mutation { setQuietMode(enabled: false) { quietMode } }`);
      });
    });

    describe("a cursor", () => {
      it("pages on for the person it was issued to", async () => {
        const next = await as(ada, `query($c: String) { notifications(first: 2, after: $c) { edges { node { id } } } }`, { c: adaCursor });
        expect(next.errors).toBeUndefined();
        const ids = idsOf(next);
        expect(ids).toHaveLength(2);
        for (const id of ids) expect(adaFirstPage).not.toContain(id);
      });

      it("is refused for its own person too when one character is changed", async () => {
        const dot = adaCursor.indexOf(".");
        expect(dot).toBeGreaterThan(0);
        const flip = (c: string, at: number) => c.slice(0, at) + (c[at] === "A" ? "B" : "A") + c.slice(at + 1);
        for (const tampered of [flip(adaCursor, 0), flip(adaCursor, dot - 1), flip(adaCursor, dot + 1), flip(adaCursor, adaCursor.length - 1)]) {
          expect(tampered).not.toBe(adaCursor);
          for (const [args, field] of [
            [`first: 2, after: $c`, "after"],
            [`last: 2, before: $c`, "before"],
          ] as const) {
            const r = await as(ada, `query($c: String) { notifications(${args}) { edges { node { id } } } }`, { c: tampered });
            expect(r.data ?? null).toBeNull();
            expect(firstError(r)?.extensions).toEqual({ code: "VALIDATION_ERROR", field });
          }
        }
      });
    });

    describe("the producer key", () => {
      const personOperations: { field: string; query: string; variables?: () => Vars }[] = [
        { field: "viewer", query: `{ viewer { id name } }` },
        { field: "notification", query: NOTIFICATION, variables: () => ({ id: personal.id }) },
        {
          field: "notifications",
          query: `query($f: NotificationFilter) { notifications(first: 100, filter: $f) { edges { node { id title } } totalCount } }`,
          variables: () => ({ f: { sessionId: session.id, includeTerminal: true, includeSnoozed: true } }),
        },
        {
          field: "notificationCounts",
          query: `query($f: NotificationFilter) { notificationCounts(filter: $f) { total unseen } }`,
          variables: () => ({ f: { engagementId: engagement.id } }),
        },
        { field: "markNotificationsSeen", query: `mutation($ids: [ID!]!) { markNotificationsSeen(ids: $ids) { id } }`, variables: () => ({ ids: adaIds }) },
        { field: "markAllNotificationsSeen", query: `mutation { markAllNotificationsSeen }` },
        {
          field: "dismissNotification",
          query: `mutation($id: ID!) { dismissNotification(id: $id) { ${resultFields("dismiss")} } }`,
          variables: () => ({ id: personal.id }),
        },
        {
          field: "snoozeNotification",
          query: `mutation($id: ID!, $u: DateTime!) { snoozeNotification(id: $id, until: $u) { id } }`,
          variables: () => ({ id: personal.id, u: new Date(h.clock.now().getTime() + 60_000).toISOString() }),
        },
        { field: "unsnoozeNotification", query: `mutation($id: ID!) { unsnoozeNotification(id: $id) { id } }`, variables: () => ({ id: snoozed.id }) },
        { field: "setQuietMode", query: `mutation { setQuietMode(enabled: true) { quietMode } }` },
      ];

      it.each(personOperations)("is FORBIDDEN from $field, which returns nothing of Ada's and changes nothing", async ({ field, query, variables }) => {
        const before = await snapshot();
        const r = await producer(query, variables?.());
        expect(firstError(r)?.extensions?.code).toBe("FORBIDDEN");
        expect(firstError(r)?.path).toEqual([field]);
        expect(r.data?.[field] ?? null).toBeNull();
        expectNothingOfAda(r);
        expect(JSON.stringify(r)).not.toContain(h.producerKey);
        expect(await snapshot()).toEqual(before);
      });
    });

    describe("a person token used for producer work (Ada's own)", () => {
      const producerOperations: { field: string; query: string; variables: () => Vars }[] = [
        {
          field: "publishNotification",
          query: `mutation($input: PublishNotificationInput!) { publishNotification(input: $input) { ${resultFields("publish")} } }`,
          variables: () => ({ input: { scope: "PERSON", personId: ada.id, key: personal.key, title: "forged", source: { plugin: "ada" } } }),
        },
        {
          field: "updateNotification",
          query: `mutation($id: ID!) { updateNotification(id: $id, patch: { title: "forged" }) { ${resultFields("publish")} } }`,
          variables: () => ({ id: personal.id }),
        },
        {
          field: "resolveNotification",
          query: `mutation($id: ID!) { resolveNotification(id: $id, resolution: { actionId: "x" }) { ${resultFields("resolve")} } }`,
          variables: () => ({ id: personal.id }),
        },
        {
          field: "expireNotification",
          query: `mutation($id: ID!) { expireNotification(id: $id, reason: "forged") { ${resultFields("resolve")} } }`,
          variables: () => ({ id: inSession.id }),
        },
        { field: "completeRequest", query: `mutation($r: String!) { completeRequest(requestId: $r) }`, variables: () => ({ r: "ada-request" }) },
        { field: "createPerson", query: `mutation { createPerson(input: { name: "Mallory" }) { id } }`, variables: () => ({}) },
        {
          field: "issuePersonToken",
          query: `mutation($id: ID!) { issuePersonToken(personId: $id) { id token } }`,
          variables: () => ({ id: bob.id }),
        },
        {
          field: "createSession",
          query: `mutation($o: ID!) { createSession(input: { harness: "pi", sessionId: "forged", ownerPersonId: $o }) { id } }`,
          variables: () => ({ o: ada.id }),
        },
        {
          field: "createEngagement",
          query: `mutation($o: ID!) { createEngagement(input: { name: "forged", operatorPersonId: $o }) { id } }`,
          variables: () => ({ o: ada.id }),
        },
        {
          field: "addEngagementMember",
          query: `mutation($e: ID!, $p: ID!) { addEngagementMember(input: { engagementId: $e, personId: $p, role: "operator" }) { personId } }`,
          variables: () => ({ e: engagement.id, p: bob.id }),
        },
        {
          field: "rememberFact",
          query: `mutation($p: ID!) { rememberFact(input: { personId: $p, content: "forged fact" }) { id } }`,
          variables: () => ({ p: ada.id }),
        },
      ];

      it.each(producerOperations)("is FORBIDDEN from $field and writes nothing", async ({ field, query, variables }) => {
        const before = await snapshot();
        const r = await as(ada, query, variables());
        expect(firstError(r)?.extensions?.code).toBe("FORBIDDEN");
        expect(firstError(r)?.path).toEqual([field]);
        expect(r.data?.[field] ?? null).toBeNull();
        expect(JSON.stringify(r)).not.toContain(ada.token);
        expect(await snapshot()).toEqual(before);
      });

      it("leaves Ada's records as they were after every refused producer call", async () => {
        const r = await as(
          ada,
          `query($a: ID!, $b: ID!, $c: ID!) {
            a: notification(id: $a) { title status revision }
            b: notification(id: $b) { status revision }
            c: notification(id: $c) { status revision }
          }`,
          { a: personal.id, b: inSession.id, c: requestBound.id },
        );
        expect(r.data).toEqual({
          a: { title: "Ada personal secret", status: "PENDING", revision: 1 },
          b: { status: "PENDING", revision: 1 },
          c: { status: "PENDING", revision: 1 },
        });
      });
    });

    describe("a missing, bogus or revoked credential", () => {
      /** The raw HTTP exchange, so the body can be searched as the client receives it. */
      const send = async (authorization: string | null, query: string) => {
        const response = await fetch(h.url, {
          method: "POST",
          headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
          body: JSON.stringify({ query }),
        });
        const text = await response.text();
        return { status: response.status, text, body: JSON.parse(text) as GraphQLResponse<any> };
      };
      const expectUnauthenticated = (r: Awaited<ReturnType<typeof send>>, secret: string, status = 401) => {
        expect(r.status).toBe(status);
        expect(r.body.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
        expect(r.body.data ?? null).toBeNull();
        expectNoSecretOrStack(r.text, secret);
      };

      it("without a credential, viewer, person reads and producer writes are UNAUTHENTICATED", async () => {
        const before = await snapshot();
        for (const query of [
          `{ viewer { id name } }`,
          `{ notificationCounts { total unseen } }`,
          `query { notification(id: "${personal.id}") { id title } }`,
          `mutation { createPerson(input: { name: "Mallory" }) { id } }`,
        ]) {
          const r = await send(null, query);
          expect(r.body.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
          expect(r.text).not.toContain("Ada");
          expectNoSecretOrStack(r.text, h.producerKey);
        }
        expect(await snapshot()).toEqual(before);
      });

      it("with a bogus credential, answers 401 UNAUTHENTICATED without echoing it", async () => {
        const bogus = [`herald_pt_${"x".repeat(43)}`, `herald_pk_${"y".repeat(43)}`, ada.token.slice(0, -1) + (ada.token.endsWith("A") ? "B" : "A")];
        for (const secret of bogus) expectUnauthenticated(await send(`Bearer ${secret}`, `{ viewer { id name } }`), secret);
        expectUnauthenticated(await send(`Basic ${ada.token}`, `{ viewer { id name } }`), ada.token);
      });

      it("with a person token revoked by its visible prefix or by its id, answers 401", async () => {
        const auth = h.herald.services.auth;
        const byPrefix = await auth.issuePersonToken(ada.id, "laptop");
        const byId = await auth.issuePersonToken(ada.id, "phone");
        for (const issued of [byPrefix, byId]) {
          expect((await as(issued.secret, `{ viewer { id } }`)).data.viewer.id).toBe(ada.id);
        }
        expect(await auth.revoke(byPrefix.secret.slice(0, 16))).toBe(1);
        expect(await auth.revoke(byId.id)).toBe(1);
        for (const issued of [byPrefix, byId]) {
          expectUnauthenticated(await send(`Bearer ${issued.secret}`, `{ viewer { id name } }`), issued.secret);
          expectUnauthenticated(await send(`Bearer ${issued.secret}`, `query { notification(id: "${personal.id}") { title } }`), issued.secret);
        }
        // Ada's other token is untouched.
        expect((await as(ada, `{ viewer { id } }`)).data.viewer.id).toBe(ada.id);
      });

      it("with a revoked producer key, answers 401 and writes nothing", async () => {
        const auth = h.herald.services.auth;
        const key = await auth.issueProducerKey("hook");
        expect((await as(key.secret, `mutation { completeRequest(requestId: "nothing") }`)).data.completeRequest).toBe(0);
        expect(await auth.revoke(key.id)).toBe(1);
        const before = await snapshot();
        const r = await send(`Bearer ${key.secret}`, `mutation { updateNotification(id: "${personal.id}", patch: { title: "forged" }) { __typename } }`);
        expectUnauthenticated(r, key.secret);
        expect(await snapshot()).toEqual(before);
      });
    });
  });
}
