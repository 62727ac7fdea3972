// The items person streams send for a committed event, made once per event (and per person, for
// a shared record's personal view) however many streams of this instance send it.
import { viewOf } from "../domain/lifecycle.ts";
import type { NotificationRecord, Receipt } from "../domain/notification.ts";
import { parseSnapshot } from "../domain/notification-snapshot.ts";
import type { CommittedEvent } from "../events/committed-event.ts";
import type { StreamPosition } from "./quiet-hold.ts";

/** A committed event as one person's stream sends it: its snapshot parsed into their view. */
export interface StreamItem extends Pick<CommittedEvent, "seq" | "type"> {
  notification: NotificationRecord;
  /** Where the client stands after this item, when its stream holds something back (its cursor says so). */
  position?: StreamPosition;
}

/** Every person's receipt of a shared record, read once per event. */
export interface ReceiptSource {
  receiptsOf(notificationId: string): Promise<Map<string, Receipt>>;
}

// One event reaches every open stream of its audience; parse its snapshot once for all of them.
const parsed = new WeakMap<CommittedEvent, NotificationRecord>();
export function notificationOf(event: CommittedEvent): NotificationRecord {
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
function receiptsFor(deps: ReceiptSource, event: CommittedEvent): Promise<Map<string, Receipt>> {
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
// the transport renders it once for all of them (shared-render.ts). Once made,
// it is handed out as is (no promise): only a shared record's first view waits for the receipts.
const itemsByEvent = new WeakMap<CommittedEvent, Map<string, StreamItem | Promise<StreamItem>>>();
export function itemFor(deps: ReceiptSource, event: CommittedEvent, personId: string): StreamItem | Promise<StreamItem> {
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
    const item = receipt && !blank(receipt, record) ? itemOf(event, viewOf(record, receipt)) : withoutReceipt(event, record);
    items.set(personId, item);
    return item;
  });
  items.set(personId, made);
  // A failed read is not remembered: the next stream (or replay) asks again.
  made.catch(() => items.get(personId) === made && items.delete(personId));
  return made;
}

// A receipt a new revision reset (every person's delivery mark leaves one) shows the shared state
// unchanged: its person shares the render of those without a receipt.
const blank = (receipt: Receipt, record: NotificationRecord): boolean =>
  receipt.deliveredAt === null &&
  receipt.seenAt === null &&
  receipt.readAt === null &&
  receipt.dismissedAt === null &&
  receipt.snoozedUntil === null &&
  (receipt.updatedAt === null || receipt.updatedAt <= record.updatedAt);

// Every person without a receipt of a shared record sees its shared state as it is: one item for
// all of them, so the transport may render it once across persons (shared-render.ts).
const sharedItems = new WeakMap<CommittedEvent, StreamItem>();
function withoutReceipt(event: CommittedEvent, record: NotificationRecord): StreamItem {
  let item = sharedItems.get(event);
  if (!item) sharedItems.set(event, (item = itemOf(event, viewOf(record, null))));
  return item;
}

// New content is what reader controls judge; reading-state changes are the person's own doing.
export const CONTENT_TYPES: readonly string[] = ["CREATED", "UPDATED"];

/** The item as one stream sends it while it holds: its own object, carrying the stream's position. */
export function positioned(item: StreamItem | Promise<StreamItem>, position: StreamPosition): StreamItem | Promise<StreamItem> {
  return item instanceof Promise ? item.then((made) => ({ ...made, position })) : { ...item, position };
}
