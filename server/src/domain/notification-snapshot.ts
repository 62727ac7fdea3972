// The snapshot an event-log entry carries: the record as it was after the change, as JSON with
// dates as ISO strings. Written once per commit, parsed once per event by the streams that read it.
import type { NotificationRecord } from "./notification.ts";

export function serializeSnapshot(record: NotificationRecord): string {
  return JSON.stringify(record);
}

const dateFields = [
  "snoozedUntil",
  "createdAt",
  "updatedAt",
  "deliveredAt",
  "seenAt",
  "readAt",
  "dismissedAt",
  "resolvedAt",
  "expiredAt",
] as const satisfies readonly (keyof NotificationRecord)[];

// Every top-level Date field of the record is revived: a new one fails to compile here until it is listed.
type DateField = { [K in keyof NotificationRecord]: Date extends NotificationRecord[K] ? K : never }[keyof NotificationRecord];
const _everyDateRevived: Exclude<DateField, (typeof dateFields)[number]> extends never
  ? true
  : { unrevivedDate: Exclude<DateField, (typeof dateFields)[number]> } = true;

export function parseSnapshot(text: string): NotificationRecord {
  const raw = JSON.parse(text) as Record<string, unknown>;
  for (const field of dateFields) raw[field] = raw[field] ? new Date(raw[field] as string) : null;
  const retention = raw.retention as { expiresAt: string | Date | null };
  retention.expiresAt = retention.expiresAt ? new Date(retention.expiresAt) : null;
  return raw as unknown as NotificationRecord;
}
