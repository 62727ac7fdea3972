// @herald/sdk/svelte against a real server: the live store follows publishes, the counts store
// speaks only when a number changes, and the stream lives exactly as long as the subscriptions.
import { get } from "svelte/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Counts, LiveState } from "../src/index.ts";
import { liveStore } from "../src/svelte.ts";
import { eventually, startClients, type TestClients } from "./support/server.ts";

describe("Svelte stores", () => {
  let t: TestClients;

  beforeAll(async () => {
    t = await startClients();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("keeps the live and counts stores current and holds the stream only while subscribed", async () => {
    const store = liveStore(t.ada, { statuses: ["PENDING", "DELIVERED", "SEEN"] }, { environment: null });
    const states: LiveState[] = [];
    const counts: Counts[] = [];
    const stopState = store.subscribe((s) => states.push(s));
    const stopCounts = store.counts.subscribe((c) => counts.push(c));
    await eventually(() => states.at(-1)?.connection === "live", 20_000);
    expect(store.view.active).toBe(true);

    const published = await t.producer.publish({
      scope: "PERSON",
      personId: t.server.person.id,
      key: "svelte:1",
      title: "From Svelte",
      source: { plugin: "sdk-test" },
    });
    if (!published.ok) throw new Error(published.message);
    await eventually(() => get(store.items).some((n) => n.id === published.notification.id), 20_000);
    expect(get(store.counts)).toEqual({ total: 1, unseen: 1, unread: 1 });

    // An event that changes no number is not a counts update; marking seen is.
    const before = counts.length;
    await t.producer.update(published.notification.id, { body: "new body, same counts" });
    await eventually(() => get(store.items)[0]?.body === "new body, same counts", 20_000);
    expect(counts.length).toBe(before);
    await t.ada.markSeen([published.notification.id]);
    await eventually(() => get(store.counts).unseen === 0, 20_000);
    expect(counts.slice(before)).toEqual([{ total: 1, unseen: 0, unread: 1 }]);

    stopCounts();
    expect(store.view.active).toBe(true); // the live store is still subscribed
    stopState();
    expect(store.view.active).toBe(false);

    // A later subscriber resumes and sees what was published meanwhile.
    await t.producer.publish({
      scope: "PERSON",
      personId: t.server.person.id,
      key: "svelte:2",
      title: "While nobody listened",
      source: { plugin: "sdk-test" },
    });
    const stop = store.subscribe(() => undefined);
    await eventually(() => get(store.items).some((n) => n.key === "svelte:2"), 20_000);
    expect(get(store).counts).toEqual({ total: 2, unseen: 1, unread: 2 });
    stop();
    store.close();
  });
});
