// The notification lifecycle over real HTTP, on every storage provider.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql, resultFields } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";

for (const provider of providers) {
  describe.skipIf(!provider.available)(`lifecycle on ${provider.name}`, () => {
    let h: TestHerald;
    let ada: { id: string; token: string };
    let bob: { id: string; token: string };

    beforeAll(async () => {
      h = await startHerald(provider);
      ada = await h.newPerson("Ada");
      bob = await h.newPerson("Bob");
    });
    afterAll(async () => h?.close());

    const asPerson = (token: string, query: string, variables?: Record<string, unknown>) => gql(h.url, token, query, variables);
    const dismiss = (token: string, id: string, expectedRevision?: number) =>
      asPerson(token, `mutation($id: ID!, $rev: Int) { dismissNotification(id: $id, expectedRevision: $rev) { ${resultFields("dismiss")} } }`, {
        id,
        rev: expectedRevision,
      }).then((r) => r.data.dismissNotification);
    const producer = (query: string, variables?: Record<string, unknown>) => gql(h.url, h.producerKey, query, variables);
    const resolve = (id: string, extra = "") =>
      producer(
        `mutation($id: ID!) { resolveNotification(id: $id${extra}, resolution: { actionId: "done", values: { ok: true } }) { ${resultFields("resolve")} } }`,
        { id },
      ).then((r) => r.data.resolveNotification);
    const expire = (id: string) =>
      producer(`mutation($id: ID!) { expireNotification(id: $id, reason: "stale") { ${resultFields("resolve")} } }`, { id }).then(
        (r) => r.data.expireNotification,
      );
    // Scoped to PERSON: APPLICATION notifications published by other tests reach everyone.
    const counts = (token: string) =>
      asPerson(token, `{ notificationCounts(filter: { scope: PERSON }) { total unseen } }`).then((r) => r.data.notificationCounts);

    it("creates revision 1 with presentation defaults derived from the content", async () => {
      const n = await h.publish({ scope: "PERSON", personId: ada.id, key: "build:1", title: "Build failed", body: "See logs", severity: "ERROR" });
      expect(n).toMatchObject({
        __typename: "Notification",
        revision: 1,
        status: "PENDING",
        scope: "PERSON",
        personId: ada.id,
        display: { format: "TEXT", title: "Build failed", body: "See logs", variant: "ERROR", presentation: "INLINE", dismissible: true },
        retention: { policy: "UNTIL_RESOLVED" },
        trigger: { type: "PRODUCER", ref: null },
      });
    });

    it("updates the active occurrence in place on a same-key publish and shows it as unseen again", async () => {
      const first = await h.publish({ scope: "PERSON", personId: ada.id, key: "sync", title: "Syncing" });
      await asPerson(ada.token, `mutation($ids: [ID!]!) { markNotificationsSeen(ids: $ids) { id status } }`, { ids: [first.id] });
      const second = await h.publish({ scope: "PERSON", personId: ada.id, key: "sync", title: "Still syncing", severity: "WARNING" });
      expect(second.id).toBe(first.id);
      expect(second.revision).toBe(2);
      expect(second.status).toBe("PENDING");
      expect(second.display.variant).toBe("WARNING");
      expect(new Date(second.updatedAt).getTime()).toBeGreaterThan(new Date(first.updatedAt).getTime());
      expect(second.createdAt).toBe(first.createdAt);
    });

    it("starts a new occurrence with a new id after the previous one ended", async () => {
      const first = await h.publish({ scope: "PERSON", personId: ada.id, key: "deploy", title: "Deploying" });
      expect((await resolve(first.id)).status).toBe("RESOLVED");
      const next = await h.publish({ scope: "PERSON", personId: ada.id, key: "deploy", title: "Deploying again" });
      expect(next.id).not.toBe(first.id);
      expect(next.revision).toBe(1);
    });

    it("keeps per-key occurrences apart per scope target", async () => {
      const a = await h.publish({ scope: "PERSON", personId: ada.id, key: "same", title: "For Ada" });
      const b = await h.publish({ scope: "PERSON", personId: bob.id, key: "same", title: "For Bob" });
      expect(a.id).not.toBe(b.id);
    });

    it("refuses a stale dismissal, changes nothing and returns the current record", async () => {
      const n = await h.publish({ scope: "PERSON", personId: ada.id, key: "stale", title: "v1" });
      await h.publish({ scope: "PERSON", personId: ada.id, key: "stale", title: "v2" });
      const conflict = await dismiss(ada.token, n.id, 1);
      expect(conflict.__typename).toBe("RevisionConflictError");
      expect(conflict.current).toMatchObject({ id: n.id, revision: 2, status: "PENDING" });
      const ok = await dismiss(ada.token, n.id, 2);
      expect(ok).toMatchObject({ __typename: "Notification", status: "DISMISSED", revision: 3 });
      expect(ok.dismissedAt).not.toBeNull();
      // Idempotent: dismissing again returns the dismissed record, whatever revision was seen.
      expect(await dismiss(ada.token, n.id, 2)).toMatchObject({ __typename: "Notification", status: "DISMISSED", revision: 3 });
    });

    it("makes resolve and expire idempotent and refuses terminal-to-terminal moves", async () => {
      const n = await h.publish({ scope: "PERSON", personId: ada.id, key: "term", title: "t" });
      const resolved = await resolve(n.id);
      expect(resolved).toMatchObject({ status: "RESOLVED", revision: 2, resolution: { actionId: "done", values: { ok: true } } });
      expect(await resolve(n.id)).toMatchObject({ __typename: "Notification", status: "RESOLVED", revision: 2 });
      const refused = await expire(n.id);
      expect(refused).toMatchObject({ __typename: "NotificationTransitionError", current: { status: "RESOLVED" } });
      const dismissed = await dismiss(ada.token, n.id);
      expect(dismissed.__typename).toBe("NotificationTransitionError");

      const m = await h.publish({ scope: "PERSON", personId: ada.id, key: "term2", title: "t" });
      expect((await expire(m.id)).status).toBe("EXPIRED");
      expect((await expire(m.id)).status).toBe("EXPIRED");
      expect((await resolve(m.id)).__typename).toBe("NotificationTransitionError");
    });

    it("guards a key against late updates from an older operation occurrence", async () => {
      const op = (id: string, phase: string) => ({ id, type: "export", state: "running", phase, elapsedSeconds: 1, cancellable: true });
      const run2 = await h.publish({ scope: "PERSON", personId: ada.id, key: "export", title: "Exporting", operation: op("run-2", "start") });
      const late = await h.publish({ scope: "PERSON", personId: ada.id, key: "export", title: "Old run", operation: op("run-1", "late") });
      expect(late).toMatchObject({ __typename: "OperationMismatchError", current: { id: run2.id, revision: 1, operation: { id: "run-2" } } });
      const beat = await h.publish({ scope: "PERSON", personId: ada.id, key: "export", title: "Exporting 50%", operation: op("run-2", "half") });
      expect(beat).toMatchObject({ id: run2.id, revision: 2, operation: { phase: "half", cancellable: true } });
      const wrongResolve = await resolve(run2.id, `, operationId: "run-1"`);
      expect(wrongResolve.__typename).toBe("OperationMismatchError");
      expect((await resolve(run2.id, `, operationId: "run-2"`)).status).toBe("RESOLVED");
    });

    it("keeps ui effects with the revision that supplied them and preserves unknown fields", async () => {
      const effects = { reload_session_ids: ["s-1"], reload_sessions_list: true, producer_extra: { nested: [1, 2] } };
      const n = await h.publish({ scope: "PERSON", personId: ada.id, key: "fx", title: "fx", uiEffects: effects });
      expect(n.uiEffects).toEqual(effects);
      const next = await h.publish({ scope: "PERSON", personId: ada.id, key: "fx", title: "fx 2" });
      expect(next.revision).toBe(2);
      expect(next.uiEffects).toBeNull();
      const patched = await producer(`mutation($id: ID!) { updateNotification(id: $id, patch: { body: "new body" }) { ${resultFields("publish")} } }`, {
        id: n.id,
      });
      expect(patched.data.updateNotification).toMatchObject({ revision: 3, body: "new body", title: "fx 2", uiEffects: null });
    });

    it("refuses known ui-effect fields of the wrong type", async () => {
      const r = await producer(`mutation($input: PublishNotificationInput!) { publishNotification(input: $input) { ${resultFields("publish")} } }`, {
        input: { scope: "PERSON", personId: ada.id, key: "fx-bad", title: "x", source: { plugin: "t" }, uiEffects: { reload_sessions_list: "yes" } },
      });
      expect(r.data.publishNotification).toMatchObject({ __typename: "ValidationError", field: "uiEffects.reload_sessions_list" });
    });

    it("applies the scope presentation rules: APPLICATION rejects INLINE, SESSION defaults to INLINE", async () => {
      const r = await producer(`mutation($input: PublishNotificationInput!) { publishNotification(input: $input) { ${resultFields("publish")} } }`, {
        input: { scope: "APPLICATION", key: "inline", title: "x", source: { plugin: "t" }, display: { presentation: "INLINE" } },
      });
      expect(r.data.publishNotification).toMatchObject({ __typename: "ValidationError", field: "display.presentation" });
      const session = await producer(
        `mutation($o: ID!) { createSession(input: { harness: "pi", sessionId: "native-1", ownerPersonId: $o }) { id harness sessionId } }`,
        {
          o: ada.id,
        },
      );
      const s = await h.publish({ scope: "SESSION", sessionId: session.data.createSession.id, key: "s", title: "In session" });
      expect(s).toMatchObject({ scope: "SESSION", personId: ada.id, display: { presentation: "INLINE" } });
      const modal = await h.publish({
        scope: "APPLICATION",
        key: "modal",
        title: "Maintenance",
        display: { presentation: "MODAL", dismissible: false },
        actions: [{ kind: "OPEN_URL", id: "status", label: "Status page", url: "https://status.example.com" }],
      });
      expect(modal.display).toMatchObject({ presentation: "MODAL", dismissible: false });
    });

    it("keeps APPLICATION notifications' seen, dismissed and snoozed state per person", async () => {
      const n = await h.publish({ scope: "APPLICATION", key: "maintenance", title: "Maintenance tonight" });
      const bobBefore = await counts(bob.token);
      const adaSeen = await asPerson(ada.token, `mutation($ids: [ID!]!) { markNotificationsSeen(ids: $ids) { id status } }`, { ids: [n.id] });
      expect(adaSeen.data.markNotificationsSeen).toEqual([{ id: n.id, status: "SEEN" }]);
      const adaDismissed = await dismiss(ada.token, n.id, 1);
      expect(adaDismissed).toMatchObject({ status: "DISMISSED", revision: 1 });
      const bobView = await asPerson(bob.token, `query($id: ID!) { notification(id: $id) { status revision } }`, { id: n.id });
      expect(bobView.data.notification).toEqual({ status: "PENDING", revision: 1 });
      expect(await counts(bob.token)).toEqual(bobBefore);
      // A new content revision is new to everyone again, including Ada.
      const updated = await h.publish({ scope: "APPLICATION", key: "maintenance", title: "Maintenance moved to tomorrow" });
      expect(updated.revision).toBe(2);
      const adaAgain = await asPerson(ada.token, `query($id: ID!) { notification(id: $id) { status revision title } }`, { id: n.id });
      expect(adaAgain.data.notification).toEqual({ status: "PENDING", revision: 2, title: "Maintenance moved to tomorrow" });
      // Producer transitions are global.
      await resolve(n.id);
      const bobAfter = await asPerson(bob.token, `query($id: ID!) { notification(id: $id) { status } }`, { id: n.id });
      expect(bobAfter.data.notification.status).toBe("RESOLVED");
    });

    it("marks seen in a batch and all at once, counting only what changed", async () => {
      const carol = await h.newPerson("Carol");
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await h.publish({ scope: "PERSON", personId: carol.id, key: `s${i}`, title: `n${i}` })).id);
      expect(await counts(carol.token)).toMatchObject({ unseen: 3 });
      await asPerson(carol.token, `mutation($ids: [ID!]!) { markNotificationsSeen(ids: $ids) { id } }`, { ids: [ids[0]] });
      expect(await counts(carol.token)).toMatchObject({ total: 3 });
      const all = await asPerson(carol.token, `mutation { markAllNotificationsSeen(filter: { scope: PERSON }) }`);
      expect(all.data.markAllNotificationsSeen).toBe(2);
      expect(await counts(carol.token)).toMatchObject({ total: 3, unseen: 0 });
      expect((await asPerson(carol.token, `mutation { markAllNotificationsSeen(filter: { scope: PERSON }) }`)).data.markAllNotificationsSeen).toBe(0);
    });

    it("marks all seen past the per-call id limit of markNotificationsSeen", async () => {
      const many = await h.newPerson("Many");
      for (let i = 0; i < 501; i++) {
        await h.herald.services.notifications.publish({ scope: "PERSON", personId: many.id, key: `m${i}`, title: `n${i}`, source: { plugin: "t" } });
      }
      const all = await asPerson(many.token, `mutation { markAllNotificationsSeen(filter: { scope: PERSON }) }`);
      expect(all.errors).toBeUndefined();
      expect(all.data.markAllNotificationsSeen).toBe(501);
      expect(await counts(many.token)).toEqual({ total: 501, unseen: 0 });
    });

    it("hides snoozed notifications until the snooze passes, and validates the time", async () => {
      const dave = await h.newPerson("Dave");
      const n = await h.publish({ scope: "PERSON", personId: dave.id, key: "snooze", title: "Later" });
      const past = await asPerson(dave.token, `mutation($id: ID!, $u: DateTime!) { snoozeNotification(id: $id, until: $u) { id } }`, {
        id: n.id,
        u: new Date(h.clock.now().getTime() - 1000).toISOString(),
      });
      expect(past.errors?.[0]?.extensions).toMatchObject({ code: "VALIDATION_ERROR", field: "until" });
      const until = new Date(h.clock.now().getTime() + 3_600_000).toISOString();
      const snoozed = await asPerson(dave.token, `mutation($id: ID!, $u: DateTime!) { snoozeNotification(id: $id, until: $u) { snoozedUntil revision } }`, {
        id: n.id,
        u: until,
      });
      expect(snoozed.data.snoozeNotification).toEqual({ snoozedUntil: until, revision: 1 });
      expect(await counts(dave.token)).toEqual({ total: 0, unseen: 0 });
      const withSnoozed = await asPerson(dave.token, `{ notificationCounts(filter: { scope: PERSON, includeSnoozed: true }) { total } }`);
      expect(withSnoozed.data.notificationCounts.total).toBe(1);
      h.clock.advance(3_600_001);
      expect(await counts(dave.token)).toEqual({ total: 1, unseen: 1 });
      const unsnoozed = await asPerson(dave.token, `mutation($id: ID!) { unsnoozeNotification(id: $id) { snoozedUntil } }`, { id: n.id });
      expect(unsnoozed.data.unsnoozeNotification.snoozedUntil).toBeNull();
    });

    it("expires pending UNTIL_REQUEST_COMPLETE records of a request, and only those", async () => {
      const a = await h.publish({
        scope: "PERSON",
        personId: ada.id,
        key: "req-a",
        title: "a",
        retention: { policy: "UNTIL_REQUEST_COMPLETE", requestId: "r-1" },
      });
      const b = await h.publish({
        scope: "PERSON",
        personId: ada.id,
        key: "req-b",
        title: "b",
        requestId: "r-1",
        retention: { policy: "UNTIL_REQUEST_COMPLETE" },
      });
      const other = await h.publish({
        scope: "PERSON",
        personId: ada.id,
        key: "req-c",
        title: "c",
        retention: { policy: "UNTIL_REQUEST_COMPLETE", requestId: "r-2" },
      });
      const kept = await h.publish({ scope: "PERSON", personId: ada.id, key: "req-d", title: "d", requestId: "r-1" });
      await resolve(b.id);
      const r = await producer(`mutation { completeRequest(requestId: "r-1") }`);
      expect(r.data.completeRequest).toBe(1);
      const statuses = await asPerson(
        ada.token,
        `query { a: notification(id: "${a.id}") { status } c: notification(id: "${other.id}") { status } d: notification(id: "${kept.id}") { status } b: notification(id: "${b.id}") { status } }`,
      );
      expect(statuses.data).toEqual({ a: { status: "EXPIRED" }, b: { status: "RESOLVED" }, c: { status: "PENDING" }, d: { status: "PENDING" } });
    });

    it("keeps an UNTIL_SERVER_RESTART record while its instance runs and expires it when the instance stops", async () => {
      const n = await h.publish({ scope: "PERSON", personId: ada.id, key: "lifetime", title: "Server-bound", retention: { policy: "UNTIL_SERVER_RESTART" } });
      expect(await h.herald.instance.expireEnded("start")).toBe(0);
      expect(await h.herald.instance.stop()).toBeGreaterThanOrEqual(1);
      // The harness goes on serving: it records itself again.
      await h.herald.instance.beat();
      const view = await asPerson(ada.token, `query($id: ID!) { notification(id: $id) { status } }`, { id: n.id });
      expect(view.data.notification.status).toBe("EXPIRED");
    });

    it("leaves a TTL record out of lists after its deadline without changing its status", async () => {
      const erin = await h.newPerson("Erin");
      const expiresAt = new Date(h.clock.now().getTime() + 60_000).toISOString();
      const n = await h.publish({ scope: "PERSON", personId: erin.id, key: "ttl", title: "Soon gone", retention: { policy: "TTL", expiresAt } });
      expect((await counts(erin.token)).total).toBe(1);
      h.clock.advance(60_001);
      expect((await counts(erin.token)).total).toBe(0);
      const direct = await asPerson(erin.token, `query($id: ID!) { notification(id: $id) { status revision } }`, { id: n.id });
      expect(direct.data.notification).toEqual({ status: "PENDING", revision: 1 });
    });

    it("turns quiet mode on and off for the viewer only", async () => {
      const on = await asPerson(ada.token, `mutation { setQuietMode(enabled: true) { quietMode } }`);
      expect(on.data.setQuietMode.quietMode).toBe(true);
      expect((await asPerson(ada.token, `{ viewer { preferences { quietMode } } }`)).data.viewer.preferences.quietMode).toBe(true);
      expect((await asPerson(bob.token, `{ viewer { preferences { quietMode } } }`)).data.viewer.preferences.quietMode).toBe(false);
      await asPerson(ada.token, `mutation { setQuietMode(enabled: false) { quietMode } }`);
    });

    it("writes one event-log entry per change, in increasing sequence", async () => {
      const probe = storeOf(h.herald.database);
      const before = await probe.count("NotificationEvent");
      const n = await h.publish({ scope: "PERSON", personId: ada.id, key: "log", title: "1" });
      await h.publish({ scope: "PERSON", personId: ada.id, key: "log", title: "2" });
      await asPerson(ada.token, `mutation($ids: [ID!]!) { markNotificationsSeen(ids: $ids) { id } }`, { ids: [n.id] });
      await dismiss(ada.token, n.id);
      await dismiss(ada.token, n.id); // idempotent: no new event
      const events = await probe.rows("NotificationEvent", (q) => q.where("notificationId", "=", n.id).orderBy("seq", "asc"));
      expect(events.map((e) => e.type)).toEqual(["CREATED", "UPDATED", "SEEN", "DISMISSED"]);
      expect(events.map((e) => e.personId)).toEqual([ada.id, ada.id, ada.id, ada.id]);
      expect(await probe.count("NotificationEvent")).toBe(before + 4);
      const seqs = events.map((e) => e.seq);
      expect([...seqs].sort((x, y) => x - y)).toEqual(seqs);
    });
  });
}
