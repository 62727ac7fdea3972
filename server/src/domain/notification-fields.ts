// Where each field of a notification record lives, in one table: its columns in the store, the
// GraphQL fields that show it, and whether a person's view of a shared record takes it from their
// receipt. The table is total by type (satisfies Record<keyof NotificationRecord, ...>): a field
// added to NotificationRecord fails to compile here until it is placed. Its users hold themselves
// to it: storage/notifications/notification-mapper.ts checks by type that these columns and the
// store's bookkeeping columns are exactly the table's columns; test/domain/notification-fields.test.ts
// checks the GraphQL fields against the schema and viewOf against `fromReceipt`; the shared
// render's allow-list (realtime/shared-render.ts) takes the GraphQL names from here. The steps of
// adding a field are in docs/adding-a-field.md.
import type { NotificationRecord } from "./notification.ts";

export interface FieldPlaces {
  /** The columns of the Notification table that store it (prisma/models.prisma). */
  readonly columns: readonly string[];
  /** The fields of the GraphQL type Notification that show it (none: not exposed). */
  readonly graphql: readonly string[];
  /** A person's view of a shared record takes it from their receipt (domain/lifecycle.ts viewOf). */
  readonly fromReceipt: boolean;
}

/** A field stored in the column of its name and shown by the GraphQL field of its name. */
const at = <C extends string>(column: C, fromReceipt = false) => ({ columns: [column] as const, graphql: [column] as const, fromReceipt });

export const NOTIFICATION_FIELDS = {
  id: at("id"),
  scope: at("scope"),
  personId: at("personId"),
  sessionId: at("sessionId"),
  key: at("key"),
  revision: at("revision"),
  status: at("status", true),
  severity: at("severity"),
  title: at("title"),
  body: at("body"),
  source: { columns: ["sourcePlugin", "sourceSubsystem"], graphql: ["source"], fromReceipt: false },
  // The producer's overrides only; GraphQL shows the display resolved from them (presentation.ts).
  displayOverrides: { columns: ["display"], graphql: ["display"], fromReceipt: false },
  actions: at("actions"),
  // operationId is the operation's id again, indexed for look-ups by operation.
  operation: { columns: ["operation", "operationId"], graphql: ["operation"], fromReceipt: false },
  // Dropped from the person's view once their status is terminal.
  uiEffects: at("uiEffects", true),
  data: at("data"),
  retention: { columns: ["retentionPolicy", "expiresAt"], graphql: ["retention"], fromReceipt: false },
  trigger: { columns: ["triggerType", "triggerRef"], graphql: ["trigger"], fromReceipt: false },
  // Shown as the engagement itself, which reads the caller's membership.
  engagementId: { columns: ["engagementId"], graphql: [], fromReceipt: false },
  requestId: at("requestId"),
  resolution: at("resolution"),
  terminalReason: at("terminalReason", true),
  snoozedUntil: at("snoozedUntil", true),
  createdAt: at("createdAt"),
  // The later of the record's and the person's receipt's.
  updatedAt: at("updatedAt", true),
  deliveredAt: at("deliveredAt", true),
  seenAt: at("seenAt", true),
  readAt: at("readAt", true),
  dismissedAt: at("dismissedAt", true),
  resolvedAt: at("resolvedAt"),
  expiredAt: at("expiredAt"),
} as const satisfies Record<keyof NotificationRecord, FieldPlaces>;

/** The store's own columns of the Notification table, which no field of the record is. */
export const NOTIFICATION_BOOKKEEPING_COLUMNS = ["activeKey", "targetKey", "lockVersion", "serverInstanceId", "dedupKey"] as const;

/** The GraphQL fields of Notification that show a field of the record (and read nothing else). */
export function notificationGraphqlFields(): string[] {
  return Object.values(NOTIFICATION_FIELDS).flatMap((places) => places.graphql);
}
