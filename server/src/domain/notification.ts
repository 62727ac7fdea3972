// The notification record as the domain sees it: the global state of one occurrence, plus a
// person's receipt for shared (APPLICATION) records. No I/O here.
import type { FormField } from "./form.ts";
import {
  type ActionKind,
  type DisplayFormat,
  type NotificationScope,
  type NotificationStatus,
  type Presentation,
  type RetentionPolicy,
  type Severity,
  type TriggerType,
  type Variant,
  isTerminal,
} from "./enums.ts";
import type { JsonObject, JsonValue } from "./json.ts";

export interface Display {
  format: DisplayFormat;
  title: string;
  body: string;
  variant: Variant;
  presentation: Presentation;
  dismissible: boolean;
}

export interface FollowUpAction {
  kind: ActionKind;
  id: string;
  label: string;
  url?: string | null;
  text?: string | null;
  actionId?: string | null;
  fixedParams?: JsonObject | null;
  assetId?: string | null;
  /** RUN_ACTION: fields the person fills in; "$form.<name>" in fixedParams takes their values. */
  form?: FormField[] | null;
}

export interface Operation {
  id: string;
  type: string | null;
  state: string | null;
  phase: string | null;
  elapsedSeconds: number | null;
  cancellable: boolean;
}

export interface Retention {
  policy: RetentionPolicy;
  expiresAt: Date | null;
  requestId: string | null;
}

export interface Resolution {
  actionId: string | null;
  values: JsonValue | null;
}

/** What a producer says about a notification; everything else is the service's. */
export interface NotificationContent {
  severity: Severity;
  title: string;
  body: string;
  source: { plugin: string; subsystem: string | null };
  /** Only the display fields the producer gave; the rest follow the content (see presentation.ts). */
  displayOverrides: Partial<Display>;
  actions: FollowUpAction[];
  operation: Operation | null;
  uiEffects: JsonObject | null;
  /** The producer's own JSON (at most limits.jsonBytes serialized); Herald never reads it. */
  data: JsonValue | null;
  retention: Retention;
  trigger: { type: TriggerType; ref: string | null };
  engagementId: string | null;
  requestId: string | null;
}

export interface Target {
  scope: NotificationScope;
  /** PERSON: the addressee; SESSION: the session owner; APPLICATION: null. */
  personId: string | null;
  sessionId: string | null;
}

export interface NotificationRecord extends Target, NotificationContent {
  id: string;
  key: string;
  revision: number;
  status: NotificationStatus;
  resolution: Resolution | null;
  terminalReason: string | null;
  snoozedUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
  deliveredAt: Date | null;
  seenAt: Date | null;
  /** Opened or acted on by its reader; null while unread. Reading state, like seenAt. */
  readAt: Date | null;
  dismissedAt: Date | null;
  resolvedAt: Date | null;
  expiredAt: Date | null;
}

/** One person's state of a shared record. */
export interface Receipt {
  notificationId: string;
  personId: string;
  deliveredAt: Date | null;
  seenAt: Date | null;
  readAt: Date | null;
  dismissedAt: Date | null;
  dismissReason: string | null;
  snoozedUntil: Date | null;
  /** Last change of this person's state; with the record's own updatedAt it orders their view. */
  updatedAt: Date | null;
}

/** Identifies the stream a key names: the scope target. */
export function targetKeyOf(target: Target): string {
  switch (target.scope) {
    case "APPLICATION":
      return "APPLICATION";
    case "PERSON":
      return `PERSON:${target.personId}`;
    case "SESSION":
      return `SESSION:${target.sessionId}`;
  }
}

/** The unique value that exists only while an occurrence is active (see prisma/models.prisma). */
export function activeKeyOf(target: Target, key: string): string {
  return `${targetKeyOf(target)}|${key}`;
}

/**
 * The `activeKey` a stored row carries: its activeKeyOf while active, null once terminal. So
 * `activeKey IS NOT NULL` is "active" in SQL, and the unique index keeps one active record per
 * target and key.
 */
export function storedActiveKey(record: Target & Pick<NotificationRecord, "status" | "key">): string | null {
  return isTerminal(record.status) ? null : activeKeyOf(record, record.key);
}

/**
 * Who may see a record: PERSON and SESSION records have one reader (the addressee or the session's
 * owner), APPLICATION ones are everyone's. The SQL of the lists states the same rule as a filter
 * (storage/notifications/notification-page-sql.ts); its tests hold the two together.
 */
export function visibleTo(personId: string, record: Pick<NotificationRecord, "scope" | "personId">): boolean {
  return record.scope === "APPLICATION" || record.personId === personId;
}
