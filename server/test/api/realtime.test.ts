// notificationEvents and actionInvocations over real HTTP and SSE, with the stock graphql-sse
// client in both of its modes, on every storage provider.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql, resultFields } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { untilMarker } from "../support/marker.ts";
import { providers, redisUrl } from "../support/providers.ts";
import { eventually, type ReceivedEvent, type Subscription, subscribe } from "../support/sse.ts";
import { storeOf } from "../support/store.ts";

const modes = [
  { name: "distinct connections", singleConnection: false },
  { name: "single connection", singleConnection: true },
];

for (const provider of providers) {
  const transport = provider.name === "postgresql" && redisUrl ? " + Redis" : "";
  describe.skipIf(!provider.available)(`real-time on ${provider.name}${transport}`, () => {
    let h: TestHerald;

    beforeAll(async () => {
      // PostgreSQL runs as in production: events travel through Redis.
      const redis = provider.name === "postgresql" && redisUrl ? { redisUrl } : {};
      h = await startHerald(provider, { snoozeIntervalMs: 50, heartbeatMs: 200, feedPollMs: 200, ...redis });
    });
    afterAll(async () => h?.close());

    const seen = (token: string, ids: string[]) => gql(h.url, token, `mutation($ids: [ID!]!) { markNotificationsSeen(ids: $ids) { id } }`, { ids });
    const logFor = async (personId: string) =>
      storeOf(h.herald.database).rows("NotificationEvent", (q) =>
        q.where((eb) => eb.or([eb("personId", "=", personId), eb("personId", "is", null)])).orderBy("seq", "asc"),
      );
    type LogRow = Awaited<ReturnType<typeof logFor>>[number];
    // A stream equals its part of the log. DELIVERED marks are written as events reach the client,
    // so both grow for a while: a marker's own delivery mark, the last event it causes, bounds the
    // comparison to the log before it, which the stream (ordered by the log) must carry before it.
    const expectStreamEqualsLog = async (sub: Subscription, personId: string, part: (log: LogRow[]) => LogRow[]) => {
      let markerId = "";
      const [before] = await untilMarker(
        [() => sub.events],
        async () => (markerId = (await h.publish({ scope: "PERSON", personId, key: "log-marker", title: "Marker" })).id),
        (e, id) => e.type === "DELIVERED" && e.notification.id === id,
      );
      const log = await logFor(personId);
      const markerSeq = log.find((e) => e.type === "DELIVERED" && e.notificationId === markerId)!.seq;
      const streamed = before!.filter((e) => e.notification.id !== markerId);
      const expected = part(log.filter((e) => e.seq < markerSeq && e.notificationId !== markerId));
      expect(streamed.map((e) => `${e.type}:${e.notification.id}`)).toEqual(expected.map((e) => `${e.type}:${e.notificationId}`));
      return streamed;
    };

    for (const mode of modes) {
      it(`delivers every change in order, once (${mode.name})`, async () => {
        const ada = await h.newPerson("Ada");
        const sub = subscribe(h.url, ada.token, { singleConnection: mode.singleConnection });
        await h.attached(ada.id); // live-only subscription: it must exist before the first publish
        const a = await h.publish({ scope: "PERSON", personId: ada.id, key: "a", title: "A1" });
        await h.publish({ scope: "PERSON", personId: ada.id, key: "a", title: "A2" });
        const b = await h.publish({ scope: "PERSON", personId: ada.id, key: "b", title: "B1" });
        await seen(ada.token, [a.id]);
        await gql(h.url, h.producerKey, `mutation($id: ID!) { resolveNotification(id: $id) { __typename } }`, { id: b.id });
        // CREATED, UPDATED, CREATED, SEEN, RESOLVED, plus DELIVERED marks for what reached the client.
        const streamed = await expectStreamEqualsLog(sub, ada.id, (log) => log.filter((e) => e.notificationId === a.id || e.notificationId === b.id));
        sub.dispose();
        expect(new Set(sub.events.map((e) => e.cursor)).size).toBe(sub.events.length);
        expect(streamed.map((e) => e.type).filter((t) => t !== "DELIVERED")).toEqual(["CREATED", "UPDATED", "CREATED", "SEEN", "RESOLVED"]);
      });

      it(`resumes after a client drop without gap or duplicate (${mode.name})`, async () => {
        const ada = await h.newPerson("Ada");
        const first = subscribe(h.url, ada.token, { singleConnection: mode.singleConnection });
        await h.attached(ada.id);
        await h.publish({ scope: "PERSON", personId: ada.id, key: "r1", title: "before drop" });
        const [got] = await first.waitFor(1);
        first.dispose();
        for (let i = 0; i < 5; i++) await h.publish({ scope: "PERSON", personId: ada.id, key: `missed-${i}`, title: `missed ${i}` });
        // Keep publishing while the client resumes: the replay/live seam must hold.
        const resumed = subscribe(h.url, ada.token, { after: got!.cursor, singleConnection: mode.singleConnection });
        for (let i = 0; i < 5; i++) await h.publish({ scope: "PERSON", personId: ada.id, key: `during-${i}`, title: `during ${i}` });
        const firstSeq = (await logFor(ada.id)).find((x) => x.notificationId === got!.notification.id && x.type === "CREATED")!.seq;
        await expectStreamEqualsLog(resumed, ada.id, (log) => log.filter((e) => e.seq > firstSeq));
        resumed.dispose();
      });
    }

    it("replays from a head cursor read before a snapshot, so nothing between them is missed", async () => {
      const ada = await h.newPerson("Ada");
      const head = await gql(h.url, ada.token, `{ notificationEventsCursor }`);
      const cursor = head.data.notificationEventsCursor as string;
      // Committed after the head was read but before anyone subscribed:
      await h.publish({ scope: "PERSON", personId: ada.id, key: "gap", title: "between snapshot and subscribe" });
      const sub = subscribe(h.url, ada.token, { after: cursor });
      const [first] = await sub.waitFor(1);
      sub.dispose();
      expect(first).toMatchObject({ type: "CREATED", notification: { title: "between snapshot and subscribe" } });
      const producer = await gql(h.url, h.producerKey, `{ notificationEventsCursor }`);
      expect(producer.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    });

    it("never sends one person's events to another, and refuses a foreign or forged cursor", async () => {
      const ada = await h.newPerson("Ada");
      const bob = await h.newPerson("Bob");
      const adaSub = subscribe(h.url, ada.token);
      const bobSub = subscribe(h.url, bob.token);
      await Promise.all([h.attached(ada.id), h.attached(bob.id)]);
      await h.publish({ scope: "PERSON", personId: ada.id, key: "private", title: "For Ada only" });
      const [adaEvent] = await adaSub.waitFor(1);
      // A shared record reaches both after Ada's: a stray to Bob would arrive before it.
      const [, bobBefore] = await untilMarker(
        [() => adaSub.events, () => bobSub.events],
        () => h.publish({ scope: "APPLICATION", key: "isolation-marker", title: "Marker" }),
        (e, marker) => e.notification.id === marker.id,
      );
      expect(bobBefore).toEqual([]);
      expect(bobSub.events.filter((e) => e.notification.title === "For Ada only")).toEqual([]);
      adaSub.dispose();
      bobSub.dispose();

      const stolen = subscribe(h.url, bob.token, { after: adaEvent!.cursor });
      await expect(stolen.waitFor(1, 5_000)).rejects.toThrow(/400/);
      stolen.dispose();
      for (const [token, after] of [
        [bob.token, adaEvent!.cursor],
        [ada.token, `e1.${"A".repeat(43)}`],
      ] as const) {
        // Yoga's own SSE answer on /graphql carries the error itself (graphql-sse answers 400 above).
        const response = await fetch(h.url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "text/event-stream", authorization: `Bearer ${token}` },
          body: JSON.stringify({ query: `subscription($a: String) { notificationEvents(after: $a) { cursor } }`, variables: { a: after } }),
        });
        const body = await response.text();
        expect(body).toContain("VALIDATION_ERROR");
        expect(body).toContain("after: not an event cursor issued to this caller");
      }
    });

    it("holds new notifications in quiet mode and releases them in order", async () => {
      const ada = await h.newPerson("Ada");
      // What Ada already has keeps streaming in quiet mode: its update is the marker.
      const known = await h.publish({ scope: "PERSON", personId: ada.id, key: "known", title: "known" });
      await gql(h.url, ada.token, `mutation { setQuietMode(enabled: true) { quietMode } }`);
      const sub = subscribe(h.url, ada.token);
      await h.attached(ada.id);
      for (let i = 0; i < 3; i++) await h.publish({ scope: "PERSON", personId: ada.id, key: `quiet-${i}`, title: `held ${i}` });
      const [held] = await untilMarker(
        [() => sub.events],
        () => h.publish({ scope: "PERSON", personId: ada.id, key: "known", title: "known, updated" }),
        (e, marker) => e.type === "UPDATED" && e.notification.id === marker.id,
      );
      expect(held).toEqual([]);
      const listed = await gql(h.url, ada.token, `{ notificationCounts { unseen } }`);
      expect(listed.data.notificationCounts.unseen).toBeGreaterThanOrEqual(3);
      await gql(h.url, ada.token, `mutation { setQuietMode(enabled: false) { quietMode } }`);
      const others = (events: ReceivedEvent[]) => events.filter((e) => e.notification.id !== known.id);
      const released = others(await sub.waitUntil((events) => others(events).length >= 3)).slice(0, 3);
      expect(released.map((e) => e.notification.title)).toEqual(["held 0", "held 1", "held 2"]);
      sub.dispose();
    });

    it("wakes snoozed notifications by itself and marks delivery once", async () => {
      const ada = await h.newPerson("Ada");
      const n = await h.publish({ scope: "PERSON", personId: ada.id, key: "nap", title: "Nap" });
      const until = new Date(h.clock.now().getTime() + 60_000).toISOString();
      await gql(h.url, ada.token, `mutation($id: ID!, $u: DateTime!) { snoozeNotification(id: $id, until: $u) { id } }`, { id: n.id, u: until });
      const sub = subscribe(h.url, ada.token);
      await h.attached(ada.id);
      h.clock.advance(60_001);
      const events = await sub.waitFor(1);
      expect(events[0]).toMatchObject({ type: "UNSNOOZED", notification: { id: n.id, snoozedUntil: null } });
      sub.dispose();

      await eventually(() => h.herald.feed.listenersOf(ada.id) === 0, 10_000, "the first stream to close");
      const live = subscribe(h.url, ada.token);
      await h.attached(ada.id);
      const fresh = await h.publish({ scope: "PERSON", personId: ada.id, key: "fresh", title: "Fresh" });
      // (The woken notification's own delivery mark may also arrive here; only `fresh` is checked.)
      const freshTypes = () => live.events.filter((e) => e.notification.id === fresh.id).map((e) => e.type);
      await live.waitUntil(() => freshTypes().length >= 2);
      // A second mark for `fresh` would be carried before a later notification's own mark.
      await untilMarker(
        [() => live.events],
        () => h.publish({ scope: "PERSON", personId: ada.id, key: "after-fresh", title: "After" }),
        (e, marker) => e.type === "DELIVERED" && e.notification.id === marker.id,
      );
      live.dispose();
      expect(freshTypes()).toEqual(["CREATED", "DELIVERED"]);
      const view = await gql(h.url, ada.token, `query($id: ID!) { notification(id: $id) { status deliveredAt } }`, { id: fresh.id });
      expect(view.data.notification.status).toBe("DELIVERED");
      const delivered = await storeOf(h.herald.database).count("NotificationEvent", (q) =>
        q.where("notificationId", "=", fresh.id).where("type", "=", "DELIVERED"),
      );
      expect(delivered).toBe(1);
    });

    it("passes RUN_ACTION follow-ups to the producer's actionInvocations", async () => {
      const ada = await h.newPerson("Ada");
      const n = await h.publish({
        scope: "PERSON",
        personId: ada.id,
        key: "retry",
        title: "Export failed",
        actions: [
          { kind: "RUN_ACTION", id: "retry", label: "Retry", actionId: "export.retry", fixedParams: { exportId: 7 } },
          { kind: "COPY_TEXT", id: "copy", label: "Copy", text: "details" },
        ],
      });
      const producer = subscribe(h.url, h.producerKey, {
        query: `subscription { actionInvocations(plugin: "tests") { notificationId actionId targetActionId fixedParams values personId plugin } }`,
        variables: {},
      });
      await h.attached();
      const invoked = await gql(
        h.url,
        ada.token,
        `mutation($id: ID!) { invokeNotificationAction(id: $id, actionId: "retry", values: { reason: "flaky" }) { id targetActionId } }`,
        { id: n.id },
      );
      expect(invoked.data.invokeNotificationAction.targetActionId).toBe("export.retry");
      const [received] = (await producer.waitFor(1)) as unknown as { actionInvocations: Record<string, unknown> }[];
      expect(received!.actionInvocations).toEqual({
        notificationId: n.id,
        actionId: "retry",
        targetActionId: "export.retry",
        fixedParams: { exportId: 7 },
        values: { reason: "flaky" },
        personId: ada.id,
        plugin: "tests",
      });
      producer.dispose();
      const wrongKind = await gql(h.url, ada.token, `mutation($id: ID!) { invokeNotificationAction(id: $id, actionId: "copy") { id } }`, { id: n.id });
      expect(wrongKind.errors?.[0]?.extensions).toMatchObject({ code: "VALIDATION_ERROR", field: "actionId" });
      const bob = await h.newPerson("Bob");
      const foreign = await gql(h.url, bob.token, `mutation($id: ID!) { invokeNotificationAction(id: $id, actionId: "retry") { id } }`, { id: n.id });
      expect(foreign.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    });

    it("gives invokedAt as a DateTime: the server clock's time of the invocation, on the mutation and the stream alike", async () => {
      const type = await gql(h.url, null, `{ __type(name: "ActionInvocation") { fields { name type { ofType { name } } } } }`);
      const invokedAtType = type.data.__type.fields.find((f: { name: string }) => f.name === "invokedAt").type.ofType.name;
      expect(invokedAtType).toBe("DateTime");
      const ada = await h.newPerson("Ada");
      const n = await h.publish({
        scope: "PERSON",
        personId: ada.id,
        key: "when",
        title: "Export failed",
        actions: [{ kind: "RUN_ACTION", id: "retry", label: "Retry", actionId: "export.retry" }],
      });
      const producer = subscribe(h.url, h.producerKey, { query: `subscription { actionInvocations { id invokedAt } }`, variables: {} });
      await h.attached();
      const at = h.clock.tick().toISOString();
      const invoked = await gql(h.url, ada.token, `mutation($id: ID!) { invokeNotificationAction(id: $id, actionId: "retry") { id invokedAt } }`, { id: n.id });
      expect(invoked.data.invokeNotificationAction.invokedAt).toBe(at);
      // Without a cursor the stream first replays every PENDING invocation (earlier tests' too).
      type Received = { actionInvocations: { id: string; invokedAt: string } };
      const mine = (events: unknown[]) => (events as Received[]).find((e) => e.actionInvocations.id === invoked.data.invokeNotificationAction.id);
      await producer.waitUntil((events) => mine(events) !== undefined);
      producer.dispose();
      expect(mine(producer.events)!.actionInvocations).toEqual({ id: invoked.data.invokeNotificationAction.id, invokedAt: at });
    });

    it("looks up each event's session afresh: a label given between two events shows in the second", async () => {
      const ada = await h.newPerson("Ada");
      const created = await gql(
        h.url,
        h.producerKey,
        `mutation($owner: ID!) { createSession(input: { harness: "pi", sessionId: "memo-1", ownerPersonId: $owner }) { id label } }`,
        {
          owner: ada.id,
        },
      );
      const session = created.data.createSession as { id: string; label: string };
      const sub = subscribe(h.url, ada.token, {
        query: `subscription { notificationEvents { type notification { id session { label } } } }`,
        variables: {},
      });
      await h.attached(ada.id);
      const changes = (events: unknown[]) => (events as { type: string; notification: { session: { label: string } } }[]).filter((e) => e.type !== "DELIVERED");
      await h.publish({ scope: "SESSION", sessionId: session.id, key: "turn", title: "first" });
      await sub.waitUntil((events) => changes(events).length >= 1);
      // A harness names its session as it runs; the stream must not keep the name it first saw.
      // A valid label state: a label always comes with the exchange that named it (docs/decisions.md).
      const probe = storeOf(h.herald.database);
      await probe.execute(
        probe.build
          .updateTable("Session")
          .set({ label: "brave blue fox", completionId: "c-1", sourceGeneration: "1", labelGeneration: "1" })
          .where("id", "=", session.id),
      );
      await h.publish({ scope: "SESSION", sessionId: session.id, key: "turn", title: "second" });
      const events = changes(await sub.waitUntil((received) => changes(received).length >= 2));
      sub.dispose();
      expect(events.map((e) => [e.type, e.notification.session.label])).toEqual([
        ["CREATED", session.label],
        ["UPDATED", "brave blue fox"],
      ]);
    });

    it("sends heartbeat comments on an idle stream", async () => {
      const ada = await h.newPerson("Ada");
      const controller = new AbortController();
      const response = await fetch(h.url.replace(/graphql$/, "graphql/stream"), {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream", authorization: `Bearer ${ada.token}` },
        body: JSON.stringify({ query: `subscription { notificationEvents { cursor } }` }),
        signal: controller.signal,
      });
      expect(response.headers.get("x-accel-buffering")).toBe("no");
      const reader = response.body!.getReader();
      let text = "";
      const deadline = Date.now() + 3_000;
      while (!text.includes(": heartbeat") && Date.now() < deadline) {
        const { value } = await reader.read();
        text += new TextDecoder().decode(value);
      }
      controller.abort();
      expect(text).toContain(": heartbeat\n\n");
    });

    it("keeps a dismissal conflict honest on the stream: the newer revision arrives", async () => {
      const ada = await h.newPerson("Ada");
      const sub = subscribe(h.url, ada.token);
      await h.attached(ada.id);
      const n = await h.publish({ scope: "PERSON", personId: ada.id, key: "conflict", title: "v1" });
      await h.publish({ scope: "PERSON", personId: ada.id, key: "conflict", title: "v2" });
      const conflict = await gql(h.url, ada.token, `mutation($id: ID!) { dismissNotification(id: $id, expectedRevision: 1) { ${resultFields("dismiss")} } }`, {
        id: n.id,
      });
      expect(conflict.data.dismissNotification.__typename).toBe("RevisionConflictError");
      const events = await sub.waitUntil((received) => received.some((e) => e.type === "UPDATED"));
      sub.dispose();
      const updated = events.find((e: ReceivedEvent) => e.type === "UPDATED");
      expect(updated?.notification).toMatchObject({ revision: 2, title: "v2" });
    });
  });
}
