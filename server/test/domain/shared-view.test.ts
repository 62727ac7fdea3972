// A shared record's per-person status: the case table (domain/shared-view.ts) is total and
// unambiguous, viewOf follows it, and each case says what the rule is in words, so a change of
// the table that viewOf or the list SQL does not share shows here.
import { describe, expect, it } from "vitest";
import { NotificationStatuses, type NotificationStatus } from "../../src/domain/enums.ts";
import { viewOf } from "../../src/domain/lifecycle.ts";
import type { NotificationRecord, Receipt } from "../../src/domain/notification.ts";
import { ReceiptMarks, sharedStatusOf, sharedViewCase, sharedViewCases } from "../../src/domain/shared-view.ts";

const t0 = new Date("2026-01-01T00:00:00Z");
// A shared record's own status: active while the producer has not ended it (stored PENDING).
const recordStatuses: NotificationStatus[] = ["PENDING", "RESOLVED", "EXPIRED"];
const receipts: (Receipt | null)[] = [
  null,
  ...Array.from({ length: 8 }, (_, bits) => ({
    notificationId: "n1",
    personId: "p1",
    deliveredAt: bits & 1 ? t0 : null,
    seenAt: bits & 2 ? t0 : null,
    readAt: null,
    dismissedAt: bits & 4 ? t0 : null,
    dismissReason: bits & 4 ? "user" : null,
    snoozedUntil: null,
    updatedAt: t0,
  })),
];

/** The rule in words, apart from the table: terminal wins, then dismissed, seen, delivered. */
function expected(record: NotificationStatus, r: Receipt | null): NotificationStatus {
  if (record !== "PENDING") return record;
  return r?.dismissedAt ? "DISMISSED" : r?.seenAt ? "SEEN" : r?.deliveredAt ? "DELIVERED" : "PENDING";
}

const shared = {
  id: "n1",
  scope: "APPLICATION",
  personId: null,
  sessionId: null,
  status: "PENDING",
  updatedAt: t0,
  uiEffects: null,
  terminalReason: null,
} as unknown as NotificationRecord;

describe("a shared record's per-person status", () => {
  const combos = recordStatuses.flatMap((record) => receipts.map((r) => [record, r] as const));

  it.each(combos)("record %s with receipt %o falls in exactly one case, the rule's", (record, r) => {
    const matching = sharedViewCases.filter(
      (c) => c.record.includes(record) && ReceiptMarks.every((m) => c.receipt[m] === undefined || c.receipt[m] === (r?.[m] != null)),
    );
    expect(matching.map((c) => c.status)).toEqual([expected(record, r)]);
    expect(sharedStatusOf(record, r)).toBe(expected(record, r));
    expect(viewOf({ ...shared, status: record }, r).status).toBe(expected(record, r));
  });

  it("has one case for every status a list may filter on", () => {
    expect(sharedViewCases.map((c) => c.status).sort()).toEqual([...NotificationStatuses].sort());
    for (const status of NotificationStatuses) expect(sharedViewCase(status).status).toBe(status);
  });

  it("keeps the status of a person's view passed back in (a personal dismissal)", () => {
    expect(viewOf({ ...shared, status: "DISMISSED" }, null).status).toBe("DISMISSED");
  });
});
