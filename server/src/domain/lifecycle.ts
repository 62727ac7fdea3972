// Every state change of a notification is decided here, and only here. Each function takes the
// current state and returns a Decision; storage writes it (with its event) in one transaction.
import { isTerminal, type NotificationEventType, type NotificationStatus, UnseenStatuses } from "./enums.ts";
import { NotificationTransitionError, OperationMismatchError, RevisionConflictError } from "./errors.ts";
import type { NotificationContent, NotificationRecord, Receipt, Resolution, Target } from "./notification.ts";
import { resolveDisplay } from "./presentation.ts";
import { sharedStatusOf } from "./shared-view.ts";

export type NewNotification = Omit<NotificationRecord, "id">;

export type Decision =
  /** Nothing to write: the request is already satisfied (idempotent repeat). */
  | { kind: "none"; current: NotificationRecord }
  /** `dedupKey`: set on notifications Herald raises itself (see domain/companion.ts). */
  | { kind: "create"; draft: NewNotification; event: "CREATED"; dedupKey?: string }
  /** A change of the record itself (global for shared records). */
  | {
      kind: "update";
      next: NotificationRecord;
      event: NotificationEventType;
      /** Shared records only: a new content revision is new to every person again. */
      resetReceipts: boolean;
    }
  /**
   * A change of one person's state of a shared record; the record is untouched. `silent`: the
   * receipt is written without an event (a delivery mark of a shared record, see decideDelivered).
   */
  | { kind: "receipt"; record: NotificationRecord; receipt: Receipt; event: NotificationEventType; silent?: true };

export function decidePublish(existing: NotificationRecord | null, target: Target, key: string, content: NotificationContent, now: Date): Decision {
  if (!existing || isTerminal(existing.status)) {
    return {
      kind: "create",
      event: "CREATED",
      draft: {
        ...target,
        ...content,
        key,
        revision: 1,
        status: "PENDING",
        resolution: null,
        terminalReason: null,
        snoozedUntil: null,
        createdAt: now,
        updatedAt: now,
        deliveredAt: null,
        seenAt: null,
        readAt: null,
        dismissedAt: null,
        resolvedAt: null,
        expiredAt: null,
      },
    };
  }
  guardOperation(existing, content.operation?.id ?? null);
  return represent(existing, content, now);
}

/** updateNotification: the patch was already merged into `content` by validatePatch. */
export function decideUpdate(current: NotificationRecord, content: NotificationContent, now: Date): Decision {
  if (isTerminal(current.status)) throw new NotificationTransitionError(current, "UPDATED");
  guardOperation(current, content.operation?.id ?? null);
  return represent(current, content, now);
}

export function decideResolve(current: NotificationRecord, resolution: Resolution | null, operationId: string | null, now: Date): Decision {
  if (current.status === "RESOLVED") return { kind: "none", current };
  if (isTerminal(current.status)) throw new NotificationTransitionError(current, "RESOLVED");
  guardOperation(current, operationId);
  return change(current, "RESOLVED", now, {
    status: "RESOLVED",
    resolvedAt: now,
    resolution: resolution ?? { actionId: null, values: null },
  });
}

export function decideExpire(current: NotificationRecord, reason: string | null, operationId: string | null, now: Date): Decision {
  if (current.status === "EXPIRED") return { kind: "none", current };
  if (isTerminal(current.status)) throw new NotificationTransitionError(current, "EXPIRED");
  guardOperation(current, operationId);
  return change(current, "EXPIRED", now, { status: "EXPIRED", expiredAt: now, terminalReason: reason ?? "expired" });
}

/**
 * A person dismisses what they see. `view` is their view (record + receipt for shared ones).
 * A stale expectedRevision never changes anything: the caller gets the current record back.
 */
export function decideDismiss(
  view: NotificationRecord,
  receipt: Receipt | null,
  personId: string,
  expectedRevision: number | null,
  reason: string | null,
  now: Date,
): Decision {
  if (view.status === "DISMISSED") return { kind: "none", current: view };
  if (isTerminal(view.status)) throw new NotificationTransitionError(view, "DISMISSED");
  if (expectedRevision !== null && expectedRevision !== view.revision) throw new RevisionConflictError(view);
  if (!resolveDisplay(view.scope, view).dismissible) {
    throw new NotificationTransitionError(view, "DISMISSED", "This notification cannot be dismissed (display.dismissible is false)");
  }
  if (view.scope === "APPLICATION") {
    return personal(view, receipt, personId, "DISMISSED", { dismissedAt: now, dismissReason: reason ?? "user", updatedAt: now });
  }
  return change(view, "DISMISSED", now, { status: "DISMISSED", dismissedAt: now, terminalReason: reason ?? "user" });
}

// Reading state (delivered, seen, read, snoozed) is the reader's, not the producer's content: it does
// not advance `revision`, so a revision-checked dismissal is not defeated by opening the drawer.

export function decideSeen(view: NotificationRecord, receipt: Receipt | null, personId: string, now: Date): Decision {
  if (!UnseenStatuses.includes(view.status)) return { kind: "none", current: view };
  return readingState(view, receipt, personId, "SEEN", { seenAt: now }, now);
}

/**
 * The person opened or acted on it. Read implies seen; a terminal record may be read too (the
 * history lists it), its status stays.
 */
export function decideRead(view: NotificationRecord, receipt: Receipt | null, personId: string, now: Date): Decision {
  if (view.readAt !== null) return { kind: "none", current: view };
  return readingState(view, receipt, personId, "READ", view.seenAt === null ? { readAt: now, seenAt: now } : { readAt: now }, now);
}

/** Back to unread, so it stands out again; seen stays (the badge does not come back). */
export function decideUnread(view: NotificationRecord, receipt: Receipt | null, personId: string, now: Date): Decision {
  if (view.readAt === null) return { kind: "none", current: view };
  return readingState(view, receipt, personId, "UNREAD", { readAt: null }, now);
}

/**
 * A notification reached a connected client of its reader. For a shared (APPLICATION) record it
 * is that person's delivery, kept on their receipt as seen and read are. That mark is written
 * without an event: every open stream of the person already carries the broadcast it marks, and an
 * event per person and broadcast would give each of them a log entry and a render of their own
 * (docs/decisions.md, "Delivered per person for shared records").
 */
export function decideDelivered(view: NotificationRecord, receipt: Receipt | null, personId: string, now: Date): Decision {
  if (view.status !== "PENDING") return { kind: "none", current: view };
  if (view.scope === "APPLICATION") return { ...personal(view, receipt, personId, "DELIVERED", { deliveredAt: now, updatedAt: now }), silent: true };
  return { kind: "update", event: "DELIVERED", resetReceipts: false, next: { ...view, status: "DELIVERED", deliveredAt: now, updatedAt: now } };
}

/** A snooze whose time has come ends by itself (the snooze waker calls this). */
export function decideWake(view: NotificationRecord, receipt: Receipt | null, personId: string, now: Date): Decision {
  if (view.snoozedUntil === null || view.snoozedUntil > now || isTerminal(view.status)) return { kind: "none", current: view };
  return readingState(view, receipt, personId, "UNSNOOZED", { snoozedUntil: null }, now);
}

export function decideSnooze(view: NotificationRecord, receipt: Receipt | null, personId: string, until: Date, now: Date): Decision {
  if (isTerminal(view.status)) throw new NotificationTransitionError(view, "SNOOZED");
  return readingState(view, receipt, personId, "SNOOZED", { snoozedUntil: until }, now);
}

export function decideUnsnooze(view: NotificationRecord, receipt: Receipt | null, personId: string, now: Date): Decision {
  if (view.snoozedUntil === null) return { kind: "none", current: view };
  return readingState(view, receipt, personId, "UNSNOOZED", { snoozedUntil: null }, now);
}

/** The operation-occurrence guard: a late update from a superseded operation is refused. */
function guardOperation(current: NotificationRecord, operationId: string | null) {
  const active = current.operation?.id ?? null;
  if (operationId !== null && active !== null && operationId !== active) {
    throw new OperationMismatchError(current, operationId);
  }
}

/** A new content revision of an active occurrence: same id, shown again as unseen. */
function represent(current: NotificationRecord, content: NotificationContent, now: Date): Decision {
  return {
    kind: "update",
    event: "UPDATED",
    resetReceipts: current.scope === "APPLICATION",
    next: {
      ...current,
      ...content,
      revision: current.revision + 1,
      status: "PENDING",
      updatedAt: now,
      deliveredAt: null,
      seenAt: null,
      readAt: null,
    },
  };
}

function change(
  current: NotificationRecord,
  event: NotificationEventType,
  now: Date,
  fields: Partial<NotificationRecord> & { status: NotificationStatus },
): Decision {
  return {
    kind: "update",
    event,
    resetReceipts: false,
    // Effects belong to the revision that supplied them; an ending must not make clients refresh again.
    next: { ...current, ...fields, uiEffects: null, revision: current.revision + 1, updatedAt: now },
  };
}

function readingState(
  view: NotificationRecord,
  receipt: Receipt | null,
  personId: string,
  event: NotificationEventType,
  fields: Partial<Pick<NotificationRecord, "seenAt" | "readAt" | "snoozedUntil">>,
  now: Date,
): Decision {
  if (view.scope === "APPLICATION") return personal(view, receipt, personId, event, { ...fields, updatedAt: now });
  const status = fields.seenAt && UnseenStatuses.includes(view.status) ? "SEEN" : view.status;
  return { kind: "update", event, resetReceipts: false, next: { ...view, ...fields, status, updatedAt: now } };
}

function personal(
  view: NotificationRecord,
  receipt: Receipt | null,
  personId: string,
  event: NotificationEventType,
  fields: Partial<Omit<Receipt, "notificationId" | "personId">>,
): Extract<Decision, { kind: "receipt" }> {
  const next: Receipt = {
    notificationId: view.id,
    personId,
    deliveredAt: null,
    seenAt: null,
    readAt: null,
    dismissedAt: null,
    dismissReason: null,
    snoozedUntil: null,
    updatedAt: null,
    ...receipt,
    ...fields,
  };
  return { kind: "receipt", record: viewOf(view, next), receipt: next, event };
}

/**
 * What one person sees of a record. A shared record's status is the case of shared-view.ts its
 * status and the person's receipt fall in (the list SQL reads the same table).
 */
export function viewOf(record: NotificationRecord, receipt: Receipt | null): NotificationRecord {
  if (record.scope !== "APPLICATION") return record;
  const r = receipt;
  const status = sharedStatusOf(record.status, r);
  return {
    ...record,
    status,
    deliveredAt: r?.deliveredAt ?? null,
    seenAt: r?.seenAt ?? null,
    readAt: r?.readAt ?? null,
    dismissedAt: r?.dismissedAt ?? null,
    snoozedUntil: r?.snoozedUntil ?? null,
    // The reason matches the status shown: the producer's once it ended the record, else the person's own.
    terminalReason: !isTerminal(record.status) && r?.dismissedAt ? r.dismissReason : record.terminalReason,
    uiEffects: isTerminal(status) ? null : record.uiEffects,
    // A person's view changes when the record or their receipt does, whichever is later.
    updatedAt: r?.updatedAt && r.updatedAt > record.updatedAt ? r.updatedAt : record.updatedAt,
  };
}
