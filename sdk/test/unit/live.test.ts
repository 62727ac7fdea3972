// The live view's merge logic against a fake source (no server): snapshot plus events with no
// gap or duplicate at the seam, the supersede rule, leaving and entering the filter, resume from
// the last cursor after a drop, a fresh snapshot when the cursor is refused, and partial views.
import { describe, expect, it, vi } from "vitest";
import {
  type Counts,
  DismissalCache,
  HeraldNetworkError,
  HeraldValidationError,
  type LiveSource,
  LiveView,
  matchesFilter,
  newestFirst,
  type Notification,
  type NotificationEvent,
  type NotificationFilter,
  type Page,
  type Sink,
} from "../../src/index.ts";
import { eventually } from "../support/server.ts";
import { notification } from "./fixtures.ts";

/**
 * Plays the server: holds the records, answers pages and counts from them, and lets the test
 * push events into (or break) the one open stream. `hold` pauses page answers to open a seam.
 */
class FakeSource implements LiveSource {
  readonly dismissals = new DismissalCache(async (n) => ({ ok: true, notification: { ...this.records.get(n.id)!, status: "DISMISSED" } }));
  readonly records = new Map<string, Notification>();
  readonly streams: { after: string | null; sink: Sink<NotificationEvent>; open: boolean }[] = [];
  pages = 0;
  head = 0;
  private held: (() => void)[] | null = null;

  /** While down, every attempt to start fails as an unreachable server does. */
  down = false;

  async eventsCursor(): Promise<string> {
    if (this.down) throw new HeraldNetworkError("connection refused");
    return `c${this.head}`;
  }

  events(after: string | null, sink: Sink<NotificationEvent>): () => void {
    const stream = { after, sink, open: true };
    this.streams.push(stream);
    return () => void (stream.open = false);
  }

  async page(options: { first?: number; after?: string | null; filter?: NotificationFilter }): Promise<Page> {
    this.pages++;
    if (this.held) await new Promise<void>((resolve) => this.held!.push(resolve));
    const all = this.matching(options.filter ?? {});
    const start = options.after ? Number(options.after) : 0;
    const first = options.first ?? 20;
    const items = all.slice(start, start + first);
    const more = start + first < all.length;
    return { items, totalCount: all.length, nextCursor: more ? String(start + first) : null, hasNextPage: more };
  }

  async counts(filter?: NotificationFilter): Promise<Counts> {
    const all = this.matching(filter ?? {});
    return {
      total: all.length,
      unseen: all.filter((n) => n.status === "PENDING" || n.status === "DELIVERED").length,
      unread: all.filter((n) => n.readAt === null).length,
    };
  }

  /** A change committed on the "server": stored, and sent to the open stream. */
  commit(n: Notification, type: NotificationEvent["type"] = "UPDATED"): NotificationEvent {
    this.records.set(n.id, n);
    const event = { cursor: `c${++this.head}`, type, notification: n };
    this.stream?.sink.next(event);
    return event;
  }

  get stream() {
    return this.streams.filter((s) => s.open).at(-1);
  }

  hold(): void {
    this.held = [];
  }

  release(): void {
    const waiting = this.held ?? [];
    this.held = null;
    for (const resolve of waiting) resolve();
  }

  private matching(filter: NotificationFilter): Notification[] {
    return [...this.records.values()].filter((n) => matchesFilter(n, filter, new Date())).sort(newestFirst);
  }
}

const FAST = { backoff: { initialMs: 1, maxMs: 2 } };
const ids = (view: LiveView) => view.current.items.map((n) => `${n.id}@${n.revision}`);

function open(source: FakeSource, filter: NotificationFilter = {}, options = {}) {
  const view = new LiveView(source, filter, { ...FAST, ...options });
  const states: string[] = [];
  view.subscribe((s) => states.push(s.connection));
  return { view, states };
}

describe("LiveView against a fake source", () => {
  it("applies events that arrive while the snapshot loads after it, once each, in order", async () => {
    const source = new FakeSource();
    const a = notification({ id: "a", createdAt: "2026-01-01T10:00:00.000Z" });
    source.records.set("a", a);
    source.hold();
    const { view } = open(source);
    await eventually(() => source.streams.length === 1 && source.pages === 1);
    // The stream starts at the head taken before the snapshot.
    expect(source.streams[0]!.after).toBe("c0");
    // Committed after the cursor was taken but before the snapshot was read: the snapshot has
    // the new revision and the buffered event repeats it; neither may be lost or doubled.
    source.commit({ ...a, revision: 2, title: "a2", updatedAt: "2026-01-01T10:01:00.000Z" });
    const b = notification({ id: "b", createdAt: "2026-01-01T11:00:00.000Z" });
    source.commit(b, "CREATED");
    source.release();
    await eventually(() => view.current.connection === "live");
    expect(ids(view)).toEqual(["b@1", "a@2"]);
    expect(view.current.counts).toEqual({ total: 2, unseen: 2, unread: 2 });
    expect(view.lastCursor).toBe("c2");
    view.close();
  });

  it("ignores an older revision arriving late, and drops a record that leaves the filter", async () => {
    const source = new FakeSource();
    const a = notification({ id: "a", revision: 3, updatedAt: "2026-01-01T10:03:00.000Z" });
    source.records.set("a", a);
    const { view } = open(source);
    await eventually(() => view.current.connection === "live");
    source.stream!.sink.next({ cursor: "c9", type: "UPDATED", notification: { ...a, revision: 2, title: "stale" } });
    expect(view.current.items[0]).toMatchObject({ revision: 3, title: a.title });
    source.commit({ ...a, revision: 4, status: "DISMISSED", updatedAt: "2026-01-01T10:04:00.000Z" }, "DISMISSED");
    expect(ids(view)).toEqual([]);
    expect(view.current.counts).toEqual({ total: 0, unseen: 0, unread: 0 });
    view.close();
  });

  it("keeps a filtered view to its filter: a record enters when an event makes it match", async () => {
    const source = new FakeSource();
    const { view } = open(source, { statuses: ["SEEN"] });
    await eventually(() => view.current.connection === "live");
    const n = notification({ id: "n" });
    source.commit(n, "CREATED");
    expect(ids(view)).toEqual([]);
    source.commit({ ...n, status: "SEEN", updatedAt: "2026-01-01T10:00:01.000Z" }, "SEEN");
    expect(ids(view)).toEqual(["n@1"]);
    view.close();
  });

  it("resumes from its last cursor after a drop, without reading the snapshot again", async () => {
    const source = new FakeSource();
    const { view, states } = open(source);
    await eventually(() => view.current.connection === "live");
    source.commit(notification({ id: "x" }), "CREATED");
    const pagesBefore = source.pages;
    source.stream!.sink.error(new HeraldNetworkError("connection reset"));
    expect(view.current.connection).toBe("reconnecting");
    await eventually(() => view.current.connection === "live");
    expect(source.streams.at(-1)!.after).toBe("c1");
    expect(source.pages).toBe(pagesBefore);
    expect(states).toContain("reconnecting");
    expect(ids(view)).toEqual(["x@1"]);
    view.close();
  });

  it("reads a fresh snapshot when the server refuses its cursor", async () => {
    const source = new FakeSource();
    const { view } = open(source);
    await eventually(() => view.current.connection === "live");
    const pagesBefore = source.pages;
    source.records.set("y", notification({ id: "y" })); // changed while the stream was unusable
    source.head = 7;
    source.stream!.sink.error(new HeraldValidationError("after", "after: not a cursor of this person"));
    await eventually(() => view.current.connection === "live" && source.pages > pagesBefore);
    expect(source.streams.at(-1)!.after).toBe("c7");
    expect(ids(view)).toEqual(["y@1"]);
    view.close();
  });

  it("says offline after repeated failed attempts, keeps trying, and is live once the source answers", async () => {
    const source = new FakeSource();
    source.down = true;
    const { view, states } = open(source, {}, { offlineAfter: 2 });
    await eventually(() => view.current.connection === "offline");
    expect(states.slice(0, 3)).toEqual(["connecting", "reconnecting", "reconnecting"]);
    expect(view.current.error).toBeInstanceOf(HeraldNetworkError);
    source.down = false;
    await eventually(() => view.current.connection === "live");
    expect(view.current.error).toBeNull();
    view.close();
  });

  it("keeps maxItems records and takes the counts from the server when not everything fits", async () => {
    const source = new FakeSource();
    for (let i = 0; i < 5; i++) source.records.set(`r${i}`, notification({ id: `r${i}`, createdAt: `2026-01-01T10:0${i}:00.000Z` }));
    const { view } = open(source, {}, { maxItems: 3 });
    await eventually(() => view.current.connection === "live");
    expect(ids(view)).toEqual(["r4@1", "r3@1", "r2@1"]);
    expect(view.current.counts).toEqual({ total: 5, unseen: 5, unread: 5 });
    view.close();
  });

  it("hides a revision dismissed through the client at once", async () => {
    const source = new FakeSource();
    const n = notification({ id: "d" });
    source.records.set("d", n);
    const { view } = open(source);
    await eventually(() => view.current.connection === "live");
    const dismissing = source.dismissals.dismiss(n);
    expect(ids(view)).toEqual([]);
    await dismissing;
    view.close();
  });

  it("stops listening and opens nothing more after close", async () => {
    const source = new FakeSource();
    const { view } = open(source);
    await eventually(() => view.current.connection === "live");
    vi.useFakeTimers();
    try {
      view.close();
      const stream = source.streams.at(-1)!;
      expect(stream.open).toBe(false);
      stream.sink.error(new HeraldNetworkError("late"));
      // A reconnect would wait on a timer (the backoff): run every timer there is, and what they start.
      await vi.runAllTimersAsync();
      expect(source.streams).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
