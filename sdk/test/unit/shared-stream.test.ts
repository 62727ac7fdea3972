// The shared streams' relay between hubs ("tabs"): each fake client below stands for a tab, with
// Node's real BroadcastChannel between them and an in-memory Web Locks queue (Node 20 has none).
// Chromium with real tabs and a real server: app/test/shared-stream.test.ts.
import { afterEach, describe, expect, it, vi } from "vitest";
import { sharedEvents, sharedPreferences, type SharingGlobals, StreamResyncError } from "../../src/shared-stream.ts";
import type { Sink } from "../../src/transport.ts";
import type { NotificationEvent } from "../../src/types.ts";
import { fakeLocks } from "./fake-locks.ts";
import { notification } from "./fixtures.ts";

/** A tab's client: records the server streams it opens and lets the test push into them. */
class FakeClient {
  readonly eventStreams: { after: string | null; sink: Sink<NotificationEvent>; open: boolean }[] = [];
  readonly preferenceStreams: { sink: Sink<{ quietMode: boolean }>; open: boolean }[] = [];

  events(after: string | null, sink: Sink<NotificationEvent>): () => void {
    const stream = { after, sink, open: true };
    this.eventStreams.push(stream);
    return () => (stream.open = false);
  }

  preferences(sink: Sink<{ quietMode: boolean }>): () => void {
    const stream = { sink, open: true };
    this.preferenceStreams.push(stream);
    return () => (stream.open = false);
  }

  openEvents() {
    return this.eventStreams.filter((s) => s.open);
  }

  openPreferences() {
    return this.preferenceStreams.filter((s) => s.open);
  }
}

/** A view's sink that keeps what it received. */
function collector<T>() {
  const values: T[] = [];
  const errors: Error[] = [];
  const sink: Sink<T> = { next: (value) => values.push(value), error: (error) => errors.push(error), complete: () => undefined };
  return { values, errors, sink };
}

let seq = 0;
const event = (): NotificationEvent =>
  ({ __typename: "NotificationEvent", cursor: `c${++seq}`, type: "CREATED", notification: notification() }) as NotificationEvent;

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

function browser() {
  const locks = fakeLocks();
  const globals: SharingGlobals = { BroadcastChannel, crypto: globalThis.crypto, navigator: { locks } };
  return Object.assign(globals, { locks });
}

describe("sharedEvents", () => {
  it("is the client's own stream where tabs cannot share (no Web Locks)", () => {
    const client = new FakeClient();
    const events = sharedEvents(client, { key: "person-1" }, { BroadcastChannel, crypto: globalThis.crypto, navigator: {} });
    const view = collector<NotificationEvent>();
    stops.push(events("c0", view.sink, { fresh: true }));
    stops.push(events("c0", collector<NotificationEvent>().sink, { fresh: true }));
    expect(client.openEvents().map((s) => s.after)).toEqual(["c0", "c0"]);
  });

  it("feeds every view of every tab from one stream, opened from the first view's cursor", async () => {
    const globals = browser();
    const [tabA, tabB] = [new FakeClient(), new FakeClient()];
    const drawerA = collector<NotificationEvent>();
    const mainA = collector<NotificationEvent>();
    const mainB = collector<NotificationEvent>();
    stops.push(sharedEvents(tabA, { key: "person-1" }, globals)("head-1", mainA.sink, { fresh: true }));
    await vi.waitFor(() => expect(tabA.openEvents()).toHaveLength(1));
    stops.push(sharedEvents(tabA, { key: "person-1" }, globals)("head-2", drawerA.sink, { fresh: true }));
    stops.push(sharedEvents(tabB, { key: "person-1" }, globals)("head-2", mainB.sink, { fresh: true }));
    // Tab B has joined once it waits in line for the lock (its channel opens just before): it can
    // open a stream only when it leads, and a second stream of tab A would have opened at once.
    await vi.waitFor(() => expect(globals.locks.queued()).toBe(1));
    expect(tabA.eventStreams.map((s) => s.after)).toEqual(["head-1"]);
    expect(tabB.eventStreams).toHaveLength(0);

    const published = event();
    tabA.openEvents()[0]!.sink.next(published);
    await vi.waitFor(() => expect(mainB.values).toEqual([published]));
    expect(mainA.values).toEqual([published]);
    expect(drawerA.values).toEqual([published]);
  });

  it("hands the stream to the next tab when the leader leaves, resuming after the last event it relayed", async () => {
    const globals = browser();
    const [tabA, tabB] = [new FakeClient(), new FakeClient()];
    const follower = collector<NotificationEvent>();
    const stopA = sharedEvents(tabA, { key: "person-1" }, globals)("head", collector<NotificationEvent>().sink, { fresh: true });
    await vi.waitFor(() => expect(tabA.openEvents()).toHaveLength(1));
    stops.push(sharedEvents(tabB, { key: "person-1" }, globals)("head", follower.sink, { fresh: true }));
    await vi.waitFor(() => expect(globals.locks.queued()).toBe(1)); // tab B listens on the channel
    const relayed = event();
    tabA.openEvents()[0]!.sink.next(relayed);
    await vi.waitFor(() => expect(follower.values).toEqual([relayed]));

    stopA();
    expect(tabA.openEvents()).toHaveLength(0);
    await vi.waitFor(() => expect(tabB.openEvents().map((s) => s.after)).toEqual([relayed.cursor]));
    const next = event();
    tabB.openEvents()[0]!.sink.next(next);
    expect(follower.values).toEqual([relayed, next]);
  });

  it("replays to a view resuming in another tab what the leader relayed after its cursor (hello, welcome)", async () => {
    const globals = browser();
    const [tabA, tabB] = [new FakeClient(), new FakeClient()];
    stops.push(sharedEvents(tabA, { key: "person-1" }, globals)("head", collector<NotificationEvent>().sink, { fresh: true }));
    await vi.waitFor(() => expect(tabA.openEvents()).toHaveLength(1));
    const [first, second, third] = [event(), event(), event()];
    for (const e of [first, second, third]) tabA.openEvents()[0]!.sink.next(e);

    // Tab B's view had seen `first` before it paused; it comes back with that cursor.
    const resumed = collector<NotificationEvent>();
    stops.push(sharedEvents(tabB, { key: "person-1" }, globals)(first.cursor, resumed.sink));
    await vi.waitFor(() => expect(resumed.values).toEqual([second, third]));
    expect(tabB.eventStreams).toHaveLength(0);
    expect(resumed.errors).toEqual([]);
  });

  it("tells a view to reload its snapshot when no tab holds its cursor", async () => {
    const globals = browser();
    const [tabA, tabB] = [new FakeClient(), new FakeClient()];
    stops.push(sharedEvents(tabA, { key: "person-1" }, globals)("head", collector<NotificationEvent>().sink, { fresh: true }));
    await vi.waitFor(() => expect(tabA.openEvents()).toHaveLength(1));
    const stale = collector<NotificationEvent>();
    stops.push(sharedEvents(tabB, { key: "person-1" }, globals)("cursor-from-long-ago", stale.sink));
    await vi.waitFor(() => expect(stale.errors).toHaveLength(1));
    expect(stale.errors[0]).toBeInstanceOf(StreamResyncError);
    expect(tabB.eventStreams).toHaveLength(0);
  });

  it("never mixes two keys: each person gets a stream of their own and only their events", async () => {
    const globals = browser();
    const [tabA, tabB] = [new FakeClient(), new FakeClient()];
    const ada = collector<NotificationEvent>();
    const bob = collector<NotificationEvent>();
    stops.push(sharedEvents(tabA, { key: "ada" }, globals)("head", ada.sink, { fresh: true }));
    stops.push(sharedEvents(tabB, { key: "bob" }, globals)("head", bob.sink, { fresh: true }));
    await vi.waitFor(() => expect([tabA.openEvents().length, tabB.openEvents().length]).toEqual([1, 1]));
    const forAda = event();
    const forBob = event();
    tabA.openEvents()[0]!.sink.next(forAda);
    tabB.openEvents()[0]!.sink.next(forBob);
    // Complete at once, no wait: a leader's views get its own stream's events synchronously and
    // ignore the channel's. Two keys could meet only on one channel name, and a name is also the
    // lock: both tabs leading (waited for above) shows the names differ.
    expect(ada.values).toEqual([forAda]);
    expect(bob.values).toEqual([forBob]);
  });

  it("passes a failure of the leader's stream to its views and lets the lock go", async () => {
    const globals = browser();
    const [tabA, tabB] = [new FakeClient(), new FakeClient()];
    const view = collector<NotificationEvent>();
    sharedEvents(tabA, { key: "person-1" }, globals)("head", view.sink, { fresh: true });
    await vi.waitFor(() => expect(tabA.openEvents()).toHaveLength(1));
    stops.push(sharedEvents(tabB, { key: "person-1" }, globals)("head", collector<NotificationEvent>().sink, { fresh: true }));
    tabA.openEvents()[0]!.sink.error(new Error("dropped"));
    expect(view.errors.map((e) => e.message)).toEqual(["dropped"]);
    await vi.waitFor(() => expect(tabB.openEvents()).toHaveLength(1));
  });
});

describe("sharedPreferences", () => {
  it("gives a tab that joins late the current preferences without a stream of its own", async () => {
    const globals = browser();
    const [tabA, tabB] = [new FakeClient(), new FakeClient()];
    const first = collector<{ quietMode: boolean }>();
    stops.push(sharedPreferences(tabA, { key: "person-1" }, globals)(first.sink));
    await vi.waitFor(() => expect(tabA.openPreferences()).toHaveLength(1));
    tabA.openPreferences()[0]!.sink.next({ quietMode: true });
    expect(first.values).toEqual([{ quietMode: true }]);

    const late = collector<{ quietMode: boolean }>();
    stops.push(sharedPreferences(tabB, { key: "person-1" }, globals)(late.sink));
    await vi.waitFor(() => expect(late.values).toEqual([{ quietMode: true }]));
    expect(tabB.preferenceStreams).toHaveLength(0);

    // A second view in the late tab has the value at once, from its own tab's hub.
    const sameTab = collector<{ quietMode: boolean }>();
    stops.push(sharedPreferences(tabB, { key: "person-1" }, globals)(sameTab.sink));
    expect(sameTab.values).toEqual([{ quietMode: true }]);

    tabA.openPreferences()[0]!.sink.next({ quietMode: false });
    await vi.waitFor(() => expect(late.values.at(-1)).toEqual({ quietMode: false }));
  });

  it("never mixes two keys", async () => {
    const globals = browser();
    const [tabA, tabB] = [new FakeClient(), new FakeClient()];
    const ada = collector<{ quietMode: boolean }>();
    const bob = collector<{ quietMode: boolean }>();
    stops.push(sharedPreferences(tabA, { key: "ada" }, globals)(ada.sink));
    await vi.waitFor(() => expect(tabA.openPreferences()).toHaveLength(1));
    tabA.openPreferences()[0]!.sink.next({ quietMode: true });
    stops.push(sharedPreferences(tabB, { key: "bob" }, globals)(bob.sink));
    await vi.waitFor(() => expect(tabB.openPreferences()).toHaveLength(1));
    // As for events: both lead, so their names (channel and lock alike) differ, and a leader
    // takes values only from its own stream, synchronously. Nothing can arrive later.
    expect(bob.values).toEqual([]);
    tabB.openPreferences()[0]!.sink.next({ quietMode: false });
    expect(bob.values).toEqual([{ quietMode: false }]);
    expect(ada.values).toEqual([{ quietMode: true }]);
  });

  it("is the client's own stream where tabs cannot share", () => {
    const client = new FakeClient();
    stops.push(sharedPreferences(client, { key: "person-1" }, {})(collector<{ quietMode: boolean }>().sink));
    expect(client.openPreferences()).toHaveLength(1);
  });
});
