// One notificationEvents stream and one preferencesEvents stream for all the views of one person
// in all the tabs of one origin. Per client and key a hub joins a TabLink (tab-link.ts): the
// leading tab holds the server stream and posts each value on the channel; every hub hands what
// it gets to all its views. Live views filter client-side (the subscription takes no filter), so
// every view of a person can be fed from the one stream.
//
// Nothing may be lost when a view joins late or the leader changes:
// - events: each hub remembers the cursor of the last event and the most recent events. A view
//   that resumes from a cursor gets the events after it from that memory, or from the leader's
//   (a "hello" answered by a "welcome"); if neither holds its cursor it is told to reload its
//   snapshot (StreamResyncError). A new leader opens its stream after the last cursor it saw.
// - preferences: a joining hub says "hello" and the leader posts the current value again.
// Without Web Locks, BroadcastChannel or SubtleCrypto every view keeps its own stream.
import type { PersonClient } from "./person-client.ts";
import { type LinkHandlers, linkName, type SharingGlobals, TabLink, type TabSupport, tabSupport } from "./tab-link.ts";
import type { Sink } from "./transport.ts";
import type { NotificationEvent, Preferences } from "./types.ts";

export type { SharingGlobals } from "./tab-link.ts";

export interface ShareOptions {
  /**
   * Whose streams these are (the person's or the credential's id). Only a hash of it goes into the
   * lock and channel names, and two persons signed in to one browser never share anything.
   */
  key: string;
}

export interface SubscribeOptions {
  /**
   * The caller reads its snapshot after subscribing (a fresh start): `after` is the head cursor
   * it took before, and events already relayed before it joined are in that snapshot.
   */
  fresh?: boolean;
}

export type EventSource = (after: string | null, sink: Sink<NotificationEvent>, options?: SubscribeOptions) => () => void;

export type PreferencesSource = (sink: Sink<Preferences>) => () => void;

/**
 * The shared stream cannot continue after the caller's cursor: it holds no record of it. Reload
 * the snapshot and subscribe afresh (the live view does this by itself).
 */
export class StreamResyncError extends Error {
  constructor() {
    super("The shared event stream does not hold this cursor; reload the snapshot");
    this.name = "StreamResyncError";
  }
}

/** Recent events each hub remembers for views that resume or join late. */
const RECENT_EVENTS = 500;
/** How long a hub waits for the leader's welcome before telling the view to reload. */
const WELCOME_TIMEOUT_MS = 3_000;

type EventsMessage =
  | { type: "event"; event: NotificationEvent }
  | { type: "hello"; from: string; request: number; after: string }
  | { type: "welcome"; to: string; request: number; events: NotificationEvent[] | null };

type PreferencesMessage = { type: "preferences"; value: Preferences } | { type: "hello" };

const hubs = new WeakMap<object, Map<string, unknown>>();

function hubFor<H>(owner: object, id: string, create: () => H): H {
  let byId = hubs.get(owner);
  if (!byId) hubs.set(owner, (byId = new Map()));
  let hub = byId.get(id) as H | undefined;
  if (!hub) byId.set(id, (hub = create()));
  return hub;
}

/** The person's events, shared by every view of `client` with this key and by other tabs; `client.events` where tabs cannot share. */
export function sharedEvents(client: Pick<PersonClient, "events">, share: ShareOptions, globals: SharingGlobals = globalThis as SharingGlobals): EventSource {
  const support = tabSupport(globals);
  const own: EventSource = (after, sink) => client.events(after, sink);
  if (!support) return own;
  const hub = hubFor(client, `events:${share.key}`, () => new EventsHub(own, linkName("events", share.key, support.subtle), support));
  return (after, sink, options) => hub.subscribe(after, sink, options?.fresh ?? false);
}

/** The person's preferences (now, then every change), shared like `sharedEvents`; `client.preferences` where tabs cannot share. */
export function sharedPreferences(
  client: Pick<PersonClient, "preferences">,
  share: ShareOptions,
  globals: SharingGlobals = globalThis as SharingGlobals,
): PreferencesSource {
  const support = tabSupport(globals);
  const own: PreferencesSource = (sink) => client.preferences(sink);
  if (!support) return own;
  const hub = hubFor(client, `preferences:${share.key}`, () => new PreferencesHub(own, linkName("preferences", share.key, support.subtle), support));
  return (sink) => hub.subscribe(sink);
}

interface EventsView {
  sink: Sink<NotificationEvent>;
  /** Waiting for its cursor to be placed: live events are held back meanwhile. */
  pending: { after: string; request: number; held: NotificationEvent[]; timer: ReturnType<typeof setTimeout> | null } | null;
}

class EventsHub {
  private readonly views = new Set<EventsView>();
  private link: TabLink<EventsMessage> | null = null;
  private upstream: (() => void) | null = null;
  /** The cursor after which this hub has seen every event (of its stream or the leader's). */
  private lastCursor: string | null = null;
  private recent: NotificationEvent[] = [];
  /** Where a stream opened by this hub starts when it has seen no event yet (a fresh view's head cursor). */
  private startAfter: string | null = null;
  private readonly id = Math.random().toString(36).slice(2);
  private requests = 0;

  constructor(
    private readonly own: EventSource,
    private readonly name: Promise<string>,
    private readonly support: TabSupport,
  ) {}

  subscribe(after: string | null, sink: Sink<NotificationEvent>, fresh: boolean): () => void {
    const view: EventsView = { sink, pending: null };
    this.views.add(view);
    if (!this.link) this.join();
    if (after === null || fresh) {
      if (this.lastCursor === null && this.startAfter === null) this.startAfter = after;
    } else {
      this.place(view, after);
    }
    return () => this.leave(view);
  }

  private join() {
    const handlers: LinkHandlers<EventsMessage> = {
      message: (message) => this.onMessage(message),
      lead: () => this.lead(),
      failed: (error) => this.fail(error),
    };
    this.link = new TabLink(this.name, this.support, handlers);
  }

  /** Replays what this hub holds after `after`, or asks the leader. */
  private place(view: EventsView, after: string) {
    const known = this.eventsAfter(after);
    if (known) {
      for (const event of known) view.sink.next(event);
      return;
    }
    // Leading, with a stream that began after this cursor or never saw it: only a reload helps.
    if (this.link?.leading) return this.resync(view);
    // Not leading (yet): the leader may hold it; if this hub leads first, its stream starts there.
    if (this.lastCursor === null && this.startAfter === null) this.startAfter = after;
    const request = ++this.requests;
    const timer = setTimeout(() => this.pendingTimedOut(view), WELCOME_TIMEOUT_MS);
    view.pending = { after, request, held: [], timer };
    this.link?.post({ type: "hello", from: this.id, request, after });
  }

  private eventsAfter(after: string): NotificationEvent[] | null {
    if (after === this.lastCursor) return [];
    const index = this.recent.findIndex((event) => event.cursor === after);
    return index < 0 ? null : this.recent.slice(index + 1);
  }

  private lead(): () => void {
    // Resume where this hub's knowledge ends: the last event it saw, else the head cursor a view started from.
    const from = this.lastCursor ?? this.startAfter;
    this.lastCursor = from;
    for (const view of this.views) {
      if (!view.pending) continue;
      const known = this.eventsAfter(view.pending.after);
      if (known) this.release(view, known);
      else this.resync(view);
    }
    if (this.views.size === 0) return () => undefined;
    this.upstream = this.own(from, {
      next: (event) => {
        this.remember(event);
        this.link?.post({ type: "event", event });
        this.deliver(event);
      },
      error: (error) => this.fail(error),
      complete: () => this.fail(new Error("The event stream ended")),
    });
    return () => {
      this.upstream?.();
      this.upstream = null;
    };
  }

  private onMessage(message: EventsMessage) {
    if (message.type === "event") {
      if (this.link?.leading) return;
      this.remember(message.event);
      this.deliver(message.event);
    } else if (message.type === "hello") {
      if (this.link?.leading) this.link.post({ type: "welcome", to: message.from, request: message.request, events: this.eventsAfter(message.after) });
    } else if (message.to === this.id) {
      const view = [...this.views].find((v) => v.pending?.request === message.request);
      if (!view) return;
      if (!message.events) return this.resync(view);
      // A hub that had seen nothing now knows where its knowledge starts.
      if (this.lastCursor === null) this.lastCursor = message.events.at(-1)?.cursor ?? view.pending!.after;
      this.release(view, message.events);
    }
  }

  /** Sends a pending view its catch-up, then what arrived live meanwhile (each event once). */
  private release(view: EventsView, catchUp: NotificationEvent[]) {
    const pending = view.pending!;
    view.pending = null;
    if (pending.timer) clearTimeout(pending.timer);
    const sent = new Set(catchUp.map((event) => event.cursor));
    for (const event of catchUp) view.sink.next(event);
    for (const event of pending.held) if (!sent.has(event.cursor)) view.sink.next(event);
  }

  private pendingTimedOut(view: EventsView) {
    if (view.pending && this.views.has(view) && !this.link?.leading) this.resync(view);
  }

  private resync(view: EventsView) {
    if (view.pending?.timer) clearTimeout(view.pending.timer);
    view.pending = null;
    this.views.delete(view);
    view.sink.error(new StreamResyncError());
    if (this.views.size === 0) this.reset();
  }

  private remember(event: NotificationEvent) {
    this.lastCursor = event.cursor;
    this.recent.push(event);
    if (this.recent.length > RECENT_EVENTS) this.recent.splice(0, this.recent.length - RECENT_EVENTS);
  }

  private deliver(event: NotificationEvent) {
    for (const view of [...this.views]) {
      if (view.pending) view.pending.held.push(event);
      else view.sink.next(event);
    }
  }

  /** The stream failed: every view hears it (and resumes with its own backoff), and the lock passes on. */
  private fail(error: Error) {
    const views = [...this.views];
    this.views.clear();
    this.reset();
    for (const view of views) {
      if (view.pending?.timer) clearTimeout(view.pending.timer);
      view.sink.error(error);
    }
  }

  private leave(view: EventsView) {
    if (!this.views.delete(view)) return;
    if (view.pending?.timer) clearTimeout(view.pending.timer);
    if (this.views.size === 0) this.reset();
  }

  /**
   * No view left: let the lock and channel go. What this hub saw is forgotten too, since events
   * relayed while it is not listening would be missing from it.
   */
  private reset() {
    const link = this.link;
    this.link = null;
    link?.close();
    this.upstream = null;
    this.lastCursor = null;
    this.startAfter = null;
    this.recent = [];
  }
}

class PreferencesHub {
  private readonly sinks = new Set<Sink<Preferences>>();
  private link: TabLink<PreferencesMessage> | null = null;
  private last: Preferences | null = null;

  constructor(
    private readonly own: PreferencesSource,
    private readonly name: Promise<string>,
    private readonly support: TabSupport,
  ) {}

  subscribe(sink: Sink<Preferences>): () => void {
    this.sinks.add(sink);
    if (this.last) sink.next(this.last);
    if (!this.link) {
      this.link = new TabLink(this.name, this.support, {
        message: (message) => this.onMessage(message),
        lead: () => this.lead(),
        failed: (error) => this.fail(error),
      });
      // A leader already streaming sends its current value again for this late joiner.
      this.link.post({ type: "hello" });
    }
    return () => {
      if (this.sinks.delete(sink) && this.sinks.size === 0) this.reset();
    };
  }

  private lead(): () => void {
    // The server sends the current state first, so the tabs get it again from the new leader.
    return this.own({
      next: (value) => {
        this.link?.post({ type: "preferences", value });
        this.deliver(value);
      },
      error: (error) => this.fail(error),
      complete: () => this.fail(new Error("The preferences stream ended")),
    });
  }

  private onMessage(message: PreferencesMessage) {
    if (this.link?.leading) {
      if (message.type === "hello" && this.last) this.link.post({ type: "preferences", value: this.last });
    } else if (message.type === "preferences") {
      this.deliver(message.value);
    }
  }

  private deliver(value: Preferences) {
    this.last = value;
    for (const sink of [...this.sinks]) sink.next(value);
  }

  private fail(error: Error) {
    const sinks = [...this.sinks];
    this.sinks.clear();
    this.reset();
    for (const sink of sinks) sink.error(error);
  }

  private reset() {
    const link = this.link;
    this.link = null;
    link?.close();
    this.last = null;
  }
}
