// Notification rows exactly as Herald's storage layer writes them: the domain decides the record
// (validatePublish + decidePublish) and the storage mapper turns it into columns, so the raw-driver
// figures insert, update and read the same bytes without a copy of either to keep in step.
import { randomBytes } from "node:crypto";
import { decidePublish } from "@herald/server/domain/lifecycle";
import { activeKeyOf, type NotificationRecord, targetKeyOf } from "@herald/server/domain/notification";
import { validatePublish } from "@herald/server/domain/validation";
import { serializeSnapshot, toColumns } from "@herald/server/storage/notification-mapper";

export type Value = string | number | Date | null;

/** One notification as the benchmark writes it: the domain's record and the row the mapper makes of it. */
export interface Published {
  record: NotificationRecord;
  row: Record<string, Value>;
}

/** 25 characters starting with "c", like the cuids Herald generates; only uniqueness matters. */
export function newId(): string {
  return `c${randomBytes(12).toString("hex")}`;
}

/** What Herald stores for the benchmark's publish input (PERSON scope, title, body, plugin). */
export function published(input: { id: string; personId: string; key: string; title: string; body: string; now: Date }): Published {
  const valid = validatePublish(
    { scope: "PERSON", personId: input.personId, key: input.key, title: input.title, body: input.body, source: { plugin: "bench" } },
    input.now,
  );
  const decision = decidePublish(null, valid.target, valid.key, valid.content, input.now);
  if (decision.kind !== "create") throw new Error(`a first publish is a create, not ${decision.kind}`);
  const { draft } = decision;
  const record: NotificationRecord = { id: input.id, ...draft };
  // As NotificationStore.apply writes a create: the mapper's columns, id and createdAt; lockVersion starts at 0.
  const row = { id: input.id, ...toColumns(draft, activeKeyOf(draft, draft.key), targetKeyOf(draft)), lockVersion: 0, createdAt: draft.createdAt };
  return { record, row };
}

/** The event-log snapshot Herald writes for the record at `revision`. */
export function snapshotOf(notification: Published, revision = notification.record.revision): string {
  return serializeSnapshot({ ...notification.record, revision });
}

const sample = published({ id: newId(), personId: "sample", key: "sample", title: "sample", body: "sample", now: new Date() }).row;

/** Every column of "Notification" that Herald writes. */
export const notificationColumns = Object.keys(sample);
/** The columns a published row fills; the rest stay NULL (the seed uses bulk statements over these). */
export const seedColumns = notificationColumns.filter((c) => sample[c] !== null);
export const integerColumns: ReadonlySet<string> = new Set(seedColumns.filter((c) => typeof sample[c] === "number"));
export const dateColumns: ReadonlySet<string> = new Set(seedColumns.filter((c) => sample[c] instanceof Date));

/**
 * Row i of the list seed. createdAt grows by 37 ms per row, except that every tenth row shares
 * the previous row's millisecond, so the keyset's (createdAt = ? AND id < ?) branch is exercised.
 */
export function seededRow(personId: string, i: number, base: Date): Published["row"] {
  const offset = i * 37 - (i % 10 === 9 ? 37 : 0);
  const at = new Date(base.getTime() + offset);
  return published({ id: newId(), personId, key: `k${i}`, title: `Seeded notification ${i}`, body: "Seeded by the benchmark.", now: at }).row;
}

export interface ListQuery {
  personId: string;
  now: Date;
  after: { createdAt: Date; id: string } | null;
  limit: number;
}
