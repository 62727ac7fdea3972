// Durable action invocations over real HTTP and SSE, on every storage provider: stored when no
// producer listens, replayed from a cursor without gap or duplicate, acknowledged by the
// producer, seen by the person; forms map submitted values into fixedParams.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers, redisUrl } from "../support/providers.ts";
import { eventually, subscribe } from "../support/sse.ts";
import { storeOf } from "../support/store.ts";

const FIELDS = "id cursor notificationId actionId targetActionId fixedParams values personId plugin state outcomeMessage";
const INVOCATIONS = `subscription($plugin: String, $after: String) { actionInvocations(plugin: $plugin, after: $after) { ${FIELDS} } }`;
const ACK = `mutation($id: ID!, $outcome: ActionInvocationOutcome!, $message: String) {
  acknowledgeActionInvocation(id: $id, outcome: $outcome, message: $message) {
    __typename
    ... on ActionInvocation { id state outcomeMessage acknowledgedAt }
    ... on NotFoundError { message }
    ... on ValidationError { field message }
  }
}`;
const INVOKE = `mutation($id: ID!, $actionId: String!, $values: JSON) { invokeNotificationAction(id: $id, actionId: $actionId, values: $values) { ${FIELDS} } }`;

interface Invocation {
  id: string;
  cursor: string;
  notificationId: string;
  fixedParams: Record<string, unknown> | null;
  values: unknown;
  plugin: string;
  state: string;
}

for (const provider of providers) {
  const transport = provider.name === "postgresql" && redisUrl ? " + Redis" : "";
  describe.skipIf(!provider.available)(`action invocations on ${provider.name}${transport}`, () => {
    let h: TestHerald;
    beforeAll(async () => {
      const redis = provider.name === "postgresql" && redisUrl ? { redisUrl } : {};
      h = await startHerald(provider, { heartbeatMs: 200, feedPollMs: 200, ...redis });
    });
    afterAll(async () => h?.close());

    // Each test uses its own plugin, so the file's tests never see each other's invocations.
    const retryable = async (personId: string, plugin: string, key = "export") =>
      h.publish({
        scope: "PERSON",
        personId,
        key,
        title: "Export failed",
        source: { plugin },
        actions: [{ kind: "RUN_ACTION", id: "retry", label: "Retry", actionId: "export.retry", fixedParams: { exportId: 7 } }],
      });
    const invoke = async (token: string, id: string, actionId = "retry", values: unknown = null) => {
      const r = await gql(h.url, token, INVOKE, { id, actionId, values });
      if (r.errors) throw new Error(JSON.stringify(r.errors));
      return r.data.invokeNotificationAction as Invocation;
    };
    const received = (events: unknown[]) => (events as { actionInvocations: Invocation }[]).map((e) => e.actionInvocations);
    const stored = (plugin: string) => storeOf(h.herald.database).rows("ActionInvocation", (q) => q.where("plugin", "=", plugin).orderBy("seq", "asc"));

    it("stores an invocation no producer heard and replays it to a producer that connects later, with or without a cursor", async () => {
      const ada = await h.newPerson("Ada");
      const n = await retryable(ada.id, "late-1");
      expect(h.herald.feed.invocationListenerCount).toBe(0);
      const first = await invoke(ada.token, n.id);
      expect(first.state).toBe("PENDING");

      const fresh = subscribe(h.url, h.producerKey, { query: INVOCATIONS, variables: { plugin: "late-1" } });
      const [replayed] = received(await fresh.waitFor(1));
      expect(replayed).toMatchObject({ id: first.id, notificationId: n.id, targetActionId: "export.retry", fixedParams: { exportId: 7 }, state: "PENDING" });
      fresh.dispose();

      // A cursor taken before the first invocation replays it and the ones after, whatever their state.
      const second = await invoke(ada.token, n.id);
      const page = await gql(h.url, h.producerKey, `query { actionInvocations(plugin: "late-1", first: 1) { items { id } cursor hasMore } }`);
      expect(page.data.actionInvocations).toMatchObject({ items: [{ id: first.id }], hasMore: true });
      const resumed = subscribe(h.url, h.producerKey, { query: INVOCATIONS, variables: { plugin: "late-1", after: first.cursor } });
      expect(received(await resumed.waitFor(1)).map((i) => i.id)).toEqual([second.id]);
      const third = await invoke(ada.token, n.id); // and then live
      await resumed.waitFor(2);
      expect(received(resumed.events).map((i) => i.id)).toEqual([second.id, third.id]);
      resumed.dispose();
    });

    it("carries the originating presentation and variant, so a producer's response keeps them", async () => {
      const ada = await h.newPerson("Ada");
      const modal = await h.publish({
        scope: "PERSON",
        personId: ada.id,
        key: "deploy",
        title: "Deploy to production?",
        severity: "INFO",
        display: { presentation: "MODAL", variant: "WARNING" },
        source: { plugin: "display-1" },
        actions: [{ kind: "RUN_ACTION", id: "go", label: "Deploy", actionId: "deploy.go" }],
      });
      const plain = await retryable(ada.id, "display-1", "export-plain");
      await invoke(ada.token, modal.id, "go");
      await invoke(ada.token, plain.id);
      const page = await gql(
        h.url,
        h.producerKey,
        `query { actionInvocations(plugin: "display-1", first: 10) { items { notificationId presentation variant } } }`,
      );
      expect(page.data.actionInvocations.items).toEqual([
        { notificationId: modal.id, presentation: "MODAL", variant: "WARNING" },
        // Defaults follow the content: a PERSON notification is inline (the inbox only), its variant its severity.
        { notificationId: plain.id, presentation: "INLINE", variant: "INFO" },
      ]);
    });

    it("resumes from a cursor while invocations keep coming, with no gap and no duplicate at the seam", async () => {
      const ada = await h.newPerson("Ada");
      const n = await retryable(ada.id, "seam");
      const first = await invoke(ada.token, n.id);
      for (let i = 0; i < 5; i++) await invoke(ada.token, n.id);
      const sub = subscribe(h.url, h.producerKey, { query: INVOCATIONS, variables: { plugin: "seam", after: first.cursor } });
      for (let i = 0; i < 5; i++) await invoke(ada.token, n.id);
      const expected = (await stored("seam")).slice(1).map((r) => r.id);
      expect(expected).toHaveLength(10);
      await sub.waitFor(10);
      // One more is the marker: a duplicate of the ten would arrive before it.
      const marker = await invoke(ada.token, n.id);
      await sub.waitUntil((events) => received(events).some((i) => i.id === marker.id));
      sub.dispose();
      expect(received(sub.events).map((i) => i.id)).toEqual([...expected, marker.id]);
      expect(sub.errors).toEqual([]);
    });

    it("acknowledging changes the state once, and the person sees it live on the notification", async () => {
      const ada = await h.newPerson("Ada");
      const n = await retryable(ada.id, "acks");
      const person = subscribe(h.url, ada.token, {
        query: `subscription { notificationEvents { type notification { id lastInvocation { id state outcomeMessage } } } }`,
        variables: {},
      });
      await h.attached(ada.id);
      const invocation = await invoke(ada.token, n.id);
      type Ev = { type: string; notification: { id: string; lastInvocation: { id: string; state: string; outcomeMessage: string | null } | null } };
      const invocationEvents = () => (person.events as unknown as Ev[]).filter((e) => e.type === "INVOCATION");
      await eventually(async () => invocationEvents().length >= 1, 10_000, "the INVOCATION event");
      expect(invocationEvents()[0]!.notification.lastInvocation).toEqual({ id: invocation.id, state: "PENDING", outcomeMessage: null });

      const ack = await gql(h.url, h.producerKey, ACK, { id: invocation.id, outcome: "FAILED", message: "disk full" });
      expect(ack.data.acknowledgeActionInvocation).toMatchObject({ __typename: "ActionInvocation", state: "FAILED", outcomeMessage: "disk full" });
      await eventually(async () => invocationEvents().length >= 2, 10_000, "the acknowledgement event");
      expect(invocationEvents()[1]!.notification.lastInvocation).toEqual({ id: invocation.id, state: "FAILED", outcomeMessage: "disk full" });

      // The same outcome again changes nothing; another one is refused, naming the field.
      const again = await gql(h.url, h.producerKey, ACK, { id: invocation.id, outcome: "FAILED", message: "other words" });
      expect(again.data.acknowledgeActionInvocation).toMatchObject({ __typename: "ActionInvocation", state: "FAILED", outcomeMessage: "disk full" });
      const flip = await gql(h.url, h.producerKey, ACK, { id: invocation.id, outcome: "ACKNOWLEDGED" });
      expect(flip.data.acknowledgeActionInvocation).toMatchObject({ __typename: "ValidationError", field: "outcome" });
      // Ada reading the notification is the marker: a third INVOCATION event would arrive before it.
      await gql(h.url, ada.token, `mutation($ids: [ID!]!) { markNotificationsRead(ids: $ids) { id } }`, { ids: [n.id] });
      await person.waitUntil((events) => events.some((e) => e.type === "READ"));
      expect(invocationEvents()).toHaveLength(2);
      person.dispose();

      const read = await gql(h.url, ada.token, `query($id: ID!) { notification(id: $id) { lastInvocation { state outcomeMessage } } }`, { id: n.id });
      expect(read.data.notification.lastInvocation).toEqual({ state: "FAILED", outcomeMessage: "disk full" });
      // Settled invocations are not replayed to a producer that connects without a cursor.
      const polled = await gql(h.url, h.producerKey, `query { actionInvocations(plugin: "acks") { items { id } } }`);
      expect(polled.data.actionInvocations.items).toEqual([]);
    });

    it("a page of notifications reads each one's latest invocation (the person's own) in one batched look-up", async () => {
      const ada = await h.newPerson("Ada");
      const expected = new Map<string, string | null>();
      for (let i = 0; i < 5; i++) {
        const n = await retryable(ada.id, "page-1", `page-${i}`);
        let latest: string | null = null;
        for (let k = 0; k < i % 3; k++) latest = (await invoke(ada.token, n.id)).id;
        expected.set(n.id, latest);
      }
      const invocations = h.herald.services.invocations;
      const latestOf = invocations.latestOf.bind(invocations);
      const calls: number[] = [];
      invocations.latestOf = (ids, personId) => {
        calls.push(ids.length);
        return latestOf(ids, personId);
      };
      try {
        const r = await gql(
          h.url,
          ada.token,
          `{ notifications(first: 20, filter: { plugins: ["page-1"] }) { edges { node { id lastInvocation { id personId } } } } }`,
        );
        const nodes = r.data.notifications.edges.map((e: { node: { id: string; lastInvocation: { id: string; personId: string } | null } }) => e.node);
        expect(new Map(nodes.map((n: { id: string; lastInvocation: { id: string } | null }) => [n.id, n.lastInvocation?.id ?? null]))).toEqual(expected);
        expect(nodes.every((n: { lastInvocation: { personId: string } | null }) => n.lastInvocation === null || n.lastInvocation.personId === ada.id)).toBe(
          true,
        );
        expect(calls).toEqual([5]);
      } finally {
        invocations.latestOf = latestOf;
      }
    });

    it("a producer listening for another plugin does not receive the invocation", async () => {
      const ada = await h.newPerson("Ada");
      const n = await retryable(ada.id, "mine");
      const other = subscribe(h.url, h.producerKey, { query: INVOCATIONS, variables: { plugin: "someone-else" } });
      const mine = subscribe(h.url, h.producerKey, { query: INVOCATIONS, variables: { plugin: "mine" } });
      await eventually(async () => h.herald.feed.invocationListenerCount >= 2, 10_000, "both producer streams");
      const invocation = await invoke(ada.token, n.id);
      expect(received(await mine.waitFor(1)).map((i) => i.id)).toEqual([invocation.id]);
      // An invocation of the other plugin, made after, is the marker: it must be the first thing the other stream receives.
      const theirs = await invoke(ada.token, (await retryable(ada.id, "someone-else")).id);
      expect(received(await other.waitFor(1)).map((i) => i.id)).toEqual([theirs.id]);
      other.dispose();
      mine.dispose();
    });

    it("acknowledging an unknown or foreign id is a NotFoundError, and only producers may acknowledge", async () => {
      const ada = await h.newPerson("Ada");
      const n = await retryable(ada.id, "foreign");
      const invocation = await invoke(ada.token, n.id);
      const unknown = await gql(h.url, h.producerKey, ACK, { id: "no-such-invocation", outcome: "ACKNOWLEDGED" });
      expect(unknown.data.acknowledgeActionInvocation.__typename).toBe("NotFoundError");
      // A notification's id is not an invocation's.
      const wrongKind = await gql(h.url, h.producerKey, ACK, { id: n.id, outcome: "ACKNOWLEDGED" });
      expect(wrongKind.data.acknowledgeActionInvocation.__typename).toBe("NotFoundError");
      const byPerson = await gql(h.url, ada.token, ACK, { id: invocation.id, outcome: "ACKNOWLEDGED" });
      expect(byPerson.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
      // Bob cannot read Ada's invocation state through her notification, nor run her follow-up.
      const bob = await h.newPerson("Bob");
      const peek = await gql(h.url, bob.token, `query($id: ID!) { notification(id: $id) { lastInvocation { id } } }`, { id: n.id });
      expect(peek.data.notification).toBeNull();
      const [row] = await stored("foreign");
      expect(row).toMatchObject({ id: invocation.id, state: "PENDING", acknowledgedAt: null });
      const forged = subscribe(h.url, h.producerKey, { query: INVOCATIONS, variables: { plugin: "foreign", after: "e1.forged" } });
      await eventually(async () => forged.errors.length > 0 || forged.completed, 10_000, "the forged cursor to be refused");
      expect(JSON.stringify(forged.errors)).toContain("400"); // refused before the stream opens, as for notificationEvents
      forged.dispose();
    });

    it("maps a form's values into fixedParams and names the field of a refused value", async () => {
      const ada = await h.newPerson("Ada");
      const formAction = {
        kind: "RUN_ACTION",
        id: "rename",
        label: "Rename",
        actionId: "session.rename",
        fixedParams: { session: "s-1", name: "$form.name", options: { urgent: "$form.urgent", size: "$form.size" } },
        form: [
          { name: "name", label: "New name", type: "TEXT", required: true, maxLength: 20 },
          { name: "urgent", label: "Urgent", type: "BOOLEAN" },
          { name: "size", label: "Size", type: "SELECT", options: ["s", "m", "l"] },
        ],
      };
      const n = await h.publish({ scope: "PERSON", personId: ada.id, key: "form", title: "Name it", source: { plugin: "forms" }, actions: [formAction] });
      const actions = await gql(h.url, ada.token, `query($id: ID!) { notification(id: $id) { actions { form } } }`, { id: n.id });
      expect(actions.data.notification.actions[0].form).toEqual([
        { name: "name", label: "New name", type: "TEXT", required: true, options: null, placeholder: null, maxLength: 20 },
        { name: "urgent", label: "Urgent", type: "BOOLEAN", required: false, options: null, placeholder: null, maxLength: null },
        { name: "size", label: "Size", type: "SELECT", required: false, options: ["s", "m", "l"], placeholder: null, maxLength: null },
      ]);

      const invocation = await invoke(ada.token, n.id, "rename", { name: "Release prep", size: "m" });
      expect(invocation.fixedParams).toEqual({ session: "s-1", name: "Release prep", options: { urgent: false, size: "m" } });
      expect(invocation.values).toEqual({ name: "Release prep", urgent: false, size: "m" });

      const refusals: [unknown, string][] = [
        [{ size: "m" }, "values.name"],
        [{ name: "x".repeat(21) }, "values.name"],
        [{ name: "ok", size: "xl" }, "values.size"],
        [{ name: "ok", urgent: "yes" }, "values.urgent"],
        [{ name: "ok", extra: 1 }, "values.extra"],
      ];
      for (const [values, field] of refusals) {
        const r = await gql(h.url, ada.token, INVOKE, { id: n.id, actionId: "rename", values });
        expect(r.errors?.[0]?.extensions, JSON.stringify(values)).toMatchObject({ code: "VALIDATION_ERROR", field });
      }
      expect(await stored("forms")).toHaveLength(1); // nothing half-written

      const badReference = await gql(
        h.url,
        h.producerKey,
        `mutation($input: PublishNotificationInput!) { publishNotification(input: $input) { __typename ... on ValidationError { field } } }`,
        {
          input: {
            scope: "PERSON",
            personId: ada.id,
            key: "form-bad",
            title: "Bad",
            source: { plugin: "forms" },
            actions: [{ ...formAction, fixedParams: { name: "$form.nickname" } }],
          },
        },
      );
      expect(badReference.data.publishNotification).toEqual({ __typename: "ValidationError", field: "actions.0.fixedParams.name" });
    });
  });
}
