// Notification records for unit tests: a complete, ordinary record with the fields a test names.
import type { Notification } from "../../src/index.ts";

let sequence = 0;

export function notification(fields: Partial<Notification> = {}): Notification {
  const id = fields.id ?? `n${++sequence}`;
  const createdAt = fields.createdAt ?? "2026-01-01T10:00:00.000Z";
  return {
    __typename: "Notification",
    id,
    key: `key:${id}`,
    revision: 1,
    scope: "PERSON",
    sessionId: null,
    personId: "p1",
    status: "PENDING",
    severity: "INFO",
    title: `Title ${id}`,
    body: "",
    uiEffects: null,
    data: null,
    requestId: null,
    snoozedUntil: null,
    createdAt,
    updatedAt: fields.updatedAt ?? createdAt,
    deliveredAt: null,
    seenAt: null,
    readAt: null,
    dismissedAt: null,
    resolvedAt: null,
    expiredAt: null,
    source: { __typename: "NotificationSource", plugin: "tests", subsystem: null },
    display: {
      __typename: "NotificationDisplay",
      format: "TEXT",
      title: `Title ${id}`,
      body: "",
      bodyHtml: null,
      variant: "INFO",
      presentation: "BANNER",
      dismissible: true,
    },
    actions: [],
    operation: null,
    retention: { __typename: "NotificationRetention", policy: "UNTIL_RESOLVED", expiresAt: null, requestId: null },
    trigger: { __typename: "NotificationTrigger", type: "PRODUCER", ref: null },
    engagement: null,
    session: null,
    resolution: null,
    terminalReason: null,
    lastInvocation: null,
    ...fields,
  };
}

type Action = Notification["actions"][number];

export function action(fields: Partial<Action> & Pick<Action, "kind" | "id">): Action {
  return { __typename: "NotificationAction", label: fields.id, url: null, text: null, actionId: null, fixedParams: null, assetId: null, form: null, ...fields };
}
