// One person's notificationEvents subscription: replay from the event log after the client's
// cursor, then live events from the feed, with no gap and no duplicate at the seam, holding back
// notifications created while the person is in quiet mode or quiet hours (quiet-hold.ts), and
// leaving muted ones out (reader controls, domain/preferences.ts). Protocol: docs/event-stream.md.
import type { Clock } from "../domain/clock.ts";
import { holdsNow, type Preferences, pushVerdict } from "../domain/preferences.ts";
import type { NotificationRecord, Receipt } from "../domain/notification.ts";
import type { CommittedEvent } from "../events/committed-event.ts";
import type { EventFeed, PersonListener } from "./event-feed.ts";
import type { EventLogReader } from "../events/event-log-reader.ts";
import { type HeraldObserver, noObserver } from "../events/observer.ts";
import { PullAdapter } from "./pull-adapter.ts";
import { QuietHold, type StreamPosition } from "./quiet-hold.ts";
import { CONTENT_TYPES, itemFor, notificationOf, positioned, type StreamItem } from "./stream-items.ts";

export type { StreamItem } from "./stream-items.ts";

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
 * `after` is where the client stands: the last sequence number it has, or its cursor's position
 * (null: live only, from now on).
 */
export function personEventStream(deps: PersonStreamDeps, personId: string, after: number | StreamPosition | null): AsyncIterableIterator<StreamItem> {
  const position = typeof after === "number" ? { seq: after, hold: null } : after;
  return new PersonStream(deps, personId, position)[Symbol.asyncIterator]();
}

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
  /** Set once the stream knows where it starts (PersonListener). */
  live = false;
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
  // Every event up to here has been sent, left out, or is held.
  private lastSent: number;
  private preferences!: Preferences;
  // Notifications created while quiet, held back; `releasing` once quiet has ended (or an ERROR
  // broke through quiet hours): the held events then go out in order, read again from the log.
  private hold: QuietHold | null = null;
  private releasing = false;
  // A replay in progress (from the client's cursor, or releasing what was held): where it reads
  // in the log, the page being sent, where in it, and whether the log may have more after it.
  private replaying = false;
  private readAt = 0;
  private page: CommittedEvent[] = [];
  private pageAt = 0;
  private morePages = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly deps: PersonStreamDeps,
    private readonly personId: string,
    private readonly after: StreamPosition | null,
  ) {
    // Subscribe before replaying: whatever commits during the replay is buffered, not lost.
    this.unsubscribe = deps.feed.subscribe(personId, this);
    this.lastSent = after?.seq ?? deps.feed.head;
    if (after?.hold) this.setHold(new QuietHold(after.hold.from, after.hold.through));
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
        this.live = true;
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
        if (this.hold && !holdsNow(this.preferences, this.deps.clock.now())) {
          this.startRelease();
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
      if (this.hold) this.holdTimer = setTimeout(() => this.kick(), this.deps.holdCheckMs);
    } catch (error) {
      this.finish(error as Error);
    } finally {
      this.draining = false;
    }
  }

  private async start(): Promise<void> {
    if (this.after !== null) {
      this.preferences = await this.deps.preferences(this.personId);
      // A held client reads again from where its hold began, to learn which notifications it holds.
      this.startReplay(this.hold?.from ?? this.lastSent);
      if (this.hold && !holdsNow(this.preferences, this.deps.clock.now())) this.releasing = true;
    } else {
      // "Live only" starts after everything committed before the stream opened. This instance's
      // feed may not have heard of all of it yet (a bus message from another instance still on
      // the way), so the log says where now is; a late message at or below it is skipped.
      const [read, head] = await Promise.all([this.deps.preferences(this.personId), this.deps.log.maxSeq()]);
      this.preferences = read;
      this.lastSent = Math.max(this.lastSent, head);
    }
  }

  private startReplay(from: number) {
    this.replaying = true;
    this.readAt = from;
    this.page = [];
    this.pageAt = 0;
    this.morePages = true;
  }

  /** Sends what was held, in order, straight from the log (what came since is in there too). */
  private startRelease() {
    this.releasing = true;
    this.queue.length = 0;
    this.startReplay(this.hold!.through);
  }

  /** Everything held has gone out: the client's cursor is a plain position again. */
  private endRelease() {
    this.releasing = false;
    this.setHold(null);
  }

  /** The next item of the replay, or null once it is over (the log has no more, it holds, or the stream closed). */
  private async nextReplayed(): Promise<StreamItem | null> {
    for (;;) {
      if (this.closed) return this.endReplay();
      if (this.pageAt >= this.page.length) {
        if (!this.morePages) return this.endReplay();
        this.page = await this.deps.log.readForPerson(this.personId, this.readAt, REPLAY_PAGE);
        this.pageAt = 0;
        this.morePages = this.page.length === REPLAY_PAGE;
        continue;
      }
      const event = this.page[this.pageAt++]!;
      this.readAt = event.seq;
      let item = this.present(event);
      if (item instanceof Promise) item = await item;
      if (item) return item;
    }
  }

  private endReplay(): null {
    this.replaying = false;
    this.page = [];
    // Caught up with the log: whatever was being released has gone out.
    if (this.releasing && !this.closed) this.endRelease();
    return null;
  }

  /** What the client gets for this event: an item, or null (already sent, someone else's, muted, held). */
  private present(event: CommittedEvent): StreamItem | Promise<StreamItem> | null {
    if (event.personId !== null && event.personId !== this.personId) return null;
    const hold = this.hold;
    if (event.seq <= this.lastSent) {
      // Only a hold reads below what was sent: to learn what it holds, and to release it.
      if (!hold || event.seq <= hold.from) return null;
      const held = hold.holds(event.type, event.notificationId);
      if (event.seq <= hold.through || !held || !this.releasing) return null;
      hold.through = event.seq;
      if (this.verdict(event) === "mute") return null;
      return positioned(itemFor(this.deps, event, this.personId), hold.position(this.lastSent));
    }
    // Past what was sent, a release is over (a replay reads in order).
    if (this.releasing) this.endRelease();
    const verdict = this.verdict(event);
    const before = this.lastSent;
    this.lastSent = event.seq;
    if (this.hold?.holds(event.type, event.notificationId)) {
      // An ERROR through quiet hours: what was held before it goes out first, in order, then it.
      if (verdict === "push") this.startRelease();
      return null;
    }
    if (verdict === "mute") return null;
    if (verdict === "hold" && event.type === "CREATED") {
      this.setHold(new QuietHold(before, before));
      this.hold!.holds(event.type, event.notificationId);
      return null;
    }
    // About a notification the person already has: it streams, quiet or not.
    const item = itemFor(this.deps, event, this.personId);
    return this.hold ? positioned(item, this.hold.position(event.seq)) : item;
  }

  /** What the reader controls say of an event: only new content is judged; reading-state changes always go out. */
  private verdict(event: CommittedEvent): "push" | "mute" | "hold" {
    return CONTENT_TYPES.includes(event.type) ? pushVerdict(this.preferences, notificationOf(event), this.deps.clock.now()) : "push";
  }

  /**
   * Hands an item to the sink, unless there is none or the stream closed while it was made (a
   * revocation: nothing more goes out). A notification still PENDING in this person's view is now
   * delivered to them (a shared one on their receipt).
   */
  private send(sink: StreamSink<StreamItem | E>, item: StreamItem | null): void | Promise<void> {
    if (!item || this.closed) return;
    const view = item.notification;
    if (view.status === "PENDING") this.deps.markDelivered(this.personId, view);
    return sink.item(item);
  }

  private setHold(hold: QuietHold | null) {
    if ((hold === null) !== (this.hold === null)) (this.deps.observer ?? noObserver).holding(this.personId, hold !== null);
    this.hold = hold;
  }

  /** Lets go of the feed and of the registry's count (once). */
  private release() {
    if (this.released) return;
    this.released = true;
    this.closed = true;
    this.setHold(null);
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
