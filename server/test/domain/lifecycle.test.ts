// Lifecycle rules without I/O: every decision from a given state.
import { describe, expect, it } from "vitest";
import { NotificationTransitionError, OperationMismatchError, RevisionConflictError } from "../../src/domain/errors.ts";
import {
  decideDismiss,
  decideExpire,
  decidePublish,
  decideRead,
  decideResolve,
  decideSeen,
  decideSnooze,
  decideUnread,
  decideUnsnooze,
  decideUpdate,
  viewOf,
} from "../../src/domain/lifecycle.ts";
import type { NotificationContent, NotificationRecord, Receipt, Target } from "../../src/domain/notification.ts";

const t0 = new Date("2026-01-01T00:00:00Z");
const t1 = new Date("2026-01-01T00:01:00Z");
const person: Target = { scope: "PERSON", personId: "p1", sessionId: null };
const app: Target = { scope: "APPLICATION", personId: null, sessionId: null };

function content(overrides: Partial<NotificationContent> = {}): NotificationContent {
  return {
    severity: "INFO",
    title: "Title",
    body: "",
    source: { plugin: "p", subsystem: null },
    displayOverrides: {},
    actions: [],
    operation: null,
    uiEffects: null,
    data: null,
    retention: { policy: "UNTIL_RESOLVED", expiresAt: null, requestId: null },
    trigger: { type: "PRODUCER", ref: null },
    engagementId: null,
    requestId: null,
    ...overrides,
  };
}

function record(overrides: Partial<NotificationRecord> = {}): NotificationRecord {
  const decision = decidePublish(null, person, "k", content(), t0);
  if (decision.kind !== "create") throw new Error("expected create");
  return { ...decision.draft, id: "n1", ...overrides };
}

const receipt = (fields: Partial<Receipt> = {}): Receipt => ({
  notificationId: "n1",
  personId: "p2",
  deliveredAt: null,
  seenAt: null,
  readAt: null,
  dismissedAt: null,
  dismissReason: null,
  snoozedUntil: null,
  updatedAt: null,
  ...fields,
});

describe("publish", () => {
  it("creates revision 1 when no occurrence is active", () => {
    const d = decidePublish(null, person, "k", content(), t0);
    expect(d).toMatchObject({ kind: "create", event: "CREATED", draft: { revision: 1, status: "PENDING", createdAt: t0 } });
  });

  it("creates a new occurrence when the previous one is terminal", () => {
    expect(decidePublish(record({ status: "RESOLVED" }), person, "k", content(), t1).kind).toBe("create");
  });

  it("re-presents the active occurrence: same id, next revision, unseen again, effects not inherited", () => {
    const current = record({ status: "SEEN", seenAt: t0, revision: 3, uiEffects: { reload_sessions_list: true } });
    const d = decidePublish(current, person, "k", content({ title: "New" }), t1);
    expect(d).toMatchObject({
      kind: "update",
      event: "UPDATED",
      next: { id: "n1", revision: 4, status: "PENDING", seenAt: null, title: "New", uiEffects: null, updatedAt: t1, createdAt: t0 },
    });
  });

  it("resets every person's receipt when a shared record gets a new revision", () => {
    const d = decidePublish(record({ scope: "APPLICATION", personId: null }), app, "k", content(), t1);
    expect(d).toMatchObject({ kind: "update", resetReceipts: true });
  });

  it("refuses an update from another operation occurrence", () => {
    const current = record({ operation: { id: "op-2", type: null, state: null, phase: null, elapsedSeconds: null, cancellable: false } });
    const late = content({ operation: { id: "op-1", type: null, state: null, phase: null, elapsedSeconds: null, cancellable: false } });
    expect(() => decidePublish(current, person, "k", late, t1)).toThrow(OperationMismatchError);
    expect(decidePublish(current, person, "k", content(), t1).kind).toBe("update");
  });
});

describe("producer transitions", () => {
  it("resolves an active record once and is idempotent afterwards", () => {
    const d = decideResolve(record(), { actionId: "ok", values: null }, null, t1);
    expect(d).toMatchObject({ kind: "update", event: "RESOLVED", next: { status: "RESOLVED", resolvedAt: t1, revision: 2 } });
    expect(decideResolve(record({ status: "RESOLVED" }), null, null, t1).kind).toBe("none");
  });

  it("refuses moving one terminal state to another", () => {
    expect(() => decideResolve(record({ status: "EXPIRED" }), null, null, t1)).toThrow(NotificationTransitionError);
    expect(() => decideExpire(record({ status: "DISMISSED" }), null, null, t1)).toThrow(NotificationTransitionError);
    expect(() => decideUpdate(record({ status: "RESOLVED" }), content(), t1)).toThrow(NotificationTransitionError);
  });

  it("expires with a reason and is idempotent", () => {
    expect(decideExpire(record(), "request_complete", null, t1)).toMatchObject({ next: { status: "EXPIRED", terminalReason: "request_complete" } });
    expect(decideExpire(record({ status: "EXPIRED" }), null, null, t1).kind).toBe("none");
  });
});

describe("dismissal", () => {
  it("refuses a stale expected revision with the current record", () => {
    const current = record({ revision: 2 });
    try {
      decideDismiss(current, null, "p1", 1, null, t1);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(RevisionConflictError);
      expect((error as RevisionConflictError).current).toBe(current);
    }
  });

  it("dismisses PERSON records as a new terminal revision", () => {
    expect(decideDismiss(record(), null, "p1", 1, "user", t1)).toMatchObject({ kind: "update", next: { status: "DISMISSED", revision: 2 } });
  });

  it("dismisses shared records only for the person, without a new revision", () => {
    const shared = record({ scope: "APPLICATION", personId: null });
    const d = decideDismiss(viewOf(shared, null), null, "p2", 1, null, t1);
    expect(d).toMatchObject({ kind: "receipt", receipt: { personId: "p2", dismissedAt: t1 }, record: { status: "DISMISSED", revision: 1 } });
  });

  it("is idempotent on an already dismissed record", () => {
    expect(decideDismiss(record({ status: "DISMISSED" }), null, "p1", 99, null, t1).kind).toBe("none");
  });
});

describe("reading state", () => {
  it("marks unseen records seen without a new revision, and leaves seen ones alone", () => {
    expect(decideSeen(record(), null, "p1", t1)).toMatchObject({ kind: "update", event: "SEEN", next: { status: "SEEN", seenAt: t1, revision: 1 } });
    expect(decideSeen(record({ status: "SEEN" }), null, "p1", t1).kind).toBe("none");
  });

  it("snoozes active records only, and unsnoozes snoozed ones", () => {
    expect(decideSnooze(record(), null, "p1", t1, t0)).toMatchObject({ event: "SNOOZED", next: { snoozedUntil: t1 } });
    expect(() => decideSnooze(record({ status: "RESOLVED" }), null, "p1", t1, t0)).toThrow(NotificationTransitionError);
    expect(decideUnsnooze(record(), null, "p1", t1).kind).toBe("none");
    expect(decideUnsnooze(record({ snoozedUntil: t1 }), null, "p1", t1)).toMatchObject({ event: "UNSNOOZED", next: { snoozedUntil: null } });
  });
});

describe("read and unread", () => {
  it("reads an unseen record: read implies seen, without a new revision", () => {
    const d = decideRead(record(), null, "p1", t1);
    expect(d).toMatchObject({ kind: "update", event: "READ", next: { readAt: t1, seenAt: t1, status: "SEEN", revision: 1 } });
  });
  it("keeps an earlier seenAt, and a terminal status, when reading", () => {
    expect(decideRead(record({ status: "SEEN", seenAt: t0 }), null, "p1", t1)).toMatchObject({ next: { readAt: t1, seenAt: t0 } });
    expect(decideRead(record({ status: "RESOLVED" }), null, "p1", t1)).toMatchObject({ next: { readAt: t1, status: "RESOLVED" } });
  });
  it("unreads a read record and keeps it seen; repeats change nothing", () => {
    const read = record({ status: "SEEN", seenAt: t0, readAt: t0 });
    expect(decideUnread(read, null, "p1", t1)).toMatchObject({ kind: "update", event: "UNREAD", next: { readAt: null, seenAt: t0, status: "SEEN" } });
    expect(decideUnread(record(), null, "p1", t1).kind).toBe("none");
    expect(decideRead(read, null, "p1", t1).kind).toBe("none");
  });
  it("reads a shared record in the person's receipt only", () => {
    const shared = record({ scope: "APPLICATION", personId: null });
    const d = decideRead(shared, null, "p2", t1);
    expect(d).toMatchObject({ kind: "receipt", event: "READ", receipt: { personId: "p2", readAt: t1, seenAt: t1 }, record: { status: "SEEN", readAt: t1 } });
  });
  it("makes a new revision unread again", () => {
    const read = record({ status: "SEEN", seenAt: t0, readAt: t0 });
    expect(decideUpdate(read, content({ title: "Changed" }), t1)).toMatchObject({ next: { readAt: null, seenAt: null, status: "PENDING" } });
  });
});

describe("a person's view of a shared record", () => {
  const shared = record({ scope: "APPLICATION", personId: null });
  it("derives the status from the receipt while the record is active", () => {
    expect(viewOf(shared, null).status).toBe("PENDING");
    expect(viewOf(shared, receipt({ deliveredAt: t0 })).status).toBe("DELIVERED");
    expect(viewOf(shared, receipt({ deliveredAt: t0, seenAt: t1 })).status).toBe("SEEN");
    expect(viewOf(shared, receipt({ seenAt: t1, dismissedAt: t1 })).status).toBe("DISMISSED");
    expect(viewOf(shared, receipt({ seenAt: t1, readAt: t1 })).readAt).toEqual(t1);
  });
  it("lets the producer's terminal state win", () => {
    expect(viewOf({ ...shared, status: "RESOLVED" }, receipt({ dismissedAt: t1 })).status).toBe("RESOLVED");
  });
  it("leaves PERSON records as they are", () => {
    const own = record();
    expect(viewOf(own, receipt({ seenAt: t1 }))).toBe(own);
  });
});
