// The closed vocabularies of the public API (docs/api.md, "Enums"). Storage keeps these names as text.
export const NotificationScopes = ["APPLICATION", "SESSION", "PERSON"] as const;
export type NotificationScope = (typeof NotificationScopes)[number];

export const NotificationStatuses = ["PENDING", "DELIVERED", "SEEN", "DISMISSED", "RESOLVED", "EXPIRED"] as const;
export type NotificationStatus = (typeof NotificationStatuses)[number];
/**
 * Each status's place in a notification's life: the one statement of what "active" (not ended),
 * "terminal" (ended) and "unseen" mean; the lists below and the SQL's (an active row is one whose
 * `activeKey` is set, see storedActiveKey in notification.ts) are read from it. The SDK states the
 * same table for its clients; sdk/test/status-cases.ts holds both to it.
 */
export const StatusPhases = {
  PENDING: "unseen",
  DELIVERED: "unseen",
  SEEN: "seen",
  DISMISSED: "ended",
  RESOLVED: "ended",
  EXPIRED: "ended",
} as const satisfies Record<NotificationStatus, "unseen" | "seen" | "ended">;
export const ActiveStatuses: readonly NotificationStatus[] = NotificationStatuses.filter((s) => StatusPhases[s] !== "ended");
export const TerminalStatuses: readonly NotificationStatus[] = NotificationStatuses.filter((s) => StatusPhases[s] === "ended");
export const UnseenStatuses: readonly NotificationStatus[] = NotificationStatuses.filter((s) => StatusPhases[s] === "unseen");

export const Severities = ["INFO", "SUCCESS", "WARNING", "ERROR"] as const;
export type Severity = (typeof Severities)[number];
export type Variant = Severity;

export const Presentations = ["BANNER", "INLINE", "MODAL"] as const;
export type Presentation = (typeof Presentations)[number];

export const DisplayFormats = ["TEXT", "MARKDOWN"] as const;
export type DisplayFormat = (typeof DisplayFormats)[number];

export const TriggerTypes = ["TIME_BASED", "EVENT_BASED", "OBSERVATION", "PRODUCER"] as const;
export type TriggerType = (typeof TriggerTypes)[number];

export const RetentionPolicies = ["UNTIL_RESOLVED", "TTL", "UNTIL_REQUEST_COMPLETE", "UNTIL_SERVER_RESTART"] as const;
export type RetentionPolicy = (typeof RetentionPolicies)[number];

export const ActionKinds = ["RUN_ACTION", "OPEN_URL", "COPY_TEXT", "DOWNLOAD_ATTACHMENT_ASSET", "DISMISS"] as const;
export type ActionKind = (typeof ActionKinds)[number];

export const NotificationEventTypes = [
  "CREATED",
  "UPDATED",
  "DELIVERED",
  "SEEN",
  "DISMISSED",
  "RESOLVED",
  "EXPIRED",
  "SNOOZED",
  "UNSNOOZED",
  // The person's latest action invocation of the notification changed (run, acknowledged, failed).
  "INVOCATION",
  // The person opened or acted on it (READ), or asked to see it as new again (UNREAD).
  "READ",
  "UNREAD",
] as const;
export type NotificationEventType = (typeof NotificationEventTypes)[number];

export function isTerminal(status: NotificationStatus): boolean {
  return StatusPhases[status] === "ended";
}
