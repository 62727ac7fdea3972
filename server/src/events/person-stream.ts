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
import type { EventFeed } from "./event-feed.ts";
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
 * Hand-written, not a Repeater: this is the fan-out's hot path, and as a Repeater it delivered
 * a fifth as many events in-process, its push() alone a quarter of the CPU profile (docs/decisions.md,
 * "One direction in the event path"). The generator yields cheaply; this wrapper only lets a
 * close reach it while it waits.
 */
export function personEventStream(deps: PersonStreamDeps, personId: string, after: number | null): AsyncIterableIterator<StreamItem> {
  let close!: () => void;
  const closed = new Promise<void>((resolve) => (close = resolve));
  const generator = personEvents(deps, personId, after, closed);
  const iterator: AsyncIterableIterator<StreamItem> = {
    next: () => generator.next(),
    async return() {
      close();
      return generator.return(undefined);
    },
    async throw(error) {
      close();
      return generator.throw(error);
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

async function* personEvents(deps: PersonStreamDeps, personId: string, after: number | null, closed: Promise<void>): AsyncGenerator<StreamItem> {
  let isClosed = false;
  void closed.then(() => {
    isClosed = true;
    signal();
  });
  const queue: CommittedEvent[] = [];
  let wake: (() => void) | null = null;
  let overflow = false;
  let quietChanged = false;
  function signal() {
    const w = wake;
    wake = null;
    w?.();
  }
  // Subscribe before replaying: whatever commits during the replay is buffered, not lost.
  const unsubscribe = deps.feed.subscribe(personId, {
    event(event) {
      if (queue.length >= deps.maxQueuedEvents) overflow = true;
      else queue.push(event);
      signal();
    },
    quiet() {
      quietChanged = true;
      signal();
    },
  });
  let lastSent = after ?? deps.feed.head;
  let preferences: Preferences;
  let holding = false;
  // Events up to here go out although held: an ERROR broke through quiet hours, and what was
  // held before it goes first, so the client's cursor never moves past an event it has not had.
  let releaseThrough = 0;
  const observer = deps.observer ?? noObserver;
  const setHolding = (held: boolean) => {
    if (held !== holding) observer.holding(personId, held);
    holding = held;
  };

  const present = async (event: CommittedEvent): Promise<StreamItem | null> => {
    if (event.seq <= lastSent) return null;
    if (event.personId !== null && event.personId !== personId) return null;
    const notification = notificationOf(event);
    const verdict = HELD_TYPES.includes(event.type) ? pushVerdict(preferences, notification, deps.clock.now()) : "push";
    if (verdict === "mute") {
      // Never pushed, not held either (a mute lasts); while holding, the replay meets it again.
      if (!holding) lastSent = event.seq;
      return null;
    }
    if (event.seq > releaseThrough && (holding || verdict === "hold")) {
      // New content that may go out now, behind held events: release them first, in order.
      if (holding && verdict === "push" && HELD_TYPES.includes(event.type)) releaseThrough = event.seq;
      // Held: nothing after it is sent either, so the client's cursor never skips it.
      setHolding(true);
      return null;
    }
    lastSent = event.seq;
    // The person's own view (their receipt of a shared record), not the shared state the rules read.
    const item = await itemFor(deps, event, personId);
    const view = item.notification;
    if (view.scope !== "APPLICATION" && view.status === "PENDING") deps.markDelivered(personId, view);
    return item;
  };

  async function* replay(): AsyncGenerator<StreamItem> {
    for (;;) {
      const page = await deps.log.readForPerson(personId, lastSent, REPLAY_PAGE);
      for (const event of page) {
        if (isClosed) return;
        const item = await present(event);
        if (item) yield item;
        if (holding) return;
      }
      if (page.length < REPLAY_PAGE) return;
    }
  }

  try {
    // Inside the try: a failed read must still unsubscribe.
    if (after !== null) {
      preferences = await deps.preferences(personId);
      yield* replay();
    } else {
      // "Live only" starts after everything committed before the stream opened. This instance's
      // feed may not have heard of all of it yet (a bus message from another instance still on
      // the way), so the log says where now is; a late message at or below it is skipped.
      const [read, head] = await Promise.all([deps.preferences(personId), deps.log.maxSeq()]);
      preferences = read;
      lastSent = Math.max(lastSent, head);
    }
    while (!isClosed) {
      if (overflow) {
        observer.slowConsumerClosed("queue");
        throw new SlowConsumerError();
      }
      if (quietChanged) {
        quietChanged = false;
        preferences = await deps.preferences(personId);
      }
      if (holding && (releaseThrough > lastSent || !holdsNow(preferences, deps.clock.now()))) {
        // Release what was held, in order, straight from the log.
        setHolding(false);
        queue.length = 0;
        yield* replay();
        continue;
      }
      const event = queue.shift();
      if (event) {
        const item = await present(event);
        if (item) yield item;
        continue;
      }
      // A holding stream also wakes by itself, to release when quiet hours end.
      const timer = holding ? setTimeout(signal, deps.holdCheckMs) : null;
      await new Promise<void>((resolve) => (wake = resolve));
      if (timer) clearTimeout(timer);
    }
  } finally {
    setHolding(false);
    unsubscribe();
    wake = null;
  }
}
