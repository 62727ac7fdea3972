// Render once: a person's live subscriptions that run the same document with the same per-event
// variables share one execution per event. Counted through a look-up every execution makes
// (`lastInvocation` reads the store), so a render per subscriber would show as one per stream.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { type LightStream, openDistinct } from "../support/light-sse.ts";
import { providers } from "../support/providers.ts";
import { untilMarker } from "../support/marker.ts";
import { eventually, headCursor } from "../support/sse.ts";
import { expectRefusal, postJson } from "../security/wire.ts";

const withInvocation = "subscription { notificationEvents { cursor type notification { id lastInvocation { id } } } }";
// Another document; `after` only positions each stream, so its value does not split the group.
const withAfter = `subscription Live($after: String) {
  notificationEvents(after: $after) { type cursor notification { id title lastInvocation { id state } } }
}`;

interface Event {
  cursor: string;
  type: string;
  notification: { id: string };
}

for (const provider of providers) {
  describe.skipIf(!provider.available)(`render once, ${provider.name}`, () => {
    let h: TestHerald;
    const streams: LightStream[] = [];
    beforeAll(async () => {
      h = await startHerald(provider, { heartbeatMs: 60_000, maxStreamsPerCredential: 100 });
    });
    afterAll(async () => {
      for (const stream of streams) stream.close();
      await h?.close();
    });

    it("executes each live event once per group of alike subscriptions, not once per subscription", async () => {
      const ada = await h.newPerson("Ada");
      const head = await headCursor(h.url, ada.token);
      const opened = await Promise.all([
        ...Array.from({ length: 10 }, () => openDistinct(h.url, ada.token, "/graphql/stream", { query: withInvocation })),
        ...Array.from({ length: 10 }, (_, i) =>
          openDistinct(h.url, ada.token, i % 2 ? "/graphql" : "/graphql/stream", {
            query: withAfter,
            operationName: "Live",
            variables: { after: i < 5 ? head : null },
          }),
        ),
      ]);
      streams.push(...opened);
      await eventually(() => h.herald.feed.listenersOf(ada.id) === 20, 10_000, "20 streams to attach");
      const eventsOf = (stream: LightStream) => (stream.results() as { data: { notificationEvents: Event } }[]).map((r) => r.data.notificationEvents);
      // The streams with a cursor replay (nothing) right after attaching; an event they read from
      // the log rather than the feed would be their own object, rendered apart. A marker's last
      // event (its DELIVERED mark) on every stream shows each replay is over and the stream live.
      let markerId = "";
      const beforeMarker = await untilMarker(
        opened.map((s) => () => eventsOf(s)),
        async () => (markerId = (await h.publish({ scope: "PERSON", personId: ada.id, key: "once-marker", title: "Marker" })).id),
        (e, id) => e.type === "DELIVERED" && e.notification.id === id,
      );
      expect(beforeMarker.map((events) => events.map((e) => `${e.type}:${e.notification.id}`))).toEqual(opened.map(() => [`CREATED:${markerId}`]));
      const afterMarker = (stream: LightStream) => eventsOf(stream).slice(2);

      const invocations = h.herald.services.invocations;
      const latestOf = invocations.latestOf.bind(invocations);
      let lookups = 0;
      invocations.latestOf = (notificationIds, personId) => {
        lookups += notificationIds.length;
        return latestOf(notificationIds, personId);
      };
      try {
        const published = await h.publish({ scope: "PERSON", personId: ada.id, key: "once", title: "Once" });
        // CREATED, then the DELIVERED mark: two events, each reaching all 20 streams.
        await eventually(() => opened.every((s) => afterMarker(s).length === 2), 10_000, "both events on every stream");
        for (const stream of opened) {
          expect(afterMarker(stream).map((e) => `${e.type}:${e.notification.id}`)).toEqual([`CREATED:${published.id}`, `DELIVERED:${published.id}`]);
        }
        // One cursor per (person, event), the same on every stream.
        expect(new Set(opened.map((s) => afterMarker(s)[0]!.cursor)).size).toBe(1);
        // Two groups (the two documents) times two events; a render per subscription would be 40.
        expect(lookups).toBe(4);
      } finally {
        invocations.latestOf = latestOf;
      }
    });

    it("asks a refused subscription's source once, and answers with its code", async () => {
      const ada = await h.newPerson("Ada");
      const bob = await h.newPerson("Bob");
      const bobsCursor = await headCursor(h.url, bob.token);
      const realtime = h.herald.services.realtime;
      // The subscribe resolver's first step reads the cursor.
      const afterSeq = realtime.afterSeq.bind(realtime);
      let asked = 0;
      realtime.afterSeq = (personId, after) => {
        asked++;
        return afterSeq(personId, after);
      };
      try {
        const refused = await postJson(
          h.url.replace(/graphql$/, "graphql/stream"),
          { query: withAfter, variables: { after: bobsCursor } },
          { token: ada.token, headers: { accept: "text/event-stream" } },
        );
        expectRefusal(refused, 400, "VALIDATION_ERROR");
        expect(asked).toBe(1);
      } finally {
        realtime.afterSeq = afterSeq;
      }
    });
  });
}
