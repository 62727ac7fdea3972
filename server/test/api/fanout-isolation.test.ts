// Many live subscribers at once: 2,000 streams of three persons (1,000 / 700 / 300), spread over
// graphql-sse's distinct connections, its single-connection mode and Yoga's SSE on /graphql, with
// three different documents. Each stream must get exactly its person's events (their own and the
// APPLICATION ones, in that person's view), in cursor order, each once: the net under any
// sharing of work between streams (one render per group of alike subscribers).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { type LightStream, type Operation, openDistinct, openSingleConnection } from "../support/light-sse.ts";
import { providers, redisUrl } from "../support/providers.ts";
import { untilMarker } from "../support/marker.ts";
import { eventually } from "../support/sse.ts";
import { storeOf } from "../support/store.ts";

// Three shapes of the same subscription: field order, an operation name and a variable differ.
const documents: Operation[] = [
  { query: "subscription { notificationEvents { cursor type notification { id status title snoozedUntil } } }" },
  {
    query: "subscription Live($after: String) { notificationEvents(after: $after) { cursor type notification { id revision status title snoozedUntil } } }",
    variables: { after: null },
    operationName: "Live",
  },
  { query: "subscription { notificationEvents { type cursor notification { snoozedUntil title status id } } }" },
];

interface Received {
  cursor: string;
  type: string;
  notification: { id: string; snoozedUntil: string | null };
}

interface Subscriber {
  personId: string;
  kind: string;
  stream: LightStream;
  operationId: string;
}

const SPLIT = [1_000, 700, 300];
const ROUNDS = 6;

for (const provider of providers) {
  const transport = provider.name === "postgresql" && redisUrl ? " + Redis" : "";
  describe.skipIf(!provider.available)(`2,000 live subscribers of three persons, ${provider.name}${transport}`, () => {
    let h: TestHerald;
    const subscribers: Subscriber[] = [];
    const streams: LightStream[] = [];

    beforeAll(async () => {
      const redis = provider.name === "postgresql" && redisUrl ? { redisUrl } : {};
      // One token per person holds up to 1,000 streams here: the per-credential limits are lifted.
      h = await startHerald(provider, {
        heartbeatMs: 500,
        feedPollMs: 200,
        maxStreamsPerCredential: 5_000,
        reservationsPerCredential: 5_000,
        rateLimitPoints: 1_000_000,
        ...redis,
      });
    });
    afterAll(async () => {
      for (const stream of streams) stream.close();
      await h?.close();
    });

    it("gives each subscriber exactly its person's events, in cursor order, once", { timeout: 420_000 }, async () => {
      const persons = await Promise.all(["Ada", "Bob", "Cy"].map((name) => h.newPerson(name)));
      const [ada, bob, cy] = persons as [(typeof persons)[number], (typeof persons)[number], (typeof persons)[number]];
      // A shared record Cy snoozed: its later update must reach Cy snoozed and the others not.
      const shared = await h.publish({ scope: "APPLICATION", key: `shared:${provider.name}`, title: "Shared" });
      const until = new Date(h.clock.now().getTime() + 3_600_000).toISOString();
      const snoozed = await gql(h.url, cy.token, `mutation($id: ID!, $u: DateTime!) { snoozeNotification(id: $id, until: $u) { id } }`, {
        id: shared.id,
        u: until,
      });
      expect(snoozed.errors).toBeUndefined();

      // Who opens what: per person 40% distinct /graphql/stream, 30% /graphql, 30% single-connection
      // operations (two per connection), each with one of the three documents in turn.
      const plans: (() => Promise<void>)[] = [];
      persons.forEach((person, p) => {
        const count = SPLIT[p]!;
        const distinct = Math.round(count * 0.4);
        const yoga = Math.round(count * 0.3);
        for (let i = 0; i < distinct; i++) {
          plans.push(async () => {
            const stream = await openDistinct(h.url, person.token, "/graphql/stream", documents[i % 3]!);
            streams.push(stream);
            subscribers.push({ personId: person.id, kind: "stream", stream, operationId: "" });
          });
        }
        for (let i = 0; i < yoga; i++) {
          plans.push(async () => {
            const stream = await openDistinct(h.url, person.token, "/graphql", documents[(i + 1) % 3]!);
            streams.push(stream);
            subscribers.push({ personId: person.id, kind: "graphql", stream, operationId: "" });
          });
        }
        for (let i = 0; i < count - distinct - yoga; i += 2) {
          const ids = [`op-${i}`, `op-${i + 1}`].slice(0, Math.min(2, count - distinct - yoga - i));
          plans.push(async () => {
            const stream = await openSingleConnection(
              h.url,
              person.token,
              ids.map((id, k) => ({ id, operation: documents[(i + k + 2) % 3]! })),
            );
            streams.push(stream);
            for (const id of ids) subscribers.push({ personId: person.id, kind: "single", stream, operationId: id });
          });
        }
      });
      for (let start = 0; start < plans.length; start += 100) await Promise.all(plans.slice(start, start + 100).map((open) => open()));
      expect(subscribers.length).toBe(SPLIT[0]! + SPLIT[1]! + SPLIT[2]!);
      await eventually(() => persons.every((person, p) => h.herald.feed.listenersOf(person.id) === SPLIT[p]), 30_000, "every subscription to attach");

      const probe = storeOf(h.herald.database);
      const [newest] = await probe.pick("NotificationEvent", ["seq"], (q) => q.orderBy("seq", "desc").limit(1));
      const head = newest?.seq ?? 0;
      for (let round = 0; round < ROUNDS; round++) {
        for (const person of persons) await h.publish({ scope: "PERSON", personId: person.id, key: `own-${round}`, title: `own ${round}` });
        await h.publish({ scope: "APPLICATION", key: `app-${round}`, title: `app ${round}` });
        if (round === 2) {
          h.clock.tick();
          const updated = await gql(
            h.url,
            h.producerKey,
            `mutation($id: ID!) { updateNotification(id: $id, patch: { title: "Shared, later" }) { __typename } }`,
            {
              id: shared.id,
            },
          );
          expect(updated.data.updateNotification.__typename).toBe("Notification");
        }
      }

      // Each person's stream: their CREATED and DELIVERED events, the shared CREATED ones and the update.
      const perPerson = ROUNDS * 3 + 1;
      const logOf = (personId: string) =>
        probe.rows("NotificationEvent", (q) =>
          q
            .where("seq", ">", head)
            .where((eb) => eb.or([eb("personId", "=", personId), eb("personId", "is", null)]))
            .orderBy("seq", "asc"),
        );
      await eventually(
        async () => (await Promise.all(persons.map((p) => logOf(p.id)))).every((log) => log.length === perPerson),
        30_000,
        "every delivery mark",
      );
      const expected = new Map<string, string[]>();
      for (const person of persons)
        expected.set(
          person.id,
          (await logOf(person.id)).map((e) => `${e.seq}:${e.type}:${e.notificationId}`),
        );

      const received = (s: Subscriber) => s.stream.results(s.operationId) as { data?: { notificationEvents: Received }; errors?: unknown }[];
      // A shared marker every stream must carry next: a duplicate or a stray arrives before it.
      // A subscriber short of events (or of the marker) fails below with what it got, not here.
      const beforeMarker = await untilMarker(
        subscribers.map((s) => () => received(s)),
        () => h.publish({ scope: "APPLICATION", key: `marker:${provider.name}`, title: "marker" }),
        (r, marker) => r.data?.notificationEvents.notification.id === marker.id,
        120_000,
      ).catch(() => null);

      // Another person's cursor does not decode: it shows as "foreign" and fails the comparison.
      const seqOf = (personId: string, cursor: string) => {
        try {
          return h.herald.services.realtime.afterSeq(personId, cursor);
        } catch {
          return "foreign";
        }
      };
      const wrong: string[] = [];
      for (const [i, s] of subscribers.entries()) {
        const results = beforeMarker?.[i] ?? received(s);
        const errors = results.filter((r) => r.errors !== undefined);
        const got = results.map((r) => r.data!.notificationEvents).map((e) => `${seqOf(s.personId, e.cursor)}:${e.type}:${e.notification.id}`);
        const want = expected.get(s.personId)!;
        if (errors.length > 0 || JSON.stringify(got) !== JSON.stringify(want) || s.stream.closed || s.stream.others.length > 0) {
          wrong.push(
            `${s.kind} ${s.operationId} of ${s.personId}: got ${got.length} ${JSON.stringify(got.slice(0, 4))}…, errors ${JSON.stringify(errors).slice(0, 200)}, closed ${s.stream.closed}`,
          );
        }
        const update = results.map((r) => r.data!.notificationEvents).find((e) => e.type === "UPDATED" && e.notification.id === shared.id);
        const snoozedView = update?.notification.snoozedUntil ? Date.parse(update.notification.snoozedUntil) : null;
        if (snoozedView !== (s.personId === cy.id ? Date.parse(until) : null))
          wrong.push(`${s.kind} of ${s.personId}: shared update seen as snoozed until ${snoozedView}`);
      }
      expect(wrong.slice(0, 5)).toEqual([]);
      expect(beforeMarker, "the marker on every stream").not.toBeNull();
      // Each person's part of the log has their own delivery marks, so the three expectations differ.
      for (const person of persons) expect(expected.get(person.id)!.filter((e) => e.includes(":DELIVERED:")).length).toBe(ROUNDS);
      expect(new Set(expected.get(ada.id))).not.toEqual(new Set(expected.get(cy.id)));
      expect(new Set(subscribers.filter((s) => s.personId === bob.id).map((s) => s.kind))).toEqual(new Set(["stream", "graphql", "single"]));

      for (const stream of streams) stream.close();
      await eventually(() => h.herald.feed.listenerCount === 0, 30_000, "every listener to be released");
    });
  });
}
