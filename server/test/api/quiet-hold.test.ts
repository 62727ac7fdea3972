// Quiet mode holds only what was created while quiet, on every provider: a notification the person
// already has keeps streaming (progress, resolve, their own dismissals), a new one waits until
// quiet ends, and a cursor taken while the stream held resumes with nothing skipped and nothing twice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { type ReceivedEvent, subscribe } from "../support/sse.ts";

// Delivery marks come and go with what is sent; the changes are what this is about.
const changes = (events: ReceivedEvent[]) => events.filter((e) => e.type !== "DELIVERED").map((e) => `${e.type} ${e.notification.title}`);

for (const provider of providers) {
  describe.skipIf(!provider.available)(`quiet mode holds on ${provider.name}`, () => {
    let h: TestHerald;
    beforeAll(async () => {
      h = await startHerald(provider);
    });
    afterAll(async () => h?.close());

    const quiet = (token: string, enabled: boolean) => gql(h.url, token, `mutation($e: Boolean!) { setQuietMode(enabled: $e) { quietMode } }`, { e: enabled });
    const progress = (key: string, phase: string) =>
      h.publish({ scope: "PERSON", personId: ada.id, key, title: `Build ${phase}`, operation: { id: "op-1", type: "build", phase } });
    let ada: { id: string; token: string };

    it("streams what the person has while quiet, holds what is new until quiet ends, and resumes exactly", async () => {
      ada = await h.newPerson("Ada");
      const build = await progress("build", "1/4");
      const other = await h.publish({ scope: "PERSON", personId: ada.id, key: "other", title: "Other" });
      const live = subscribe(h.url, ada.token);
      await h.attached(ada.id);
      expect((await quiet(ada.token, true)).data.setQuietMode.quietMode).toBe(true);

      const fresh = await h.publish({ scope: "PERSON", personId: ada.id, key: "fresh", title: "Created while quiet" });
      await progress("build", "2/4");
      await progress("build", "3/4");
      const resolved = await gql(h.url, h.producerKey, `mutation($id: ID!) { resolveNotification(id: $id) { __typename } }`, { id: build.id });
      expect(resolved.data.resolveNotification.__typename).toBe("Notification");
      await live.waitUntil((events) => events.some((e) => e.type === "RESOLVED"));
      expect(changes(live.events)).toEqual(["UPDATED Build 2/4", "UPDATED Build 3/4", "RESOLVED Build 3/4"]);
      const heldCursor = live.events.at(-1)!.cursor;

      // Resumed while still quiet: nothing it had again, the new one still held; a dismissal from another tab streams.
      const resumed = subscribe(h.url, ada.token, { after: heldCursor });
      await h.attached(ada.id);
      await gql(h.url, ada.token, `mutation($id: ID!) { dismissNotification(id: $id) { __typename } }`, { id: other.id });
      for (const sub of [live, resumed]) await sub.waitUntil((events) => events.some((e) => e.type === "DISMISSED"));
      expect(changes(resumed.events)).toEqual(["DISMISSED Other"]);
      expect(live.events.some((e) => e.notification.id === fresh.id)).toBe(false);
      const stillHeld = resumed.events.at(-1)!.cursor;

      // Quiet ends: each stream gets the held notification, once.
      await quiet(ada.token, false);
      for (const sub of [live, resumed]) await sub.waitUntil((events) => events.some((e) => e.notification.id === fresh.id));
      expect(changes(live.events)).toEqual(["UPDATED Build 2/4", "UPDATED Build 3/4", "RESOLVED Build 3/4", "DISMISSED Other", "CREATED Created while quiet"]);
      expect(changes(resumed.events)).toEqual(["DISMISSED Other", "CREATED Created while quiet"]);

      // Cursors taken while holding, used after quiet ended: the held one comes, nothing else twice.
      for (const cursor of [heldCursor, stillHeld]) {
        const late = subscribe(h.url, ada.token, { after: cursor });
        await late.waitUntil((events) => events.some((e) => e.notification.id === fresh.id));
        expect(changes(late.events)[0]).toBe("CREATED Created while quiet");
        expect(late.events.some((e) => e.notification.id === build.id)).toBe(false);
        late.dispose();
      }
      // After the release the cursor is a plain one again: it resumes past everything.
      const after = live.events.at(-1)!.cursor;
      const plain = subscribe(h.url, ada.token, { after });
      await h.publish({ scope: "PERSON", personId: ada.id, key: "marker", title: "Marker" });
      await plain.waitUntil((events) => events.some((e) => e.notification.title === "Marker"));
      expect(changes(plain.events)).toEqual(["CREATED Marker"]);
      // Its delivery mark is written before the server stops.
      await plain.waitUntil((events) => events.some((e) => e.type === "DELIVERED"));
      for (const sub of [live, resumed, plain]) sub.dispose();
    });

    it("keeps holding the revisions of a notification created while quiet, and releases them in order", async () => {
      const bob = await h.newPerson("Bob");
      const live = subscribe(h.url, bob.token);
      await h.attached(bob.id);
      const known = await h.publish({ scope: "PERSON", personId: bob.id, key: "known", title: "Known" });
      await live.waitUntil((events) => events.some((e) => e.notification.id === known.id));
      await quiet(bob.token, true);
      await h.publish({ scope: "PERSON", personId: bob.id, key: "new", title: "New 1" });
      await h.publish({ scope: "PERSON", personId: bob.id, key: "new", title: "New 2" });
      await h.publish({ scope: "PERSON", personId: bob.id, key: "known", title: "Known 2" });
      await live.waitUntil((events) => events.some((e) => e.notification.title === "Known 2"));
      expect(changes(live.events)).toEqual(["CREATED Known", "UPDATED Known 2"]);
      await quiet(bob.token, false);
      await live.waitUntil((events) => events.some((e) => e.notification.title === "New 2"));
      expect(changes(live.events)).toEqual(["CREATED Known", "UPDATED Known 2", "CREATED New 1", "UPDATED New 2"]);
      // The delivery mark of what was released is written before the server stops.
      await live.waitUntil((events) => events.some((e) => e.type === "DELIVERED" && e.notification.title === "New 2"));
      live.dispose();
    });
  });
}
