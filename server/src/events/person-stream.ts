// One person's notificationEvents subscription: replay from the event log after the client's
// cursor, then live events from the feed, with no gap and no duplicate at the seam, holding new
// notifications back while the person is in quiet mode or quiet hours, and leaving muted ones
// out (reader controls, domain/preferences.ts). Protocol: docs/event-stream.md.
import type { Clock } from "../domain/clock.ts";
import type { NotificationEventType } from "../domain/enums.ts";
import { holdsNow, type Preferences, pushVerdict } from "../domain/preferences.ts";
import { viewOf } from "../domain/lifecycle.ts";
import type { NotificationRecord, Receipt } from "../domain/notification.ts";
import { parseSnapshot } from "../domain/notification-snapshot.ts";
import type { CommittedEvent } from "./committed-event.ts";
import type { EventFeed, PersonListener } from "./event-feed.ts";
import type { EventLogReader } from "./event-log-reader.ts";
import { type HeraldObserver, noObserver } from "./observer.ts";

export interface StreamItem {
  seq: number;
  type: NotificationEventType;
  notification: NotificationRecord;
}

export interface PersonStreamDeps {
  feed: EventFeed;
  log: EventLogReader;
  preferences(personId: string): Promise<Preferences>;
  clock: Clock;
  /** While a stream holds, how often it asks the clock whether quiet hours have ended. */
  holdCheckMs: number;
  /** Every person's receipt of a shared record: its shared events are shown in each person's own state. */
  receiptsOf(notificationId: string): Promise<Map<string, Receipt>>;
  /** A PERSON/SESSION notification, still PENDING, reached a connected client: record it (once per revision). */
  markDelivered(personId: string, notification: NotificationRecord): void;
  /** Live events a slow client may have waiting before the server gives up on it. */
  maxQueuedEvents: number;
  observer?: HeraldObserver;
}

export class SlowConsumerError extends Error {
  constructor() {
    super("The client fell too far behind; reconnect with the last cursor to resume");
  }
}

const REPLAY_PAGE = 200;

// One event reaches every open stream of its audience; parse its snapshot once for all of them.
const parsed = new WeakMap<CommittedEvent, NotificationRecord>();
function notificationOf(event: CommittedEvent): NotificationRecord {
  let record = parsed.get(event);
  if (!record) {
    record = parseSnapshot(event.snapshot);
    parsed.set(event, record);
  }
  return record;
}

// Events addressed to everyone carry the shared state of an APPLICATION record; each person sees
// it through their own receipt (a snooze outlives a new revision, so a stream that showed the
// shared state alone would pop a snoozed record back up). The receipts are read once per event
// for every stream of this instance, not once per stream.
const receiptsByEvent = new WeakMap<CommittedEvent, Promise<Map<string, Receipt>>>();
function receiptsFor(deps: PersonStreamDeps, event: CommittedEvent): Promise<Map<string, Receipt>> {
  let receipts = receiptsByEvent.get(event);
  if (!receipts) {
    receipts = deps.receiptsOf(event.notificationId);
    receiptsByEvent.set(event, receipts);
    // A failed read is not remembered: the next stream (or replay) asks again.
    receipts.catch(() => receiptsByEvent.delete(event));
  }
  return receipts;
}

const itemOf = (event: CommittedEvent, notification: NotificationRecord): StreamItem => ({ seq: event.seq, type: event.type, notification });

// Every open stream of one person that sends a live event sends the same item: one object, so
// the transport renders it once for all of them (transport/graphql/shared-render.ts). Once made,
// it is handed out as is (no promise): only a shared record's first view waits for the receipts.
const itemsByEvent = new WeakMap<CommittedEvent, Map<string, StreamItem | Promise<StreamItem>>>();
function itemFor(deps: PersonStreamDeps, event: CommittedEvent, personId: string): StreamItem | Promise<StreamItem> {
  let items = itemsByEvent.get(event);
  if (!items) itemsByEvent.set(event, (items = new Map()));
  const known = items.get(personId);
  if (known) return known;
  const record = notificationOf(event);
  if (event.personId !== null || record.scope !== "APPLICATION") {
    const item = itemOf(event, record);
    items.set(personId, item);
    return item;
  }
  const made = receiptsFor(deps, event).then((receipts) => {
    const receipt = receipts.get(personId);
    const item = receipt ? itemOf(event, viewOf(record, receipt)) : withoutReceipt(event, record);
    items.set(personId, item);
    return item;
  });
  items.set(personId, made);
  // A failed read is not remembered: the next stream (or replay) asks again.
  made.catch(() => items.get(personId) === made && items.delete(personId));
  return made;
}

// Every person without a receipt of a shared record sees its shared state as it is: one item for
// all of them, so the transport may render it once across persons (shared-render.ts).
const sharedItems = new WeakMap<CommittedEvent, StreamItem>();
function withoutReceipt(event: CommittedEvent, record: NotificationRecord): StreamItem {
  let item = sharedItems.get(event);
  if (!item) sharedItems.set(event, (item = itemOf(event, viewOf(record, null))));
  return item;
}

// New content is what reader controls hold back or leave out; reading-state changes are the person's own doing.
const HELD_TYPES: readonly string[] = ["CREATED", "UPDATED"];

/** Where a person stream delivers its items, in order. */
export interface StreamSink<T> {
  /** The next item. While a promise it returns is pending, the stream sends nothing more. */
  item(item: T): void | Promise<void>;
  /** Called once, when the stream is over: with the error it failed with, or null. */
  end(error: Error | null): void;
  /**
   * A pull consumer's demand: while false, the stream takes nothing from its queue (so what the
   * consumer has not asked for waits there, counted against the queue's bound), and the
   * consumer resumes it. Without it, the stream delivers as soon as it can.
   */
  wanting?(): boolean;
}

/** How a stream tells whoever counts it (the stream registry) that it is over. */
export interface StreamRegistration {
  release(): void;
}

/**
 * A pull iterator over a new person stream (tests, and consumers without a sink of their own).
 * `after` is the last sequence number the client has (null: live only, from now on).
 */
export function personEventStream(deps: PersonStreamDeps, personId: string, after: number | null): AsyncIterableIterator<StreamItem> {
  return new PersonStream(deps, personId, after)[Symbol.asyncIterator]();
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * One person's notificationEvents subscription. It pushes: a consumer attaches a sink, and the
 * stream works through what it has (replay, live events, holds and their release) whenever
 * there is news, then returns. An idle stream holds no pending promise and no suspended frame,
 * only its fields; a delivered event costs the awaits of its own item and render, not one per
 * iterator layer. Pull consumers iterate it ([Symbol.asyncIterator], PullAdapter).
 * Hand-written, not a Repeater nor a generator: this is the fan-out's hot path, and every open
 * stream holds one (bench/history.md, "One direction in the event path" and "Lean subscribers").
 * `E` is the type of the last item a stream may be ended with (endWith: a revocation's StreamEnded).
 */
export class PersonStream<E = never> implements PersonListener, AsyncIterable<StreamItem | E> {
  registration: StreamRegistration | null = null;
  private sink: StreamSink<StreamItem | E> | null = null;
  private draining = false;
  private started = false;
  private closed = false;
  private released = false;
  private ended = false;
  private last: { value: E } | null = null;
  private readonly queue: CommittedEvent[] = [];
  private holdTimer: NodeJS.Timeout | null = null;
  private overflow = false;
  private quietChanged = false;
  private lastSent: number;
  private preferences!: Preferences;
  private holding = false;
  // Events up to here go out although held: an ERROR broke through quiet hours, and what was
  // held before it goes first, so the client's cursor never moves past an event it has not had.
  private releaseThrough = 0;
  // A replay in progress (from the client's cursor, or releasing what was held): the page being
  // sent, where in it, and whether the log may have more after it.
  private replaying = false;
  private page: CommittedEvent[] = [];
  private pageAt = 0;
  private morePages = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly deps: PersonStreamDeps,
    private readonly personId: string,
    private readonly after: number | null,
  ) {
    // Subscribe before replaying: whatever commits during the replay is buffered, not lost.
    this.unsubscribe = deps.feed.subscribe(personId, this);
    this.lastSent = after ?? deps.feed.head;
  }

  /** Starts the stream into `sink` (once). */
  attach(sink: StreamSink<StreamItem | E>): void {
    if (this.sink) throw new Error("a person stream has one consumer");
    this.sink = sink;
    this.kick();
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<StreamItem | E> {
    const pull = new PullAdapter<StreamItem | E>(this);
    this.attach(pull);
    return pull;
  }

  /** A pull consumer asks for more (see StreamSink.wanting). */
  resume(): void {
    this.kick();
  }

  /** The consumer is gone: nothing more is sent; the sink hears end(null). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.release();
    this.kick();
  }

  /** Ends the stream for its caller's sake: `value` goes out after whatever is on its way, then end(null). */
  endWith(value: E): void {
    if (this.closed) return;
    this.last = { value };
    this.close();
  }

  /** The feed's live event (PersonListener). */
  event(event: CommittedEvent): void {
    if (this.queue.length >= this.deps.maxQueuedEvents) this.overflow = true;
    else this.queue.push(event);
    this.kick();
  }

  /** The person's quiet mode changed (PersonListener). */
  quiet(): void {
    this.quietChanged = true;
    this.kick();
  }

  private kick() {
    if (this.sink === null || this.draining || this.ended) return;
    if (this.holdTimer) {
      clearTimeout(this.holdTimer);
      this.holdTimer = null;
    }
    this.draining = true;
    void this.drain(this.sink);
  }

  /** Works through what the stream has, then returns (the next news kicks it again). */
  private async drain(sink: StreamSink<StreamItem | E>): Promise<void> {
    try {
      // A stream closed before it started reads nothing.
      if (!this.started && !this.closed) {
        this.started = true;
        await this.start();
      }
      for (;;) {
        if (this.closed) {
          const last = this.last;
          this.last = null;
          if (last) {
            const wait = sink.item(last.value);
            if (wait) await wait;
          }
          this.finish(null);
          return;
        }
        if (sink.wanting && !sink.wanting()) return;
        if (this.replaying) {
          const wait = this.send(sink, await this.nextReplayed());
          if (wait) await wait;
          continue;
        }
        if (this.overflow) {
          (this.deps.observer ?? noObserver).slowConsumerClosed("queue");
          throw new SlowConsumerError();
        }
        if (this.quietChanged) {
          this.quietChanged = false;
          this.preferences = await this.deps.preferences(this.personId);
          continue;
        }
        if (this.holding && (this.releaseThrough > this.lastSent || !holdsNow(this.preferences, this.deps.clock.now()))) {
          // Release what was held, in order, straight from the log.
          this.setHolding(false);
          this.queue.length = 0;
          this.startReplay();
          continue;
        }
        const event = this.queue.shift();
        if (!event) break;
        let item = this.present(event);
        if (item instanceof Promise) item = await item;
        const wait = this.send(sink, item);
        if (wait) await wait;
      }
      // A holding stream also wakes by itself, to release when quiet hours end.
      if (this.holding) this.holdTimer = setTimeout(() => this.kick(), this.deps.holdCheckMs);
    } catch (error) {
      this.finish(error as Error);
    } finally {
      this.draining = false;
    }
  }

  private async start(): Promise<void> {
    if (this.after !== null) {
      this.preferences = await this.deps.preferences(this.personId);
      this.startReplay();
    } else {
      // "Live only" starts after everything committed before the stream opened. This instance's
      // feed may not have heard of all of it yet (a bus message from another instance still on
      // the way), so the log says where now is; a late message at or below it is skipped.
      const [read, head] = await Promise.all([this.deps.preferences(this.personId), this.deps.log.maxSeq()]);
      this.preferences = read;
      this.lastSent = Math.max(this.lastSent, head);
    }
  }

  private startReplay() {
    this.replaying = true;
    this.page = [];
    this.pageAt = 0;
    this.morePages = true;
  }

  /** The next item of the replay, or null once it is over (the log has no more, it holds, or the stream closed). */
  private async nextReplayed(): Promise<StreamItem | null> {
    for (;;) {
      if (this.closed) return this.endReplay();
      if (this.pageAt >= this.page.length) {
        if (!this.morePages) return this.endReplay();
        this.page = await this.deps.log.readForPerson(this.personId, this.lastSent, REPLAY_PAGE);
        this.pageAt = 0;
        this.morePages = this.page.length === REPLAY_PAGE;
        continue;
      }
      let item = this.present(this.page[this.pageAt++]!);
      if (item instanceof Promise) item = await item;
      // Holding: nothing after this goes out until the hold is released (which replays again).
      if (this.holding) this.endReplay();
      if (item) return item;
      if (!this.replaying) return null;
    }
  }

  private endReplay(): null {
    this.replaying = false;
    this.page = [];
    return null;
  }

  /** What the client gets for this event: an item, or null (already sent, someone else's, muted, held). */
  private present(event: CommittedEvent): StreamItem | Promise<StreamItem> | null {
    if (event.seq <= this.lastSent) return null;
    if (event.personId !== null && event.personId !== this.personId) return null;
    const notification = notificationOf(event);
    const verdict = HELD_TYPES.includes(event.type) ? pushVerdict(this.preferences, notification, this.deps.clock.now()) : "push";
    if (verdict === "mute") {
      // Never pushed, not held either (a mute lasts); while holding, the replay meets it again.
      if (!this.holding) this.lastSent = event.seq;
      return null;
    }
    if (event.seq > this.releaseThrough && (this.holding || verdict === "hold")) {
      // New content that may go out now, behind held events: release them first, in order.
      if (this.holding && verdict === "push" && HELD_TYPES.includes(event.type)) this.releaseThrough = event.seq;
      // Held: nothing after it is sent either, so the client's cursor never skips it.
      this.setHolding(true);
      return null;
    }
    this.lastSent = event.seq;
    // The person's own view (their receipt of a shared record), not the shared state the rules read.
    return itemFor(this.deps, event, this.personId);
  }

  /**
   * Hands an item to the sink, unless there is none or the stream closed while it was made (a
   * revocation: nothing more goes out). A PERSON/SESSION notification still PENDING is now delivered.
   */
  private send(sink: StreamSink<StreamItem | E>, item: StreamItem | null): void | Promise<void> {
    if (!item || this.closed) return;
    const view = item.notification;
    if (view.scope !== "APPLICATION" && view.status === "PENDING") this.deps.markDelivered(this.personId, view);
    return sink.item(item);
  }

  private setHolding(held: boolean) {
    if (held !== this.holding) (this.deps.observer ?? noObserver).holding(this.personId, held);
    this.holding = held;
  }

  /** Lets go of the feed and of the registry's count (once). */
  private release() {
    if (this.released) return;
    this.released = true;
    this.closed = true;
    this.setHolding(false);
    this.unsubscribe();
    this.queue.length = 0;
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.registration?.release();
  }

  private finish(error: Error | null) {
    if (this.ended) return;
    this.ended = true;
    this.release();
    this.sink?.end(error);
  }
}

/**
 * A person stream as a pull iterator: the stream pushes one item ahead at most, and waits for
 * next() to take it (so a client that does not read lets the feed's queue fill, as it should).
 */
class PullAdapter<T> implements AsyncIterableIterator<T>, StreamSink<T> {
  private ready: { value: T } | null = null;
  private taken: (() => void) | null = null;
  private waiter: { resolve(result: IteratorResult<T>): void; reject(error: unknown): void } | null = null;
  private over: { error: Error | null } | null = null;

  constructor(private readonly stream: { close(): void; resume(): void }) {}

  wanting(): boolean {
    return this.waiter !== null;
  }

  item(value: T): void | Promise<void> {
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = null;
      waiter.resolve({ done: false, value });
      return;
    }
    this.ready = { value };
    return new Promise<void>((resolve) => (this.taken = resolve));
  }

  end(error: Error | null): void {
    this.over = { error };
    const waiter = this.waiter;
    if (!waiter) return;
    this.waiter = null;
    this.over = { error: null };
    if (error) waiter.reject(error);
    else waiter.resolve(DONE);
  }

  next(): Promise<IteratorResult<T>> {
    const ready = this.ready;
    if (ready) {
      this.ready = null;
      const taken = this.taken;
      this.taken = null;
      taken?.();
      return Promise.resolve({ done: false, value: ready.value });
    }
    const over = this.over;
    if (over) {
      // A failure is told once; after it the iterator is done.
      this.over = { error: null };
      return over.error ? Promise.reject(over.error) : Promise.resolve(DONE);
    }
    const asked = new Promise<IteratorResult<T>>((resolve, reject) => (this.waiter = { resolve, reject }));
    this.stream.resume();
    return asked;
  }

  return(): Promise<IteratorResult<T>> {
    this.stop();
    return Promise.resolve(DONE);
  }

  throw(error: unknown): Promise<IteratorResult<T>> {
    this.stop();
    return Promise.reject(error);
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }

  private stop() {
    this.over = { error: null };
    this.ready = null;
    this.stream.close();
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.resolve(DONE);
    const taken = this.taken;
    this.taken = null;
    taken?.();
  }
}
