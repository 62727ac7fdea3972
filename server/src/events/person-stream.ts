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
async function viewFor(deps: PersonStreamDeps, event: CommittedEvent, personId: string): Promise<NotificationRecord> {
  const record = notificationOf(event);
  if (event.personId !== null || record.scope !== "APPLICATION") return record;
  let receipts = receiptsByEvent.get(event);
  if (!receipts) {
    receipts = deps.receiptsOf(event.notificationId);
    receiptsByEvent.set(event, receipts);
    // A failed read is not remembered: the next stream (or replay) asks again.
    receipts.catch(() => receiptsByEvent.delete(event));
  }
  return viewOf(record, (await receipts).get(personId) ?? null);
}
// Every open stream of one person that sends a live event sends the same item: one object, so
// the transport renders it once for all of them (transport/graphql/shared-render.ts).
const itemsByEvent = new WeakMap<CommittedEvent, Map<string, Promise<StreamItem>>>();
function itemFor(deps: PersonStreamDeps, event: CommittedEvent, personId: string): Promise<StreamItem> {
  let items = itemsByEvent.get(event);
  if (!items) itemsByEvent.set(event, (items = new Map()));
  let item = items.get(personId);
  if (!item) {
    const made = viewFor(deps, event, personId).then((notification) => ({ seq: event.seq, type: event.type, notification }));
    items.set(personId, (item = made));
    // A failed read is not remembered: the next stream (or replay) asks again.
    made.catch(() => items.get(personId) === made && items.delete(personId));
  }
  return item;
}

// New content is what reader controls hold back or leave out; reading-state changes are the person's own doing.
const HELD_TYPES: readonly string[] = ["CREATED", "UPDATED"];

/**
 * `after` is the last sequence number the client has (null: live only, from now on).
 * Closing the returned iterator (the client went away) releases its feed subscription at once,
 * even while it waits for the next event.
 */
export function personEventStream(deps: PersonStreamDeps, personId: string, after: number | null): AsyncIterableIterator<StreamItem> {
  return new PersonStream(deps, personId, after);
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * Hand-written, not a Repeater nor an async generator: this is the fan-out's hot path and every
 * open stream holds one. As a Repeater it delivered a fifth as many events in-process (its push()
 * alone a quarter of the CPU profile, docs/decisions.md, "One direction in the event path"); as a
 * generator with a wrapper it held a generator, a dozen closures and their contexts per stream
 * ("Lean subscribers"). Its state is fields, its steps are methods; one next() runs at a time
 * (the consumers of a subscription wait for each result before asking for the next).
 */
class PersonStream implements AsyncIterableIterator<StreamItem>, PersonListener {
  private readonly queue: CommittedEvent[] = [];
  private wake: (() => void) | null = null;
  private holdTimer: NodeJS.Timeout | null = null;
  private overflow = false;
  private quietChanged = false;
  private closed = false;
  private finished = false;
  private started = false;
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

  /** The feed's live event (PersonListener). */
  event(event: CommittedEvent): void {
    if (this.queue.length >= this.deps.maxQueuedEvents) this.overflow = true;
    else this.queue.push(event);
    this.signal();
  }

  /** The person's quiet mode changed (PersonListener). */
  quiet(): void {
    this.quietChanged = true;
    this.signal();
  }

  async next(): Promise<IteratorResult<StreamItem>> {
    if (this.finished) return DONE;
    try {
      if (!this.started) await this.start();
      for (;;) {
        if (this.closed) {
          this.finish();
          return DONE;
        }
        if (this.replaying) {
          const item = await this.nextReplayed();
          if (item) return { done: false, value: item };
          continue;
        }
        if (this.overflow) {
          (this.deps.observer ?? noObserver).slowConsumerClosed("queue");
          throw new SlowConsumerError();
        }
        if (this.quietChanged) {
          this.quietChanged = false;
          this.preferences = await this.deps.preferences(this.personId);
        }
        if (this.holding && (this.releaseThrough > this.lastSent || !holdsNow(this.preferences, this.deps.clock.now()))) {
          // Release what was held, in order, straight from the log.
          this.setHolding(false);
          this.queue.length = 0;
          this.startReplay();
          continue;
        }
        const event = this.queue.shift();
        if (event) {
          const item = await this.present(event);
          if (item) return { done: false, value: item };
          continue;
        }
        await this.waitForNews();
      }
    } catch (error) {
      this.finish();
      throw error;
    }
  }

  async return(): Promise<IteratorResult<StreamItem>> {
    this.closed = true;
    // A next() waiting for news wakes, finds the stream closed and answers done.
    this.signal();
    this.finish();
    return DONE;
  }

  async throw(error: unknown): Promise<IteratorResult<StreamItem>> {
    this.closed = true;
    this.signal();
    this.finish();
    throw error;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<StreamItem> {
    return this;
  }

  private async start(): Promise<void> {
    this.started = true;
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
      const item = await this.present(this.page[this.pageAt++]!);
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

  private async present(event: CommittedEvent): Promise<StreamItem | null> {
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
    const item = await itemFor(this.deps, event, this.personId);
    const view = item.notification;
    if (view.scope !== "APPLICATION" && view.status === "PENDING") this.deps.markDelivered(this.personId, view);
    return item;
  }

  private waitForNews(): Promise<void> {
    // A holding stream also wakes by itself, to release when quiet hours end.
    if (this.holding) this.holdTimer = setTimeout(() => this.signal(), this.deps.holdCheckMs);
    return new Promise<void>((resolve) => (this.wake = resolve));
  }

  private signal() {
    if (this.holdTimer) {
      clearTimeout(this.holdTimer);
      this.holdTimer = null;
    }
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private setHolding(held: boolean) {
    if (held !== this.holding) (this.deps.observer ?? noObserver).holding(this.personId, held);
    this.holding = held;
  }

  private finish() {
    if (this.finished) return;
    this.finished = true;
    this.closed = true;
    this.setHolding(false);
    this.unsubscribe();
    this.signal();
    this.queue.length = 0;
  }
}
