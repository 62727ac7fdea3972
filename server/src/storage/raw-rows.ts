// Rows of raw statements as the models type them. Raw results carry times and integers as the
// store keeps them (SQLite: ISO text and bigint), where Prisma's own queries hand back Dates and
// numbers. test/storage/notification-page-sql.test.ts checks these lists against the Prisma models.
import { storedDate } from "./stored-date.ts";
import type { Notification as NotificationRow, NotificationReceipt as ReceiptRow } from "./prisma-client/sqlite/client.ts";

// Every DateTime (and Int) column of the two models.
export const NOTIFICATION_DATE_COLUMNS = ["expiresAt", "snoozedUntil", "createdAt", "updatedAt", "deliveredAt", "seenAt", "readAt", "dismissedAt", "resolvedAt", "expiredAt"] as const;
export const NOTIFICATION_INT_COLUMNS = ["revision", "lockVersion"] as const;
export const RECEIPT_DATE_COLUMNS = ["deliveredAt", "seenAt", "readAt", "dismissedAt", "snoozedUntil", "updatedAt"] as const;
export const RECEIPT_COLUMNS = ["notificationId", "personId", "deliveredAt", "seenAt", "readAt", "dismissedAt", "dismissReason", "snoozedUntil", "updatedAt"] as const;

/** A raw Notification row (its columns only) with typed times and integers. */
export function toNotificationRow(raw: Record<string, unknown>): NotificationRow {
  const row: Record<string, unknown> = { ...raw };
  for (const column of NOTIFICATION_DATE_COLUMNS) row[column] = storedDate(row[column]);
  for (const column of NOTIFICATION_INT_COLUMNS) row[column] = Number(row[column]);
  return row as unknown as NotificationRow;
}

/** A raw NotificationReceipt row with typed times. */
export function toReceiptRow(raw: Record<string, unknown>): ReceiptRow {
  const receipt: Record<string, unknown> = { ...raw };
  for (const column of RECEIPT_DATE_COLUMNS) receipt[column] = storedDate(receipt[column]);
  return receipt as unknown as ReceiptRow;
}
