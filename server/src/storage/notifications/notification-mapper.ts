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

/** A field of the record, read from the columns it names and from no other (the row it is given holds only those). */
interface FieldRead<V> {
  readonly columns: readonly (keyof Row)[];
  readonly decode: (row: Row) => V;
}
const reads = <C extends keyof Row, V>(columns: readonly C[], decode: (row: Pick<Row, C>) => V): FieldRead<V> => ({ columns, decode });
const json = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

/**
 * Each field of a record and the columns it is read from. A decoder sees only the columns it
 * names (by type), so a row that holds those columns gives the field exactly as a whole row would:
 * what lets a list read only the columns its selection needs (recordProjection).
 */
const FIELD_READS: { readonly [K in keyof NotificationRecord]: FieldRead<NotificationRecord[K]> } = {
  id: reads(["id"], (r) => r.id),
  scope: reads(["scope"], (r) => r.scope as NotificationScope),
  personId: reads(["personId"], (r) => r.personId),
  sessionId: reads(["sessionId"], (r) => r.sessionId),
  key: reads(["key"], (r) => r.key),
  revision: reads(["revision"], (r) => r.revision),
  status: reads(["status"], (r) => r.status as NotificationStatus),
  severity: reads(["severity"], (r) => r.severity as Severity),
  title: reads(["title"], (r) => r.title),
  body: reads(["body"], (r) => r.body),
  source: reads(["sourcePlugin", "sourceSubsystem"], (r) => ({ plugin: r.sourcePlugin, subsystem: r.sourceSubsystem })),
  displayOverrides: reads(["display"], (r) => JSON.parse(r.display) as Partial<Display>),
  actions: reads(["actions"], (r) => JSON.parse(r.actions) as FollowUpAction[]),
  operation: reads(["operation"], (r) => (r.operation ? (JSON.parse(r.operation) as Operation) : null)),
  uiEffects: reads(["uiEffects"], (r) => (r.uiEffects ? (JSON.parse(r.uiEffects) as JsonObject) : null)),
  data: reads(["data"], (r) => json<JsonValue>(r.data)),
  retention: reads(["retentionPolicy", "expiresAt", "requestId"], (r) => ({
    policy: r.retentionPolicy as RetentionPolicy,
    expiresAt: r.expiresAt,
    requestId: r.requestId,
  })),
  trigger: reads(["triggerType", "triggerRef"], (r) => ({ type: r.triggerType as TriggerType, ref: r.triggerRef })),
  engagementId: reads(["engagementId"], (r) => r.engagementId),
  requestId: reads(["requestId"], (r) => r.requestId),
  resolution: reads(["resolution"], (r) => (r.resolution ? (JSON.parse(r.resolution) as Resolution) : null)),
  terminalReason: reads(["terminalReason"], (r) => r.terminalReason),
  snoozedUntil: reads(["snoozedUntil"], (r) => r.snoozedUntil),
  createdAt: reads(["createdAt"], (r) => r.createdAt),
  updatedAt: reads(["updatedAt"], (r) => r.updatedAt),
  deliveredAt: reads(["deliveredAt"], (r) => r.deliveredAt),
  seenAt: reads(["seenAt"], (r) => r.seenAt),
  readAt: reads(["readAt"], (r) => r.readAt),
  dismissedAt: reads(["dismissedAt"], (r) => r.dismissedAt),
  resolvedAt: reads(["resolvedAt"], (r) => r.resolvedAt),
  expiredAt: reads(["expiredAt"], (r) => r.expiredAt),
};

type Field = keyof NotificationRecord;
const ALL_FIELDS = Object.keys(FIELD_READS) as Field[];

export function toRecord(row: Row): NotificationRecord {
  return fieldsOf(row, ALL_FIELDS) as NotificationRecord;
}

/**
 * Some fields of a record and the columns they are read from. A record built from such a row
 * (toProjectedRecord) holds only these fields: it is for a reader that reads no other (a GraphQL
 * selection), never for a write.
 */
export interface RecordProjection {
  readonly fields: readonly Field[];
  /** The Notification columns to select, each once. */
  readonly columns: readonly (keyof Row)[];
}

/** Fields every projection holds: a record's key (ids, cursors and order) and what a person's view of it turns on (viewOf). */
const KEPT: readonly Field[] = ["id", "createdAt", "scope", "status"];

export function recordProjection(fields: Iterable<Field>): RecordProjection {
  const chosen = [...new Set([...KEPT, ...fields])];
  return { fields: chosen, columns: [...new Set(chosen.flatMap((field) => FIELD_READS[field].columns))] };
}

/** The projection's fields of a row that holds (at least) the projection's columns. */
export function toProjectedRecord(row: Partial<Row>, projection: RecordProjection): NotificationRecord {
  return fieldsOf(row as Row, projection.fields) as NotificationRecord;
}

function fieldsOf(row: Row, fields: readonly Field[]): Partial<NotificationRecord> {
  const record: Record<string, unknown> = {};
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    record[field] = FIELD_READS[field].decode(row);
  }
  return record as Partial<NotificationRecord>;
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
