// A shared (APPLICATION) record's status as one person sees it, stated once as a case table: the
// record's own status, and which of the person's receipt columns are set. viewOf (lifecycle.ts)
// reads it for one record; the list SQL reads it to turn a filter's statuses into conditions on
// the record and its LEFT JOINed receipt (no receipt: every column null).
import { ActiveStatuses, type NotificationStatus } from "./enums.ts";
import type { Receipt } from "./notification.ts";

/** The receipt columns that decide a person's status of a shared record. */
export const ReceiptMarks = ["dismissedAt", "seenAt", "deliveredAt"] as const;
export type ReceiptMark = (typeof ReceiptMarks)[number];

export interface SharedViewCase {
  /** What the person sees. */
  status: NotificationStatus;
  /** The shared record's own status is one of these. */
  record: readonly NotificationStatus[];
  /** Receipt columns that must be set (true) or null (false); a column not named does not matter. */
  receipt: Readonly<Partial<Record<ReceiptMark, boolean>>>;
}

/**
 * The producer's terminal state wins over the person's; while the record is active the person's
 * receipt decides, dismissal over seen over delivered. Exactly one case holds for any record
 * status and receipt (test/domain/shared-view.test.ts).
 */
export const sharedViewCases: readonly SharedViewCase[] = [
  { status: "PENDING", record: ActiveStatuses, receipt: { dismissedAt: false, seenAt: false, deliveredAt: false } },
  { status: "DELIVERED", record: ActiveStatuses, receipt: { dismissedAt: false, seenAt: false, deliveredAt: true } },
  { status: "SEEN", record: ActiveStatuses, receipt: { dismissedAt: false, seenAt: true } },
  { status: "DISMISSED", record: ActiveStatuses, receipt: { dismissedAt: true } },
  { status: "RESOLVED", record: ["RESOLVED"], receipt: {} },
  { status: "EXPIRED", record: ["EXPIRED"], receipt: {} },
];

const byStatus = new Map(sharedViewCases.map((c) => [c.status, c]));

/** The case a filter's status names, for SQL: `record` and each `receipt` column become conditions. */
export function sharedViewCase(status: NotificationStatus): SharedViewCase {
  const found = byStatus.get(status);
  if (!found) throw new Error(`no shared view case for ${status}`);
  return found;
}

/**
 * The status a person sees of a shared record. A record that is no case's (a person's view of it,
 * already DISMISSED, passed back in) keeps its status.
 */
export function sharedStatusOf(recordStatus: NotificationStatus, receipt: Pick<Receipt, ReceiptMark> | null): NotificationStatus {
  const found = sharedViewCases.find(
    (c) => c.record.includes(recordStatus) && ReceiptMarks.every((m) => c.receipt[m] === undefined || c.receipt[m] === (receipt?.[m] != null)),
  );
  return found?.status ?? recordStatus;
}
