// HERALD_HISTORY_LIMIT on every provider: terminal records beyond the limit per scope target go,
// oldest first, with their events, once past the event retention; active records never; a
// cursor from before the pruned events is refused so the client reloads instead of missing them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { headCursor, subscribe } from "../support/sse.ts";
import { storeOf } from "../support/store.ts";

const LIMIT = 3;
const RETENTION_MS = 60_000;

for (const provider of providers) {
  describe.skipIf(!provider.available)(`history limit on ${provider.name}`, () => {
    let h: TestHerald;
    beforeAll(async () => {
      // The timer never fires during the test: each test runs a pass itself.
      h = await startHerald(provider, { historyLimit: LIMIT, eventRetentionMs: RETENTION_MS, historyIntervalMs: 3_600_000 });
    });
    afterAll(async () => h?.close());

    const dismiss = (token: string, id: string) =>
      gql(h.url, token, `mutation($id: ID!) { dismissNotification(id: $id) { __typename } }`, { id }).then((r) => r.data.dismissNotification.__typename);
    const expire = (id: string) =>
      gql(h.url, h.producerKey, `mutation($id: ID!) { expireNotification(id: $id) { __typename } }`, { id }).then((r) => r.data.expireNotification.__typename);
    const keys = (token: string) =>
      gql(h.url, token, `{ notifications(first: 100, filter: { includeTerminal: true }) { edges { node { key status } } } }`).then((r) =>
        r.data.notifications.edges.map((e: { node: { key: string } }) => e.node.key).sort(),
      );
    const eventsOf = (ids: string[]) => storeOf(h.herald.database).count("NotificationEvent", (q) => q.where("notificationId", "in", ids));

    it("prunes a person's oldest terminal records beyond the limit with their events, never an active one, and refuses a cursor from before them", async () => {
      const ada = await h.newPerson("Ada");
      const early = await headCursor(h.url, ada.token);
      const active = await h.publish({ scope: "PERSON", personId: ada.id, key: "active-oldest", title: "still running" });
      const ended: string[] = [];
      for (let i = 0; i < 5; i++) {
        const n = await h.publish({ scope: "PERSON", personId: ada.id, key: `done-${i}`, title: `done ${i}` });
        expect(await dismiss(ada.token, n.id)).toBe("Notification");
        ended.push(n.id);
      }
      h.clock.advance(RETENTION_MS + 1_000);
      expect(await h.herald.services.history.prune()).toBe(2);

      expect(await keys(ada.token)).toEqual(["active-oldest", "done-2", "done-3", "done-4"]);
      expect(await eventsOf(ended.slice(0, 2))).toBe(0);
      expect(await eventsOf(ended.slice(2))).toBeGreaterThan(0);
      expect(await eventsOf([active.id])).toBeGreaterThan(0);
      expect(await h.herald.services.history.prune()).toBe(0);

      // The early cursor lies before pruned events: refused before the stream opens.
      const refused = await fetch(h.url.replace(/\/graphql$/, "/graphql/stream"), {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream", authorization: `Bearer ${ada.token}` },
        body: JSON.stringify({ query: "subscription($after: String) { notificationEvents(after: $after) { cursor } }", variables: { after: early } }),
      });
      expect(refused.status).toBe(400);
      const body = (await refused.json()) as { errors: { extensions: { code: string; field: string } }[] };
      expect(body.errors[0]!.extensions).toMatchObject({ code: "VALIDATION_ERROR", field: "after" });

      // A cursor read now resumes as always.
      const fresh = subscribe(h.url, ada.token, { after: await headCursor(h.url, ada.token) });
      await h.attached(ada.id);
      await h.publish({ scope: "PERSON", personId: ada.id, key: "after-prune", title: "new" });
      const [created] = await fresh.waitFor(1);
      expect(created).toMatchObject({ type: "CREATED", notification: { title: "new" } });
      fresh.dispose();
    });

    it("deletes a pruned record's answered action invocations with it and keeps one its producer has not answered", async () => {
      const bob = await h.newPerson("Bob");
      const run = { kind: "RUN_ACTION", id: "retry", label: "Retry", actionId: "job.retry" };
      const invoke = (id: string) =>
        gql(h.url, bob.token, `mutation($id: ID!) { invokeNotificationAction(id: $id, actionId: "retry") { id } }`, { id }).then(
          (r) => r.data.invokeNotificationAction.id as string,
        );
      const invocations = new Map<string, string>();
      for (let i = 0; i < LIMIT + 2; i++) {
        const n = await h.publish({ scope: "PERSON", personId: bob.id, key: `job-${i}`, title: `job ${i}`, source: { plugin: "jobs" }, actions: [run] });
        invocations.set(n.id, await invoke(n.id));
        expect(await dismiss(bob.token, n.id)).toBe("Notification");
      }
      const [oldest, second] = [...invocations.values()];
      const ack = await gql(h.url, h.producerKey, `mutation($id: ID!) { acknowledgeActionInvocation(id: $id, outcome: ACKNOWLEDGED) { __typename } }`, {
        id: oldest,
      });
      expect(ack.data.acknowledgeActionInvocation.__typename).toBe("ActionInvocation");
      h.clock.advance(RETENTION_MS + 1_000);
      expect(await h.herald.services.history.prune()).toBe(2);

      const left = await storeOf(h.herald.database).pick("ActionInvocation", ["id", "state"], (q) => q.where("plugin", "=", "jobs"));
      expect(left.map((i) => i.id).sort()).toEqual([...invocations.values()].filter((id) => id !== oldest).sort());
      expect(left.find((i) => i.id === second)?.state).toBe("PENDING");
    });

    it("keeps terminal records beyond the limit while their events are within the retention, and counts each target apart", async () => {
      const bob = await h.newPerson("Bob");
      const cy = await h.newPerson("Cy");
      for (let i = 0; i < 5; i++) {
        const n = await h.publish({ scope: "PERSON", personId: bob.id, key: `bob-${i}`, title: "t" });
        await dismiss(bob.token, n.id);
      }
      for (let i = 0; i < 2; i++) {
        const n = await h.publish({ scope: "PERSON", personId: cy.id, key: `cy-${i}`, title: "t" });
        await dismiss(cy.token, n.id);
      }
      expect(await h.herald.services.history.prune()).toBe(0);
      // Past the limit they leave the list at once; the rows stay until their events are past the retention.
      expect(await keys(bob.token)).toEqual(["bob-2", "bob-3", "bob-4"]);
      expect(await storeOf(h.herald.database).count("Notification", (q) => q.where("personId", "=", bob.id))).toBe(5);

      h.clock.advance(RETENTION_MS + 1_000);
      await h.herald.services.history.prune();
      expect(await keys(bob.token)).toEqual(["bob-2", "bob-3", "bob-4"]);
      expect(await keys(cy.token)).toEqual(["cy-0", "cy-1"]);
    });

    it("counts APPLICATION records per server and SESSION records per session", async () => {
      const dee = await h.newPerson("Dee");
      const session = await gql(
        h.url,
        h.producerKey,
        `mutation($o: ID!) { createSession(input: { harness: "pi", sessionId: "history-${provider.name}", ownerPersonId: $o }) { id } }`,
        { o: dee.id },
      );
      const sessionId = session.data.createSession.id as string;
      for (let i = 0; i < 5; i++) {
        const shared = await h.publish({ scope: "APPLICATION", key: `shared-${i}`, title: "t" });
        expect(await expire(shared.id)).toBe("Notification");
        const own = await h.publish({ scope: "SESSION", sessionId, key: `session-${i}`, title: "t" });
        expect(await expire(own.id)).toBe("Notification");
      }
      const live = await h.publish({ scope: "APPLICATION", key: "shared-live", title: "t" });
      h.clock.advance(RETENTION_MS + 1_000);
      await h.herald.services.history.prune();
      const probe = storeOf(h.herald.database);
      expect(await probe.count("Notification", (q) => q.where("scope", "=", "APPLICATION").where("activeKey", "is", null))).toBe(LIMIT);
      expect(await probe.count("Notification", (q) => q.where("scope", "=", "SESSION").where("sessionId", "=", sessionId).where("activeKey", "is", null))).toBe(
        LIMIT,
      );
      expect(await probe.first("Notification", (q) => q.where("id", "=", live.id))).not.toBeNull();
      expect((await keys(dee.token)).filter((k: string) => k.startsWith("session-"))).toEqual(["session-2", "session-3", "session-4"]);
    });
  });
}
