// Across persons: an APPLICATION event reaches every person, and the persons without a receipt
// of it see the same thing but for their cursor. A document that reads nothing of its caller is
// rendered once for all of them on /graphql/stream, and each stream still gets its own person's
// cursor; a person with a receipt, a document that reads the caller (lastInvocation) and Yoga's
// /graphql keep renders of their own. Renders are counted by herald_live_renders_total.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { type LightStream, openDistinct, openSingleConnection } from "../support/light-sse.ts";
import { sample } from "../support/prometheus.ts";
import { providers } from "../support/providers.ts";
import { untilMarker } from "../support/marker.ts";
import { eventually, headCursor } from "../support/sse.ts";

const metricsToken = "renders-token-0123456789";
const personFree = "subscription { notificationEvents { cursor type notification { id title status snoozedUntil } } }";
const readsCaller = "subscription { notificationEvents { cursor type notification { id title lastInvocation { id } } } }";

interface Event {
  cursor: string;
  type: string;
  notification: { id: string; title: string; status: string; snoozedUntil: string | null };
}

for (const provider of providers) {
  describe.skipIf(!provider.available)(`renders shared across persons, ${provider.name}`, () => {
    let h: TestHerald;
    const streams: LightStream[] = [];
    beforeAll(async () => {
      h = await startHerald(provider, { metricsToken, heartbeatMs: 60_000, maxStreamsPerCredential: 100 });
    });
    afterAll(async () => {
      for (const stream of streams) stream.close();
      await h?.close();
    });

    const renders = async () => {
      const response = await fetch(h.url.replace(/\/graphql$/, "/metrics"), { headers: { authorization: `Bearer ${metricsToken}` } });
      return sample(await response.text(), "herald_live_renders_total");
    };
    const eventsOf = (stream: LightStream, operationId?: string) =>
      (stream.results(operationId) as { data: { notificationEvents: Event } }[]).map((r) => r.data.notificationEvents);
    // Renders of what came before the count starts would land in it: a shared marker every open
    // stream must carry next shows they are done. Returns what each stream got before it.
    let markers = 0;
    const settled = async (readers: (() => Event[])[]) => {
      const title = `marker ${++markers}`;
      return untilMarker(
        readers,
        () => h.publish({ scope: "APPLICATION", key: `marker-${markers}`, title }),
        (e) => e.notification.title === title,
      );
    };
    // Each stream's events after the marker that settled it.
    const afterMarker = (events: Event[]) => events.slice(events.findIndex((e) => e.notification.title.startsWith("marker ")) + 1);

    it("renders an event once for the persons whose view is the same, with each person's own cursor", async () => {
      const [ada, bob, cy] = [await h.newPerson("Ada"), await h.newPerson("Bob"), await h.newPerson("Cy")];
      const first = await h.publish({ scope: "APPLICATION", key: "across", title: "First" });
      // Cy has a receipt of it (snoozed, which outlives a new revision): Cy's view is Cy's own.
      const until = new Date(Date.now() + 3_600_000).toISOString();
      const snoozed = await gql(h.url, cy.token, `mutation($id: ID!, $until: DateTime!) { snoozeNotification(id: $id, until: $until) { __typename } }`, {
        id: first.id,
        until,
      });
      expect(snoozed.errors).toBeUndefined();

      const opened = {
        ada: [
          await openDistinct(h.url, ada.token, "/graphql/stream", { query: personFree }),
          await openDistinct(h.url, ada.token, "/graphql/stream", { query: personFree }),
        ],
        bob: [await openDistinct(h.url, bob.token, "/graphql/stream", { query: personFree })],
        bobSingle: await openSingleConnection(h.url, bob.token, [{ id: "b1", operation: { query: personFree } }]),
        cy: [await openDistinct(h.url, cy.token, "/graphql/stream", { query: personFree })],
      };
      streams.push(...opened.ada, ...opened.bob, opened.bobSingle, ...opened.cy);
      await eventually(
        () => h.herald.feed.listenersOf(ada.id) === 2 && h.herald.feed.listenersOf(bob.id) === 2 && h.herald.feed.listenersOf(cy.id) === 1,
        10_000,
        "streams to attach",
      );
      const all = [...opened.ada, ...opened.bob, ...opened.cy];
      const readers = [...all.map((s) => () => eventsOf(s)), () => eventsOf(opened.bobSingle, "b1")];
      // The streams are live-only and opened after everything so far: nothing reaches them before the marker.
      expect(await settled(readers)).toEqual(readers.map(() => []));

      const before = await renders();
      await h.publish({ scope: "APPLICATION", key: "across", title: "Second" });
      await eventually(() => readers.every((read) => afterMarker(read()).length === 1), 10_000, "the update on every stream");
      // Ada and Bob (no receipt) share one render; Cy's view is Cy's own. Per person it would be 3.
      expect((await renders()) - before).toBe(2);

      const [adaEvent, adaEvent2] = opened.ada.map((s) => afterMarker(eventsOf(s))[0]!);
      const bobEvent = afterMarker(eventsOf(opened.bob[0]!))[0]!;
      const bobSingleEvent = afterMarker(eventsOf(opened.bobSingle, "b1"))[0]!;
      const cyEvent = afterMarker(eventsOf(opened.cy[0]!))[0]!;
      for (const event of [adaEvent, adaEvent2, bobEvent, bobSingleEvent, cyEvent]) {
        expect(event).toMatchObject({ type: "UPDATED", notification: { id: first.id, title: "Second" } });
      }
      expect(adaEvent!.notification).toMatchObject({ status: "PENDING", snoozedUntil: null });
      expect(bobEvent.notification).toMatchObject({ status: "PENDING", snoozedUntil: null });
      expect(cyEvent.notification.snoozedUntil).toBe(until);
      // Each person's own cursor: the one their head cursor names now, and never the placeholder.
      expect(adaEvent!.cursor).toBe(await headCursor(h.url, ada.token));
      expect(adaEvent2!.cursor).toBe(adaEvent!.cursor);
      expect(bobEvent.cursor).toBe(await headCursor(h.url, bob.token));
      expect(bobSingleEvent.cursor).toBe(bobEvent.cursor);
      expect(cyEvent.cursor).toBe(await headCursor(h.url, cy.token));
      expect(new Set([adaEvent!.cursor, bobEvent.cursor, cyEvent.cursor]).size).toBe(3);
      for (const event of [adaEvent, bobEvent, cyEvent]) expect(event!.cursor).not.toMatch(/^herald-cursor-/);
    });

    it("keeps a render per person for a document that reads the caller, and on Yoga's /graphql", async () => {
      const [dee, eve] = [await h.newPerson("Dee"), await h.newPerson("Eve")];
      const opened = [
        await openDistinct(h.url, dee.token, "/graphql/stream", { query: readsCaller }),
        await openDistinct(h.url, eve.token, "/graphql/stream", { query: readsCaller }),
        await openDistinct(h.url, dee.token, "/graphql", { query: personFree }),
        await openDistinct(h.url, eve.token, "/graphql", { query: personFree }),
      ];
      streams.push(...opened);
      await eventually(() => h.herald.feed.listenersOf(dee.id) === 2 && h.herald.feed.listenersOf(eve.id) === 2, 10_000, "streams to attach");
      // Every stream still open, this test's and the earlier one's, since all of them render the next event.
      const beforeMarker = await settled(streams.map((s) => () => [...eventsOf(s), ...eventsOf(s, "b1")]));
      // This test's streams are live-only and new: nothing reaches them before the marker.
      expect(opened.map((s) => beforeMarker[streams.indexOf(s)])).toEqual(opened.map(() => []));
      const before = await renders();
      const published = await h.publish({ scope: "APPLICATION", key: "per-person", title: "Apart" });
      await eventually(() => opened.every((s) => eventsOf(s).some((e) => e.notification.id === published.id)), 10_000, "the event on every stream");
      // Every person receives every APPLICATION event, so the earlier test's persons (still
      // subscribed) render it too: one shared render for them, plus four here (two documents, two persons).
      expect((await renders()) - before).toBe(5);
      const cursors = opened.map((s) => eventsOf(s).find((e) => e.notification.id === published.id)!.cursor);
      expect(cursors[0]).toBe(cursors[2]);
      expect(cursors[1]).toBe(cursors[3]);
      expect(cursors[0]).toBe(await headCursor(h.url, dee.token));
      expect(cursors[1]).toBe(await headCursor(h.url, eve.token));
    });
  });
}
