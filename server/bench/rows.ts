// Notification rows exactly as Herald's storage layer writes them (see notification-mapper.ts and
// the migrations), so the raw-driver figures insert, update and read the same bytes.
import { randomBytes } from "node:crypto";
import type { NotificationRecord } from "../src/domain/notification.ts";

/** Every column of "Notification", in migration order. */
export const notificationColumns = [
  "id", "scope", "personId", "sessionId", "key", "activeKey", "targetKey", "revision", "lockVersion", "status",
  "severity", "title", "body", "sourcePlugin", "sourceSubsystem", "display", "actions", "operation", "operationId",
  "uiEffects", "retentionPolicy", "expiresAt", "requestId", "triggerType", "triggerRef", "engagementId", "resolution",
  "terminalReason", "snoozedUntil", "createdAt", "updatedAt", "deliveredAt", "seenAt", "dismissedAt", "resolvedAt",
  "expiredAt",
] as const;

export type Column = (typeof notificationColumns)[number];
export type Value = string | number | Date | null;
export type NotificationRow = Record<Column, Value>;

/** The columns a seeded row fills; the rest stay NULL (the seed uses bulk statements over these). */
export const seedColumns = [
  "id", "scope", "personId", "key", "activeKey", "targetKey", "revision", "lockVersion", "status", "severity",
  "title", "body", "sourcePlugin", "display", "actions", "retentionPolicy", "triggerType", "createdAt", "updatedAt",
] as const satisfies readonly Column[];

export const integerColumns: ReadonlySet<Column> = new Set(["revision", "lockVersion"]);
export const dateColumns: ReadonlySet<Column> = new Set([
  "expiresAt", "snoozedUntil", "createdAt", "updatedAt", "deliveredAt", "seenAt", "dismissedAt", "resolvedAt", "expiredAt",
]);

/** 25 characters starting with "c", like the cuids Herald generates; only uniqueness matters. */
export function newId(): string {
  return `c${randomBytes(12).toString("hex")}`;
}

/** What Herald stores for the benchmark's publish input (PERSON scope, title, body, plugin). */
export function publishedRow(input: { id: string; personId: string; key: string; title: string; body: string; now: Date }): NotificationRow {
  const target = `PERSON:${input.personId}`;
  return {
    id: input.id,
    scope: "PERSON",
    personId: input.personId,
    sessionId: null,
    key: input.key,
    activeKey: `${target}|${input.key}`,
    targetKey: target,
    revision: 1,
    lockVersion: 0,
    status: "PENDING",
    severity: "INFO",
    title: input.title,
    body: input.body,
    sourcePlugin: "bench",
    sourceSubsystem: null,
    display: "{}",
    actions: "[]",
    operation: null,
    operationId: null,
    uiEffects: null,
    retentionPolicy: "UNTIL_RESOLVED",
    expiresAt: null,
    requestId: null,
    triggerType: "PRODUCER",
    triggerRef: null,
    engagementId: null,
    resolution: null,
    terminalReason: null,
    snoozedUntil: null,
    createdAt: input.now,
    updatedAt: input.now,
    deliveredAt: null,
    seenAt: null,
    dismissedAt: null,
    resolvedAt: null,
    expiredAt: null,
  };
}

/**
 * Row i of the list seed. createdAt grows by 37 ms per row, except that every tenth row shares
 * the previous row's millisecond, so the keyset's (createdAt = ? AND id < ?) branch is exercised.
 */
export function seededRow(personId: string, i: number, base: Date): NotificationRow {
  const offset = i * 37 - (i % 10 === 9 ? 37 : 0);
  const at = new Date(base.getTime() + offset);
  return publishedRow({ id: newId(), personId, key: `k${i}`, title: `Seeded notification ${i}`, body: "Seeded by the benchmark.", now: at });
}

/** The event-log snapshot Herald writes (serializeSnapshot: JSON of the domain record). */
export function snapshotOf(row: NotificationRow): string {
  const date = (v: Value) => (v instanceof Date ? v : null);
  const record: NotificationRecord = {
    id: String(row.id),
    scope: "PERSON",
    personId: row.personId as string,
    sessionId: null,
    key: String(row.key),
    revision: Number(row.revision),
    status: "PENDING",
    severity: "INFO",
    title: String(row.title),
    body: String(row.body),
    source: { plugin: String(row.sourcePlugin), subsystem: null },
    displayOverrides: {},
    actions: [],
    operation: null,
    uiEffects: null,
    retention: { policy: "UNTIL_RESOLVED", expiresAt: null, requestId: null },
    trigger: { type: "PRODUCER", ref: null },
    engagementId: null,
    requestId: null,
    resolution: null,
    terminalReason: null,
    snoozedUntil: null,
    createdAt: date(row.createdAt)!,
    updatedAt: date(row.updatedAt)!,
    deliveredAt: null,
    seenAt: null,
    dismissedAt: null,
    resolvedAt: null,
    expiredAt: null,
  };
  return JSON.stringify(record);
}

export interface ListQuery {
  personId: string;
  now: Date;
  after: { createdAt: Date; id: string } | null;
  limit: number;
}
