// A person's view of a notification: the record if they may see it and, for a shared
// (APPLICATION) record, their own receipt folded in by the domain's viewOf. Every look-up of a
// view goes through here, in a unit of work (NotificationTx.viewFor, which also remembers the row
// for the unit's optimistic lock) or outside one (NotificationStore.viewFor); a list folds the
// receipts it joined with the same viewOf (notification-store.ts, page).
import { viewOf } from "../../domain/lifecycle.ts";
import { type NotificationRecord, type Receipt, visibleTo } from "../../domain/notification.ts";

export interface PersonView {
  /** The record as stored (a shared record without anyone's reading state). */
  record: NotificationRecord;
  /** The person's receipt of a shared record; null for their own records and when they have none. */
  receipt: Receipt | null;
  /** What the person sees: the record with their receipt folded in. */
  view: NotificationRecord;
}

/** The reads a view is made of. */
export interface ViewReads {
  findById(id: string): Promise<NotificationRecord | null>;
  findReceipt(notificationId: string, personId: string): Promise<Receipt | null>;
}

/** The person's view of one record; null when it does not exist or is not theirs to see. */
export async function personView(reads: ViewReads, id: string, personId: string): Promise<PersonView | null> {
  const record = await reads.findById(id);
  if (!record || !visibleTo(personId, record)) return null;
  const receipt = record.scope === "APPLICATION" ? await reads.findReceipt(id, personId) : null;
  return { record, receipt, view: viewOf(record, receipt) };
}

/** The reads several views are made of, two statements whatever their number. */
export interface BatchViewReads {
  findManyByIds(ids: readonly string[]): Promise<NotificationRecord[]>;
  findReceipts(notificationIds: readonly string[], personId: string): Promise<Map<string, Receipt>>;
}

/** The person's views of the records among `ids` they can see, in the order of `ids` (others are left out). */
export async function personViews(reads: BatchViewReads, ids: readonly string[], personId: string): Promise<PersonView[]> {
  const byId = new Map((await reads.findManyByIds(ids)).map((r) => [r.id, r]));
  const visible = ids.map((id) => byId.get(id)).filter((r): r is NotificationRecord => r !== undefined && visibleTo(personId, r));
  const receipts = await reads.findReceipts(
    visible.filter((r) => r.scope === "APPLICATION").map((r) => r.id),
    personId,
  );
  return visible.map((record) => {
    const receipt = record.scope === "APPLICATION" ? (receipts.get(record.id) ?? null) : null;
    return { record, receipt, view: viewOf(record, receipt) };
  });
}
