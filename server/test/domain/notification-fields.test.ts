// The field table (domain/notification-fields.ts) against the rules that use it: a person's view
// of a shared record takes from their receipt exactly the fields the table says, and nothing
// else. Its columns are held to the store by type (notification-mapper.ts) and its GraphQL names
// to the schema by test/realtime/person-free.test.ts.
import { describe, expect, it } from "vitest";
import { decidePublish, viewOf } from "../../src/domain/lifecycle.ts";
import type { NotificationRecord, Receipt } from "../../src/domain/notification.ts";
import { NOTIFICATION_FIELDS } from "../../src/domain/notification-fields.ts";
import { validatePublish } from "../../src/domain/validation.ts";

const t0 = new Date("2026-01-01T00:00:00Z");
const t1 = new Date("2026-01-01T00:05:00Z");

function sharedRecord(): NotificationRecord {
  const valid = validatePublish({ scope: "APPLICATION", key: "k", title: "Title", source: { plugin: "p" }, uiEffects: { reload_sessions_list: true } }, t0);
  const decision = decidePublish(null, valid.target, valid.key, valid.content, t0);
  if (decision.kind !== "create") throw new Error("expected a create");
  return { ...decision.draft, id: "n1" };
}

/** A receipt that differs from the record in every field a receipt holds. */
const dismissedReceipt: Receipt = {
  notificationId: "n1",
  personId: "p1",
  deliveredAt: t1,
  seenAt: t1,
  readAt: t1,
  dismissedAt: t1,
  dismissReason: "done with it",
  snoozedUntil: new Date("2026-01-02T00:00:00Z"),
  updatedAt: t1,
};

const changedFields = (before: NotificationRecord, after: NotificationRecord) =>
  (Object.keys(NOTIFICATION_FIELDS) as (keyof NotificationRecord)[]).filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field])).sort();

describe("the field table", () => {
  it("names every field a person's receipt changes in their view of a shared record, and only those", () => {
    const record = sharedRecord();
    const fromReceipt = Object.entries(NOTIFICATION_FIELDS)
      .filter(([, places]) => places.fromReceipt)
      .map(([field]) => field)
      .sort();
    expect(changedFields(record, viewOf(record, dismissedReceipt))).toEqual(fromReceipt);
  });

  it("leaves a person's own record as it is stored", () => {
    const record = { ...sharedRecord(), scope: "PERSON" as const, personId: "p1" };
    expect(changedFields(record, viewOf(record, dismissedReceipt))).toEqual([]);
  });
});
