// Rules of the plugin notification API over real HTTP, on every storage provider: the contract's
// type names, terminal reasons, non-dismissible records, terminal revisions and keyed patches.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql, resultFields } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";

for (const provider of providers) {
  describe.skipIf(!provider.available)(`plugin rules on ${provider.name}`, () => {
    let h: TestHerald;
    let ada: { id: string; token: string };
    let bob: { id: string; token: string };

    beforeAll(async () => {
      h = await startHerald(provider);
      ada = await h.newPerson("Ada");
      bob = await h.newPerson("Bob");
    });
    afterAll(async () => h?.close());

    const producer = (query: string, variables?: Record<string, unknown>) => gql(h.url, h.producerKey, query, variables);
    const dismiss = (token: string, id: string, reason?: string) =>
      gql(h.url, token, `mutation($id: ID!, $reason: String) { dismissNotification(id: $id, reason: $reason) { ${resultFields("dismiss")} } }`, {
        id,
        reason,
      }).then((r) => r.data.dismissNotification);
    const expire = (id: string, reason?: string) =>
      producer(`mutation($id: ID!, $reason: String) { expireNotification(id: $id, reason: $reason) { ${resultFields("resolve")} } }`, { id, reason }).then(
        (r) => r.data.expireNotification,
      );
    const resolve = (id: string) =>
      producer(`mutation($id: ID!) { resolveNotification(id: $id) { ${resultFields("resolve")} } }`, { id }).then((r) => r.data.resolveNotification);
    const read = (token: string, id: string) =>
      gql(h.url, token, `query($id: ID!) { notification(id: $id) { id status terminalReason } }`, { id }).then((r) => r.data.notification);

    it("names the notifications connection NotificationConnection with NotificationEdge edges", async () => {
      const r = await gql(
        h.url,
        ada.token,
        `{ __schema { queryType { fields { name type { ofType { name fields { name type { ofType { ofType { ofType { name } } } } } } } } } } }`,
      );
      const field = r.data.__schema.queryType.fields.find((f: { name: string }) => f.name === "notifications");
      expect(field.type.ofType.name).toBe("NotificationConnection");
      const edges = field.type.ofType.fields.find((f: { name: string }) => f.name === "edges");
      expect(edges.type.ofType.ofType.ofType.name).toBe("NotificationEdge");
      const page = await gql(h.url, ada.token, `{ notifications(first: 1) { __typename edges { __typename } } }`);
      expect(page.data.notifications.__typename).toBe("NotificationConnection");
    });

    it("reads the dismiss or expire reason as terminalReason, null while active and when resolved", async () => {
      const active = await h.publish({ scope: "PERSON", personId: ada.id, key: "reason:active", title: "t" });
      expect(active.terminalReason).toBeNull();
      expect((await dismiss(ada.token, active.id, "handled elsewhere")).terminalReason).toBe("handled elsewhere");
      expect(await read(ada.token, active.id)).toMatchObject({ status: "DISMISSED", terminalReason: "handled elsewhere" });

      const byDefault = await h.publish({ scope: "PERSON", personId: ada.id, key: "reason:default", title: "t" });
      expect((await dismiss(ada.token, byDefault.id)).terminalReason).toBe("user");

      const expired = await h.publish({ scope: "PERSON", personId: ada.id, key: "reason:expired", title: "t" });
      expect((await expire(expired.id, "build superseded")).terminalReason).toBe("build superseded");
      expect(await read(ada.token, expired.id)).toMatchObject({ status: "EXPIRED", terminalReason: "build superseded" });

      const resolved = await h.publish({ scope: "PERSON", personId: ada.id, key: "reason:resolved", title: "t" });
      expect((await resolve(resolved.id)).terminalReason).toBeNull();
    });

    it("shows each person their own dismissal reason of an APPLICATION record, and the producer's once it expires it", async () => {
      const shared = await h.publish({ scope: "APPLICATION", key: "reason:shared", title: "Maintenance tonight" });
      expect((await dismiss(ada.token, shared.id, "seen it")).terminalReason).toBe("seen it");
      expect(await read(ada.token, shared.id)).toMatchObject({ status: "DISMISSED", terminalReason: "seen it" });
      expect(await read(bob.token, shared.id)).toMatchObject({ status: "PENDING", terminalReason: null });

      await expire(shared.id, "maintenance done");
      expect(await read(ada.token, shared.id)).toMatchObject({ status: "EXPIRED", terminalReason: "maintenance done" });
      expect(await read(bob.token, shared.id)).toMatchObject({ status: "EXPIRED", terminalReason: "maintenance done" });
    });

    const openStatus = { kind: "OPEN_URL", id: "status", label: "Status page", url: "https://status.example.com" };
    const listKeys = (token: string) =>
      gql(h.url, token, `{ notifications(first: 100, filter: { includeTerminal: true }) { edges { node { key } } } }`).then((r) =>
        r.data.notifications.edges.map((e: { node: { key: string } }) => e.node.key),
      );

    it("refuses to dismiss a non-dismissible record with a typed result and changes nothing", async () => {
      for (const target of [{ scope: "PERSON", personId: ada.id }, { scope: "APPLICATION" }]) {
        const n = await h.publish({
          ...target,
          key: `pinned:${target.scope}`,
          title: "Approve the deploy",
          display: { dismissible: false },
          actions: [openStatus],
        });
        expect(n).toMatchObject({ __typename: "Notification", display: { dismissible: false } });
        const refused = await dismiss(ada.token, n.id, "go away");
        expect(refused).toMatchObject({
          __typename: "NotificationTransitionError",
          message: "This notification cannot be dismissed (display.dismissible is false)",
          current: { id: n.id, revision: 1 },
        });
        expect(await read(ada.token, n.id)).toMatchObject({ status: "PENDING", terminalReason: null });
      }
    });

    it("refuses a non-dismissible record without a way forward, naming display.dismissible, and writes nothing", async () => {
      const deadEnd = await h.publish({ scope: "PERSON", personId: ada.id, key: "dead-end", title: "Stuck", display: { dismissible: false } });
      expect(deadEnd).toMatchObject({ __typename: "ValidationError", field: "display.dismissible" });
      const contradiction = await h.publish({
        scope: "PERSON",
        personId: ada.id,
        key: "dead-end",
        title: "Stuck",
        display: { dismissible: false },
        actions: [{ kind: "DISMISS", id: "close", label: "Close" }],
      });
      expect(contradiction).toMatchObject({ __typename: "ValidationError", field: "actions.0.kind" });
      expect(await listKeys(ada.token)).not.toContain("dead-end");

      // A TTL ends it by itself, so it is not a dead end either.
      const ttl = await h.publish({
        scope: "PERSON",
        personId: ada.id,
        key: "ttl-pinned",
        title: "Read-only for an hour",
        display: { dismissible: false },
        retention: { policy: "TTL", expiresAt: new Date(h.clock.now().getTime() + 3_600_000).toISOString() },
      });
      expect(ttl).toMatchObject({ __typename: "Notification", display: { dismissible: false } });
    });

    it("refuses an update that would leave a record non-dismissible without a way forward", async () => {
      const n = await h.publish({ scope: "PERSON", personId: ada.id, key: "patched-pin", title: "v1" });
      const r = await producer(`mutation($id: ID!, $patch: NotificationPatch!) { updateNotification(id: $id, patch: $patch) { ${resultFields("publish")} } }`, {
        id: n.id,
        patch: { display: { dismissible: false } },
      });
      expect(r.data.updateNotification).toMatchObject({ __typename: "ValidationError", field: "patch.display.dismissible" });
      expect(await read(ada.token, n.id)).toMatchObject({ status: "PENDING" });
      const unchanged = await gql(h.url, ada.token, `query($id: ID!) { notification(id: $id) { revision display { dismissible } } }`, { id: n.id });
      expect(unchanged.data.notification).toEqual({ revision: 1, display: { dismissible: true } });
    });

    it("never carries ui effects into a resolve, expire or dismiss revision", async () => {
      const uiEffects = { reload_sessions_list: true, reload_session_ids: ["s-1"] };
      const person = (key: string) => h.publish({ scope: "PERSON", personId: ada.id, key, title: key, uiEffects });
      const resolving = await person("fx:resolve");
      expect(resolving.uiEffects).toEqual(uiEffects);
      expect(await resolve(resolving.id)).toMatchObject({ status: "RESOLVED", revision: 2, uiEffects: null });
      expect(await expire((await person("fx:expire")).id)).toMatchObject({ status: "EXPIRED", revision: 2, uiEffects: null });
      expect(await dismiss(ada.token, (await person("fx:dismiss")).id)).toMatchObject({ status: "DISMISSED", revision: 2, uiEffects: null });
      const stored = await gql(h.url, ada.token, `query($id: ID!) { notification(id: $id) { uiEffects } }`, { id: resolving.id });
      expect(stored.data.notification.uiEffects).toBeNull();

      // A person's own dismissal of a shared record drops the effects from their view only.
      const shared = await h.publish({ scope: "APPLICATION", key: "fx:shared", title: "Sessions changed", uiEffects });
      expect(await dismiss(ada.token, shared.id)).toMatchObject({ status: "DISMISSED", uiEffects: null });
      const bobs = await gql(h.url, bob.token, `query($id: ID!) { notification(id: $id) { status uiEffects } }`, { id: shared.id });
      expect(bobs.data.notification).toEqual({ status: "PENDING", uiEffects });
    });

    const updateBy = (selector: { id: string } | { target: Record<string, unknown> }, patch: Record<string, unknown>) =>
      "id" in selector
        ? producer(`mutation($id: ID!, $patch: NotificationPatch!) { updateNotification(id: $id, patch: $patch) { ${resultFields("publish")} } }`, {
            ...selector,
            patch,
          }).then((r) => r.data.updateNotification)
        : producer(
            `mutation($target: NotificationPatchTarget!, $patch: NotificationPatch!) { updateNotificationByKey(target: $target, patch: $patch) { ${resultFields("publish")} } }`,
            { ...selector, patch },
          ).then((r) => r.data.updateNotificationByKey);

    it("patches the active occurrence of a key without its id, keeping what the patch leaves out", async () => {
      const op = { id: "run-7", type: "export", state: "running", phase: "start", elapsedSeconds: 0, cancellable: true };
      const cancel = { kind: "RUN_ACTION", id: "cancel", label: "Cancel", actionId: "export.cancel", fixedParams: { run: "run-7" } };
      const n = await h.publish({
        scope: "PERSON",
        personId: ada.id,
        key: "export",
        title: "Exporting",
        body: "3 files",
        severity: "WARNING",
        operation: op,
        actions: [cancel],
      });
      h.clock.tick();
      const beat = await updateBy(
        { target: { scope: "PERSON", personId: ada.id, key: "export" } },
        { operation: { ...op, phase: "half", elapsedSeconds: 30 } },
      );
      expect(beat).toMatchObject({
        __typename: "Notification",
        id: n.id,
        revision: 2,
        title: "Exporting",
        body: "3 files",
        severity: "WARNING",
        operation: { id: "run-7", phase: "half", elapsedSeconds: 30 },
        actions: [{ id: "cancel", actionId: "export.cancel" }],
      });

      const session = await producer(`mutation($o: ID!) { createSession(input: { harness: "pi", sessionId: "keyed-1", ownerPersonId: $o }) { id } }`, {
        o: ada.id,
      });
      const sessionId = session.data.createSession.id;
      const inSession = await h.publish({ scope: "SESSION", sessionId, key: "tests", title: "Tests running" });
      expect(await updateBy({ target: { scope: "SESSION", sessionId, key: "tests" } }, { title: "Tests passed" })).toMatchObject({
        id: inSession.id,
        revision: 2,
        title: "Tests passed",
      });

      const shared = await h.publish({ scope: "APPLICATION", key: "keyed:shared", title: "Reindexing" });
      expect(await updateBy({ target: { scope: "APPLICATION", key: "keyed:shared" } }, { body: "50%" })).toMatchObject({
        id: shared.id,
        revision: 2,
        body: "50%",
      });

      // The id form stays.
      expect(await updateBy({ id: n.id }, { title: "Exporting (id)" })).toMatchObject({ id: n.id, revision: 3, title: "Exporting (id)" });
    });

    it("starts a new occurrence when the key's previous one has ended, over its content (source document 002)", async () => {
      const ended = await h.publish({
        scope: "PERSON",
        personId: ada.id,
        key: "keyed:ended",
        title: "Done soon",
        body: "step 1",
        severity: "WARNING",
        source: { plugin: "ops", subsystem: "jobs" },
      });
      await resolve(ended.id);
      h.clock.tick();
      const next = await updateBy({ target: { scope: "PERSON", personId: ada.id, key: "keyed:ended" } }, { body: "step 2" });
      expect(next).toMatchObject({
        __typename: "Notification",
        key: "keyed:ended",
        revision: 1,
        status: "PENDING",
        title: "Done soon",
        body: "step 2",
        severity: "WARNING",
        source: { plugin: "ops", subsystem: "jobs" },
      });
      expect(next.id).not.toBe(ended.id);
      // The ended occurrence stays as it was; the new one is the key's active occurrence now.
      const old = await gql(h.url, ada.token, `query($id: ID!) { notification(id: $id) { status revision } }`, { id: ended.id });
      expect(old.data.notification).toEqual({ status: "RESOLVED", revision: 2 });
      expect(await updateBy({ target: { scope: "PERSON", personId: ada.id, key: "keyed:ended" } }, { body: "step 3" })).toMatchObject({
        id: next.id,
        revision: 2,
        body: "step 3",
      });
    });

    it("starts a new occurrence of an absent key when the patch carries a title and a source; without them there is nothing to patch", async () => {
      const target = { scope: "PERSON", personId: ada.id, key: "keyed:fresh" };
      expect(await updateBy({ target }, { body: "no title" })).toMatchObject({ __typename: "NotFoundError" });
      expect(await updateBy({ target }, { title: "Fresh" })).toMatchObject({ __typename: "NotFoundError" });
      const created = await updateBy({ target }, { title: "Fresh", source: { plugin: "ops" } });
      expect(created).toMatchObject({
        __typename: "Notification",
        key: "keyed:fresh",
        revision: 1,
        status: "PENDING",
        title: "Fresh",
        source: { plugin: "ops" },
      });
      const listed = await gql(h.url, ada.token, `{ notifications(first: 50) { edges { node { id key } } } }`);
      expect(listed.data.notifications.edges.map((e: any) => e.node.id)).toContain(created.id);
      // A bad patch is refused naming its field, absent key or not.
      expect(await updateBy({ target: { ...target, key: "keyed:bad" } }, { title: "", source: { plugin: "ops" } })).toMatchObject({
        __typename: "ValidationError",
        field: "patch.title",
      });
    });

    it("answers NotFoundError for an unknown key or target it cannot start, and ValidationError for a bad selector", async () => {
      for (const target of [
        { scope: "PERSON", personId: ada.id, key: "no-such-key" },
        { scope: "PERSON", personId: bob.id, key: "export" },
        { scope: "PERSON", personId: "no-such-person", key: "export" },
        { scope: "SESSION", sessionId: "no-such-session", key: "tests" },
      ]) {
        expect(await updateBy({ target }, { title: "x" })).toMatchObject({ __typename: "NotFoundError" });
      }
      // The contract's updateNotification takes an id, always.
      const withoutId = await producer(`mutation { updateNotification(patch: { title: "x" }) { __typename } }`);
      expect(withoutId.errors?.[0]?.extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
      const noPerson = await updateBy({ target: { scope: "PERSON", key: "export" } }, { title: "x" });
      expect(noPerson).toMatchObject({ __typename: "ValidationError", field: "target.personId" });
      const blankKey = await updateBy({ target: { scope: "APPLICATION", key: " " } }, { title: "x" });
      expect(blankKey).toMatchObject({ __typename: "ValidationError", field: "target.key" });
    });
  });
}
