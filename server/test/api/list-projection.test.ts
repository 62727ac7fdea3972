// A list reads only the columns its selection needs (transport/graphql/notification-selection.ts,
// recordProjection in storage/notifications/notification-mapper.ts). Every field of Notification,
// selected alone, must show what it shows in a list that selects everything: a field whose
// resolver or decoder reads a column the projection left out shows null or fails here. The rows
// cover every field with a value: a person's record with every optional part set, shared records
// the reader read, snoozed, dismissed and received, a resolved, an expired and a received one, and an invocation.
import { type GraphQLField, type GraphQLNamedType, getNamedType, isObjectType } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { schema } from "../support/schema.ts";

const notificationType = schema.getType("Notification");
if (!isObjectType(notificationType)) throw new Error("no Notification type");

/** A field's selection: its leaves, and one level of an object's leaves. */
function selectionOf(field: GraphQLField<unknown, unknown>, depth = 0): string | null {
  if (field.args.some((arg) => arg.type.toString().endsWith("!"))) return null;
  const type: GraphQLNamedType = getNamedType(field.type);
  if (!isObjectType(type)) return field.name;
  if (depth > 0) return null;
  const inner = Object.values(type.getFields())
    .map((f) => selectionOf(f, depth + 1))
    .filter((s): s is string => s !== null);
  return `${field.name} { ${inner.join(" ")} }`;
}

const fields = Object.values(notificationType.getFields()).map((field) => ({ name: field.name, selection: selectionOf(field)! }));
const FILTER = { includeTerminal: true, includeSnoozed: true };
const listOf = (selection: string) =>
  `query($filter: NotificationFilter) { notifications(first: 20, filter: $filter) { edges { cursor node { ${selection} } } } }`;

for (const provider of providers) {
  describe.skipIf(!provider.available)(`a list reads only the columns its selection needs, on ${provider.name}`, () => {
    let h: TestHerald;
    let person: { id: string; token: string };
    let whole: Record<string, unknown>[];
    let cursors: string[];
    const asPerson = (query: string, variables: Record<string, unknown> = {}) => gql(h.url, person.token, query, { filter: FILTER, ...variables });
    const asProducer = (query: string, variables: Record<string, unknown>) => gql(h.url, h.producerKey, query, variables);

    beforeAll(async () => {
      h = await startHerald(provider);
      person = await h.newPerson("Reader");
      const session = await asProducer(`mutation($o: ID!) { createSession(input: { harness: "pi", sessionId: "projection", ownerPersonId: $o }) { id } }`, {
        o: person.id,
      });
      const engagement = await asProducer(`mutation($o: ID!) { createEngagement(input: { name: "Projection", operatorPersonId: $o }) { id } }`, {
        o: person.id,
      });
      const everything = await h.publish({
        scope: "SESSION",
        sessionId: session.data.createSession.id,
        key: "everything",
        title: "Every part",
        body: "A **markdown** body",
        severity: "WARNING",
        source: { plugin: "tests", subsystem: "projection" },
        display: { format: "MARKDOWN", presentation: "INLINE", variant: "SUCCESS", dismissible: false },
        actions: [
          { kind: "RUN_ACTION", id: "run", label: "Run", actionId: "rerun", fixedParams: { a: 1 }, form: [{ name: "why", label: "Why", type: "TEXT" }] },
          { kind: "OPEN_URL", id: "open", label: "Open", url: "https://example.com/x" },
        ],
        operation: { id: "op-1", type: "build", state: "running", phase: "compile", elapsedSeconds: 12, cancellable: true },
        uiEffects: { refresh: ["builds"] },
        data: { any: ["json", 1] },
        retention: { policy: "UNTIL_REQUEST_COMPLETE", requestId: "request-1" },
        requestId: "request-1",
        trigger: { type: "EVENT_BASED", ref: "push:1" },
        engagementId: engagement.data.createEngagement.id,
      });
      const invoked = await asPerson(`mutation($id: ID!) { invokeNotificationAction(id: $id, actionId: "run", values: { why: "because" }) { id } }`, {
        id: everything.id,
      });
      expect(invoked.errors).toBeUndefined();
      await h.publish({
        scope: "PERSON",
        personId: person.id,
        key: "ttl",
        title: "Soon gone",
        retention: { policy: "TTL", expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
      });
      const resolved = await h.publish({ scope: "PERSON", personId: person.id, key: "resolved", title: "Answered" });
      const r = await asProducer(`mutation($id: ID!) { resolveNotification(id: $id, resolution: { actionId: "yes", values: { ok: true } }) { __typename } }`, {
        id: resolved.id,
      });
      expect(r.data.resolveNotification.__typename).toBe("Notification");
      const expired = await h.publish({ scope: "PERSON", personId: person.id, key: "expired", title: "Expired" });
      await asProducer(`mutation($id: ID!) { expireNotification(id: $id, reason: "stale") { __typename } }`, { id: expired.id });
      const read = await h.publish({ scope: "APPLICATION", key: "shared-read", title: "Shared and read", uiEffects: { refresh: ["x"] } });
      await asPerson(`mutation($ids: [ID!]!) { markNotificationsRead(ids: $ids) { id } }`, { ids: [read.id] });
      const snoozed = await h.publish({ scope: "APPLICATION", key: "shared-snoozed", title: "Shared and snoozed" });
      await asPerson(`mutation($id: ID!, $u: DateTime!) { snoozeNotification(id: $id, until: $u) { id } }`, {
        id: snoozed.id,
        u: new Date(Date.now() + 3_600_000).toISOString(),
      });
      const dismissed = await h.publish({ scope: "APPLICATION", key: "shared-dismissed", title: "Shared and dismissed", uiEffects: { refresh: ["y"] } });
      await asPerson(`mutation($id: ID!) { dismissNotification(id: $id, reason: "not mine") { __typename } }`, { id: dismissed.id });
      const untouched = await h.publish({ scope: "APPLICATION", key: "shared-untouched", title: "Shared, untouched" });
      // What a live stream does when it hands a PENDING record to the person.
      const ttl = await asPerson(`{ notifications(first: 20) { edges { node { id key } } } }`);
      const ttlId = ttl.data.notifications.edges.find((e: { node: { key: string } }) => e.node.key === "ttl").node.id;
      for (const id of [ttlId, untouched.id]) await h.herald.services.notifications.markDelivered(person.id, id);

      const all = await asPerson(listOf(fields.map((f) => f.selection).join(" ")));
      expect(all.errors).toBeUndefined();
      whole = all.data.notifications.edges.map((e: { node: Record<string, unknown> }) => e.node);
      cursors = all.data.notifications.edges.map((e: { cursor: string }) => e.cursor);
      expect(whole.length).toBe(8);
    });
    afterAll(async () => h?.close());

    it("has rows on which every field of Notification shows a value", () => {
      const empty = fields.filter((f) => whole.every((node) => node[f.name] === null || (Array.isArray(node[f.name]) && (node[f.name] as []).length === 0)));
      // Only deliveries, which needs a channel, stays empty here; it reads nothing but the id.
      expect(empty.map((f) => f.name)).toEqual(["deliveries"]);
    });

    it.each(fields.map((f) => [f.name, f.selection]))("%s selected alone shows what a list of every field shows", async (name, selection) => {
      const alone = await asPerson(listOf(selection));
      expect(alone.errors).toBeUndefined();
      expect(alone.data.notifications.edges.map((e: { node: Record<string, unknown> }) => e.node[name])).toEqual(whole.map((node) => node[name]));
      expect(alone.data.notifications.edges.map((e: { cursor: string }) => e.cursor)).toEqual(cursors);
    });

    it("reads what fragments, aliases and @include select as execution selects them", async () => {
      const query = `query($filter: NotificationFilter, $on: Boolean!) {
        notifications(first: 20, filter: $filter) {
          shown: edges { node { ...Parts heading: title } }
          edges { node { ... on Notification { retention { requestId } } status @include(if: $on) readAt @skip(if: $on) } }
        }
      }
      fragment Parts on Notification { display { title dismissible } session { id } }`;
      const r = await asPerson(query, { on: true });
      expect(r.errors).toBeUndefined();
      const shown = r.data.notifications.shown.map((e: { node: Record<string, unknown> }) => e.node);
      expect(shown.map((n: Record<string, unknown>) => n.heading)).toEqual(whole.map((n) => n.title));
      expect(shown.map((n: Record<string, { title: string; dismissible: boolean }>) => [n.display!.title, n.display!.dismissible])).toEqual(
        whole.map((n) => [(n.display as { title: string }).title, (n.display as { dismissible: boolean }).dismissible]),
      );
      expect(shown.map((n: Record<string, unknown>) => n.session)).toEqual(whole.map((n) => (n.session ? { id: (n.session as { id: string }).id } : null)));
      const edges = r.data.notifications.edges.map((e: { node: Record<string, unknown> }) => e.node);
      expect(edges.map((n: { retention: { requestId: string | null } }) => n.retention.requestId)).toEqual(
        whole.map((n) => (n.retention as { requestId: string | null }).requestId),
      );
      expect(edges.map((n: Record<string, unknown>) => n.status)).toEqual(whole.map((n) => n.status));
      expect(edges.every((n: Record<string, unknown>) => !("readAt" in n))).toBe(true);
    });
  });
}
