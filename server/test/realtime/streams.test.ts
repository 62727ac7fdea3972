// The event path's streams without a server: what closing, overflowing and revoking do to a
// stream and to the listeners it holds (the API tests cover the same through HTTP).
import { eventually } from "@herald/testkit";
import { describe, expect, it } from "vitest";
import { defaultPreferences } from "../../src/domain/preferences.ts";
import type { NotificationRecord } from "../../src/domain/notification.ts";
import { serializeSnapshot } from "../../src/domain/notification-snapshot.ts";
import { InMemoryEventBus } from "../../src/events/bus.ts";
import type { CommittedEvent } from "../../src/events/committed-event.ts";
import { EventFeed } from "../../src/realtime/event-feed.ts";
import type { EventLogReader } from "../../src/events/event-log-reader.ts";
import { invocationStream } from "../../src/realtime/invocation-stream.ts";
import { listenerStream } from "../../src/realtime/listener-stream.ts";
import { PersonStream, personEventStream, SlowConsumerError, type PersonStreamDeps, type StreamItem } from "../../src/realtime/person-stream.ts";
import { createLogger } from "../../src/logger.ts";
import { map, pipe } from "graphql-yoga";
import { StreamEnded, StreamRegistry } from "../../src/realtime/stream-registry.ts";

const PERSON = "p-1";

function eventOf(seq: number): CommittedEvent {
  const at = new Date(0).toISOString();
  const record = {
    id: `n-${seq}`,
    key: `k-${seq}`,
    scope: "PERSON",
    personId: PERSON,
    sessionId: null,
    revision: 1,
    status: "PENDING",
    severity: "INFO",
    title: "t",
    source: { plugin: "test" },
    retention: { expiresAt: null },
    createdAt: at,
    updatedAt: at,
  } as unknown as NotificationRecord;
  return { seq, personId: PERSON, type: "CREATED", notificationId: record.id, revision: 1, snapshot: serializeSnapshot(record) };
}

class MemoryLog implements EventLogReader {
  readonly events: CommittedEvent[] = [];
  async maxSeq() {
    return this.events.at(-1)?.seq ?? 0;
  }
  async readAfter(seq: number, limit: number) {
    return this.events.filter((e) => e.seq > seq).slice(0, limit);
  }
  async readForPerson(personId: string, seq: number, limit: number) {
    return this.events.filter((e) => e.seq > seq && (e.personId === null || e.personId === personId)).slice(0, limit);
  }
}

async function setUp(maxQueuedEvents = 100) {
  const bus = new InMemoryEventBus();
  const log = new MemoryLog();
  const feed = new EventFeed(bus, log, createLogger("silent"), { gapWaitMs: 5, pollMs: 60_000 });
  await feed.start();
  const delivered: string[] = [];
  const deps: PersonStreamDeps = {
    feed,
    log,
    preferences: async () => defaultPreferences,
    clock: { now: () => new Date() },
    holdCheckMs: 1_000,
    receiptsOf: async () => new Map(),
    markDelivered: (_person, notification) => delivered.push(notification.id),
    maxQueuedEvents,
  };
  const commit = (seq: number) => {
    const event = eventOf(seq);
    log.events.push(event);
    bus.publish({ kind: "event", event });
  };
  return { feed, log, bus, deps, commit, delivered, stop: () => feed.stop() };
}

/** Waits until the person has `count` feed listeners: a stream has attached (or let go). */
const listening = (feed: EventFeed, count = 1) => eventually(() => feed.listenersOf(PERSON) === count, 5_000, `${count} listener(s) of the person`);

describe("a person's event stream", () => {
  it("replays after the cursor, then goes live with no gap and no duplicate at the seam", async () => {
    const { deps, commit, log, stop } = await setUp();
    log.events.push(eventOf(1), eventOf(2), eventOf(3));
    const stream = personEventStream(deps, PERSON, 1);
    expect((await stream.next()).value?.seq).toBe(2);
    commit(4);
    expect((await stream.next()).value?.seq).toBe(3);
    expect((await stream.next()).value?.seq).toBe(4);
    await stream.return!();
    stop();
  });

  it("starts a live-only stream after everything committed before it opened, though this instance has not heard of it yet", async () => {
    // Another instance committed seq 1; its bus message is still on the way here when the client opens.
    const { feed, deps, commit, log, bus, stop } = await setUp();
    const late = eventOf(1);
    log.events.push(late);
    const stream = personEventStream(deps, PERSON, null);
    const first = stream.next();
    await listening(feed);
    bus.publish({ kind: "event", event: late });
    commit(2);
    expect((await first).value?.seq).toBe(2);
    await stream.return!();
    stop();
  });

  it("counts a live-only stream as listening only once it knows where it starts, so an event a test publishes then is its to send", async () => {
    const { feed, deps, commit, log, stop } = await setUp();
    let readHead!: () => void;
    const headRead = new Promise<void>((resolve) => (readHead = resolve));
    const stream = personEventStream(
      {
        ...deps,
        log: { ...log, maxSeq: () => headRead.then(() => log.maxSeq()), readAfter: log.readAfter.bind(log), readForPerson: log.readForPerson.bind(log) },
      },
      PERSON,
      null,
    );
    const first = stream.next();
    // Subscribed to the feed (events are buffered from here), but "now" is not yet read: not live.
    expect(feed.listenerCount).toBe(1);
    expect(feed.listenersOf(PERSON)).toBe(0);
    commit(1);
    readHead();
    await listening(feed);
    commit(2);
    expect((await first).value?.seq).toBe(2);
    await stream.return!();
    stop();
  });

  it("releases its feed listener at once when closed while it waits", async () => {
    const { feed, deps, stop } = await setUp();
    const stream = personEventStream(deps, PERSON, null);
    const waiting = stream.next();
    await listening(feed);
    await stream.return!();
    expect(feed.listenersOf(PERSON)).toBe(0);
    expect(await waiting).toEqual({ done: true, value: undefined });
    stop();
  });

  it("holds nothing when closed before it was read", async () => {
    const { feed, deps, stop } = await setUp();
    await personEventStream(deps, PERSON, 0).return!();
    expect(feed.listenersOf(PERSON)).toBe(0);
    stop();
  });

  it("ends with SlowConsumerError and lets go when more live events wait than its queue holds", async () => {
    const { feed, deps, commit, stop } = await setUp(3);
    const stream = personEventStream(deps, PERSON, null);
    const first = stream.next();
    await listening(feed);
    commit(1);
    expect((await first).value?.seq).toBe(1);
    for (let seq = 2; seq <= 5; seq++) commit(seq);
    await expect(stream.next()).rejects.toBeInstanceOf(SlowConsumerError);
    expect(feed.listenersOf(PERSON)).toBe(0);
    stop();
  });

  it("ends on throw() like an async generator: released, and the error comes back", async () => {
    const { feed, deps, commit, stop } = await setUp();
    const stream = personEventStream(deps, PERSON, null);
    const first = stream.next();
    await listening(feed);
    commit(1);
    await first;
    const error = new Error("client gone");
    await expect(stream.throw!(error)).rejects.toBe(error);
    expect(feed.listenersOf(PERSON)).toBe(0);
    stop();
  });
});

describe("a listener stream", () => {
  it("keeps the oldest waiting values and drops new ones beyond its bound", async () => {
    let push!: (value: number) => void;
    const stream = listenerStream<number>((p) => {
      push = p;
      return () => undefined;
    }, 2);
    const first = stream.next();
    push(1);
    for (const value of [2, 3, 4]) push(value);
    expect((await first).value).toBe(1);
    expect((await stream.next()).value).toBe(2);
    expect((await stream.next()).value).toBe(3);
    push(5);
    expect((await stream.next()).value).toBe(5);
    await stream.return!();
  });

  it("detaches at once when closed while a read waits", async () => {
    let attached = 0;
    const stream = listenerStream<number>(() => {
      attached++;
      return () => attached--;
    }, 2);
    const waiting = stream.next();
    expect(attached).toBe(1);
    await stream.return!();
    expect(attached).toBe(0);
    expect((await waiting).done).toBe(true);
  });
});

describe("a person's event stream with a sink attached (the transport's push path)", () => {
  /** A sink that records what reaches it; `hold` makes it keep the stream waiting on the next item. */
  function recordingSink() {
    const items: (StreamItem | StreamEnded)[] = [];
    const ends: (Error | null)[] = [];
    let release: (() => void) | null = null;
    let hold = false;
    return {
      items,
      ends,
      holdNext: () => (hold = true),
      letGo: () => release?.(),
      sink: {
        item(item: StreamItem | StreamEnded) {
          items.push(item);
          if (!hold) return;
          hold = false;
          return new Promise<void>((resolve) => (release = resolve));
        },
        end: (error: Error | null) => ends.push(error),
      },
    };
  }

  it("replays, then pushes live events in order, and an idle stream waits on nothing", async () => {
    const { feed, deps, commit, stop } = await setUp();
    commit(1);
    commit(2);
    const stream = new PersonStream(deps, PERSON, { seq: 1, hold: null });
    const recorded = recordingSink();
    stream.attach(recorded.sink);
    await listening(feed);
    commit(3);
    commit(4);
    await eventually(() => recorded.items.length >= 3, 5_000, "the live events");
    expect(recorded.items.map((item) => (item as StreamItem).seq)).toEqual([2, 3, 4]);
    stream.close();
    await eventually(() => recorded.ends.length > 0, 5_000, "the stream to end");
    expect(recorded.ends).toEqual([null]);
    expect(feed.listenersOf(PERSON)).toBe(0);
    stop();
  });

  it("ends a revoked credential's stream after the item on its way: StreamEnded last, then end, and releases its count", async () => {
    const registry = new StreamRegistry(2);
    const { feed, deps, commit, stop } = await setUp();
    const stream = new PersonStream<StreamEnded>(deps, PERSON, null);
    registry.track("c-3", stream);
    const recorded = recordingSink();
    stream.attach(recorded.sink);
    await listening(feed);
    recorded.holdNext();
    commit(1);
    await eventually(() => recorded.items.length === 1, 5_000, "event 1 at the sink");
    // The item for event 1 is still being written when the revocation comes, and event 2 is queued.
    commit(2);
    expect(registry.revoke(["c-3"])).toBe(1);
    expect(registry.count("c-3")).toBe(0);
    expect(feed.listenersOf(PERSON)).toBe(0);
    // The held write keeps everything else back; the end (which comes last) shows what followed it.
    expect(recorded.items).toHaveLength(1);
    recorded.letGo();
    await eventually(() => recorded.ends.length > 0, 5_000, "the stream to end");
    expect(recorded.items.map((item) => (item instanceof StreamEnded ? "ended" : item.seq))).toEqual([1, "ended"]);
    expect(recorded.ends).toEqual([null]);
    stop();
  });

  it("ends with the error when the client falls too far behind while a write waits", async () => {
    const { feed, deps, commit, stop } = await setUp(3);
    const stream = new PersonStream(deps, PERSON, null);
    const recorded = recordingSink();
    stream.attach(recorded.sink);
    await listening(feed);
    // Event 1 at the sink shows the stream has started and waits for live events.
    commit(1);
    await eventually(() => recorded.items.length === 1, 5_000, "event 1 at the sink");
    recorded.holdNext();
    for (let seq = 2; seq <= 7; seq++) commit(seq);
    // Event 2's write waits at the sink while the rest overflow the queue behind it.
    await eventually(() => recorded.items.length === 2, 5_000, "event 2 at the sink");
    recorded.letGo();
    await eventually(() => recorded.ends.length > 0, 5_000, "the stream to end");
    expect(recorded.items.map((item) => (item as StreamItem).seq)).toEqual([1, 2]);
    expect(recorded.ends[0]).toBeInstanceOf(SlowConsumerError);
    expect(feed.listenersOf(PERSON)).toBe(0);
    stop();
  });
});

describe("a producer's invocation stream", () => {
  it("detaches its bus listener at once when closed while it waits", async () => {
    const { feed, stop } = await setUp();
    const stream = invocationStream({ feed, store: { maxSeq: async () => 0, read: async () => [] }, maxQueued: 10, pollMs: 60_000 }, null, null);
    const waiting = stream.next();
    await eventually(() => feed.invocationListenerCount === 1, 5_000, "the invocation listener");
    await stream.return!();
    expect(feed.invocationListenerCount).toBe(0);
    expect((await waiting).done).toBe(true);
    stop();
  });
});

describe("the stream registry", () => {
  /** A bound stream waiting for its next value when its credential is revoked: StreamEnded, then done, and no longer counted. */
  async function expectEndedByRevocation(registry: StreamRegistry, credentialId: string, bound: AsyncIterableIterator<unknown>, waitsAtSource: () => boolean) {
    const waiting = bound.next();
    await eventually(waitsAtSource, 5_000, "the read to wait at its source");
    expect(registry.revoke([credentialId])).toBe(1);
    expect((await waiting).value).toBeInstanceOf(StreamEnded);
    expect((await bound.next()).done).toBe(true);
    expect(registry.count(credentialId)).toBe(0);
  }

  it("counts a stream from the moment it is bound and releases it on a return() before any read", async () => {
    const registry = new StreamRegistry(2);
    const { feed, deps, stop } = await setUp();
    const bound = registry.bind("c-1", personEventStream(deps, PERSON, null));
    expect(registry.count("c-1")).toBe(1);
    await bound.return!();
    expect(registry.count("c-1")).toBe(0);
    expect(feed.listenersOf(PERSON)).toBe(0);
    stop();
  });

  it("ends a revoked credential's waiting Repeater stream (preferences, invocations) with StreamEnded, then done", async () => {
    const registry = new StreamRegistry(2);
    let [attached, detached] = [false, false];
    const signals = listenerStream<number>(() => {
      attached = true;
      return () => (detached = true);
    }, 10);
    await expectEndedByRevocation(
      registry,
      "c-2",
      registry.bind(
        "c-2",
        pipe(
          signals,
          map(async (n: number) => n * 2),
        ),
      ),
      () => attached,
    );
    expect(detached).toBe(true);
  });

  it("ends a revoked credential's waiting stream with StreamEnded, then done, and releases its source", async () => {
    const registry = new StreamRegistry(2);
    const { feed, deps, stop } = await setUp();
    await expectEndedByRevocation(registry, "c-1", registry.bind("c-1", personEventStream(deps, PERSON, null)), () => feed.listenersOf(PERSON) === 1);
    expect(feed.listenersOf(PERSON)).toBe(0);
    stop();
  });
});
