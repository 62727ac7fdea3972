// Rows <-> domain records. JSON columns are (de)serialized here and nowhere else.
import type { NotificationScope, NotificationStatus, RetentionPolicy, Severity, TriggerType } from "../../domain/enums.ts";
import type { JsonObject, JsonValue } from "../../domain/json.ts";
import type { Display, FollowUpAction, NotificationRecord, Operation, Receipt, Resolution } from "../../domain/notification.ts";
import type { NewNotification } from "../../domain/lifecycle.ts";
import type { NOTIFICATION_BOOKKEEPING_COLUMNS, NOTIFICATION_FIELDS } from "../../domain/notification-fields.ts";
import type { Row as StoredRow } from "../sql/stored-values.ts";

type Row = StoredRow<"Notification">;
type ReceiptRow = StoredRow<"NotificationReceipt">;

// Held to the field table (domain/notification-fields.ts) by type: every column of the table is
// placed there (a field's or the store's bookkeeping), every column placed there exists, and
// toColumns writes every one of them but the few an insert alone sets. A compile error here names
// the column that is missing from one side.
type Placed = (typeof NOTIFICATION_FIELDS)[keyof typeof NOTIFICATION_FIELDS]["columns"][number] | (typeof NOTIFICATION_BOOKKEEPING_COLUMNS)[number];
type SetOnInsertOnly = "id" | "createdAt" | "lockVersion" | "serverInstanceId" | "dedupKey";
const _everyColumnPlaced: Exclude<keyof Row, Placed> extends never ? true : { unplacedColumn: Exclude<keyof Row, Placed> } = true;
const _everyPlacedColumnExists: Exclude<Placed, keyof Row> extends never ? true : { unknownColumn: Exclude<Placed, keyof Row> } = true;
const _everyColumnWritten: Exclude<Placed, keyof ReturnType<typeof toColumns> | SetOnInsertOnly> extends never
  ? true
  : { unwrittenColumn: Exclude<Placed, keyof ReturnType<typeof toColumns> | SetOnInsertOnly> } = true;

export function toRecord(row: Row): NotificationRecord {
  return {
    id: row.id,
    scope: row.scope as NotificationScope,
    personId: row.personId,
    sessionId: row.sessionId,
    key: row.key,
    revision: row.revision,
    status: row.status as NotificationStatus,
    severity: row.severity as Severity,
    title: row.title,
    body: row.body,
    source: { plugin: row.sourcePlugin, subsystem: row.sourceSubsystem },
    displayOverrides: JSON.parse(row.display) as Partial<Display>,
    actions: JSON.parse(row.actions) as FollowUpAction[],
    operation: row.operation ? (JSON.parse(row.operation) as Operation) : null,
    uiEffects: row.uiEffects ? (JSON.parse(row.uiEffects) as JsonObject) : null,
    data: row.data === null ? null : (JSON.parse(row.data) as JsonValue),
    retention: { policy: row.retentionPolicy as RetentionPolicy, expiresAt: row.expiresAt, requestId: row.requestId },
    trigger: { type: row.triggerType as TriggerType, ref: row.triggerRef },
    engagementId: row.engagementId,
    requestId: row.requestId,
    resolution: row.resolution ? (JSON.parse(row.resolution) as Resolution) : null,
    terminalReason: row.terminalReason,
    snoozedUntil: row.snoozedUntil,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    deliveredAt: row.deliveredAt,
    seenAt: row.seenAt,
    readAt: row.readAt,
    dismissedAt: row.dismissedAt,
    resolvedAt: row.resolvedAt,
    expiredAt: row.expiredAt,
  };
}

/** Column values of a record, for insert and update alike (id and createdAt excepted). */
export function toColumns(record: NewNotification, activeKey: string | null, targetKey: string) {
  return {
    scope: record.scope,
    personId: record.personId,
    sessionId: record.sessionId,
    key: record.key,
    activeKey,
    targetKey,
    revision: record.revision,
    status: record.status,
    severity: record.severity,
    title: record.title,
    body: record.body,
    sourcePlugin: record.source.plugin,
    sourceSubsystem: record.source.subsystem,
    display: JSON.stringify(record.displayOverrides),
    actions: JSON.stringify(record.actions),
    operation: record.operation ? JSON.stringify(record.operation) : null,
    operationId: record.operation?.id ?? null,
    uiEffects: record.uiEffects ? JSON.stringify(record.uiEffects) : null,
    data: record.data === null ? null : JSON.stringify(record.data),
    retentionPolicy: record.retention.policy,
    expiresAt: record.retention.expiresAt,
    requestId: record.requestId,
    triggerType: record.trigger.type,
    triggerRef: record.trigger.ref,
    engagementId: record.engagementId,
    resolution: record.resolution ? JSON.stringify(record.resolution) : null,
    terminalReason: record.terminalReason,
    snoozedUntil: record.snoozedUntil,
    updatedAt: record.updatedAt,
    deliveredAt: record.deliveredAt,
    seenAt: record.seenAt,
    readAt: record.readAt,
    dismissedAt: record.dismissedAt,
    resolvedAt: record.resolvedAt,
    expiredAt: record.expiredAt,
  };
}

export function toReceipt(row: ReceiptRow): Receipt {
  return {
    notificationId: row.notificationId,
    personId: row.personId,
    deliveredAt: row.deliveredAt,
    seenAt: row.seenAt,
    readAt: row.readAt,
    dismissedAt: row.dismissedAt,
    dismissReason: row.dismissReason,
    snoozedUntil: row.snoozedUntil,
    updatedAt: row.updatedAt,
  };
}

// The event log's snapshot format lives in domain/ beside its parser, which the event path uses
// without storage; the log's writers (and bench/) take the serializer from here as before.
export { serializeSnapshot } from "../../domain/notification-snapshot.ts";
