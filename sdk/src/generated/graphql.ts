/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
export type ActionInput = {
  actionId?: string | null | undefined;
  assetId?: string | null | undefined;
  fixedParams?: unknown;
  /** RUN_ACTION: fields the person fills in before it runs. */
  form?: Array<FormFieldInput> | null | undefined;
  id: string;
  kind: NotificationActionKind;
  label: string;
  text?: string | null | undefined;
  url?: string | null | undefined;
};

export type ActionInvocationOutcome =
  | 'ACKNOWLEDGED'
  | 'FAILED';

export type ActionInvocationState =
  | 'ACKNOWLEDGED'
  | 'FAILED'
  | 'PENDING';

export type AddEngagementMemberInput = {
  engagementId: string;
  personId: string;
  role?: string | null | undefined;
};

export type AddNtfyChannelInput = {
  label?: string | null | undefined;
  /** Sent as a bearer token; never returned. */
  token?: string | null | undefined;
  /** The full topic URL, e.g. https://ntfy.sh/my-topic. */
  url: string;
};

/** A PushSubscription as the browser gives it: endpoint and its keys p256dh and auth (base64url). */
export type AddWebPushChannelInput = {
  auth: string;
  endpoint: string;
  label?: string | null | undefined;
  p256dh: string;
};

export type AddWebhookChannelInput = {
  label?: string | null | undefined;
  url: string;
};

/** WEB_PUSH: a browser push subscription; NTFY: an ntfy topic URL (JSON publish); WEBHOOK: an HTTPS endpoint signed per Standard Webhooks. */
export type ChannelKind =
  | 'NTFY'
  | 'WEBHOOK'
  | 'WEB_PUSH';

/** Given fields replace the current ones; absent ones stay. */
export type ChannelRulesInput = {
  delaySeconds?: number | null | undefined;
  minSeverity?: Severity | null | undefined;
  scopes?: Array<NotificationScope> | null | undefined;
};

export type CreateEngagementInput = {
  name: string;
  operatorPersonId: string;
};

export type CreateSessionInput = {
  harness: string;
  ownerPersonId: string;
  /** The harness's own session id. */
  sessionId: string;
};

/** PENDING: waiting (due later, held, or being retried); SENT; FAILED: given up; SKIPPED: not sent (seen, ended or replaced before it was due). */
export type DeliveryStatus =
  | 'FAILED'
  | 'PENDING'
  | 'SENT'
  | 'SKIPPED';

export type DisplayFormat =
  | 'MARKDOWN'
  | 'TEXT';

/** Fields left out follow the notification: title, body, severity and the scope's presentation. */
export type DisplayInput = {
  body?: string | null | undefined;
  dismissible?: boolean | null | undefined;
  format?: DisplayFormat | null | undefined;
  presentation?: Presentation | null | undefined;
  title?: string | null | undefined;
  variant?: Variant | null | undefined;
};

export type EmitEventInput = {
  /** Who caused it: never notified of their own doing. */
  actorPersonId?: string | null | undefined;
  engagementId?: string | null | undefined;
  /** This producer key's own: the same key with the same event again returns the first result and changes nothing; with a different event it is a ValidationError on idempotencyKey. */
  idempotencyKey?: string | null | undefined;
  /** Defaults to when Herald received it. */
  occurredAt?: string | null | undefined;
  /** A JSON object; `id` is the engine event id (the notifications' trigger.ref). */
  payload?: unknown;
  /** The engine's event type, e.g. render.produced. Unknown types are recorded and notify no one. */
  type: string;
};

/** One field of a RUN_ACTION form; fixedParams entries written "$form.<name>" receive its value. */
export type FormFieldInput = {
  label: string;
  /** TEXT and TEXTAREA: longest accepted value (default 2000). */
  maxLength?: number | null | undefined;
  /** 1-64 letters, digits or _; referenced as $form.<name>. */
  name: string;
  /** SELECT only: the values to choose from. */
  options?: Array<string> | null | undefined;
  placeholder?: string | null | undefined;
  required?: boolean | null | undefined;
  type: FormFieldType;
};

export type FormFieldType =
  | 'BOOLEAN'
  | 'NUMBER'
  | 'SELECT'
  | 'TEXT'
  | 'TEXTAREA';

export type NotificationActionKind =
  | 'COPY_TEXT'
  | 'DISMISS'
  | 'DOWNLOAD_ATTACHMENT_ASSET'
  | 'OPEN_URL'
  | 'RUN_ACTION';

export type NotificationEventType =
  | 'CREATED'
  | 'DELIVERED'
  | 'DISMISSED'
  | 'EXPIRED'
  | 'INVOCATION'
  | 'READ'
  | 'RESOLVED'
  | 'SEEN'
  | 'SNOOZED'
  | 'UNREAD'
  | 'UNSNOOZED'
  | 'UPDATED';

export type NotificationFilter = {
  engagementId?: string | null | undefined;
  /** Leaves out these source plugins (at most 100), e.g. the caller's muted sources; empty or absent: none. */
  excludePlugins?: Array<string> | null | undefined;
  includeSnoozed?: boolean | null | undefined;
  includeTerminal?: boolean | null | undefined;
  /** Only these source plugins (at most 100); empty or absent: all. */
  plugins?: Array<string> | null | undefined;
  scope?: NotificationScope | null | undefined;
  sessionId?: string | null | undefined;
  /** Only these severities; empty or absent: all. */
  severities?: Array<Severity> | null | undefined;
  /** When given, wins over includeTerminal. */
  statuses?: Array<NotificationStatus> | null | undefined;
  /** true: only unread (readAt null); false: only read; absent: both. */
  unread?: boolean | null | undefined;
};

/** Given fields replace the current ones; uiEffects apply to the new revision only. */
export type NotificationPatch = {
  actions?: Array<ActionInput> | null | undefined;
  body?: string | null | undefined;
  /** Your own data for your clients (any JSON, at most 16 KiB serialized); kept by patches that leave it out, cleared by null. */
  data?: unknown;
  display?: DisplayInput | null | undefined;
  engagementId?: string | null | undefined;
  operation?: OperationInput | null | undefined;
  requestId?: string | null | undefined;
  retention?: RetentionInput | null | undefined;
  severity?: Severity | null | undefined;
  source?: SourceInput | null | undefined;
  title?: string | null | undefined;
  trigger?: TriggerInput | null | undefined;
  uiEffects?: unknown;
};

/** Names the active occurrence of a key, as publishNotification does, instead of its id. */
export type NotificationPatchTarget = {
  key: string;
  /** PERSON scope: the addressee. */
  personId?: string | null | undefined;
  scope: NotificationScope;
  /** SESSION scope: a Herald Session.id. */
  sessionId?: string | null | undefined;
};

export type NotificationScope =
  | 'APPLICATION'
  | 'PERSON'
  | 'SESSION';

/** PENDING, DELIVERED and SEEN are active; the rest are terminal. Unseen is PENDING or DELIVERED. */
export type NotificationStatus =
  | 'DELIVERED'
  | 'DISMISSED'
  | 'EXPIRED'
  | 'PENDING'
  | 'RESOLVED'
  | 'SEEN';

export type OperationInput = {
  cancellable?: boolean | null | undefined;
  elapsedSeconds?: number | null | undefined;
  /** One execution; guards the key against late updates of older ones. */
  id: string;
  phase?: string | null | undefined;
  state?: string | null | undefined;
  type?: string | null | undefined;
};

/** Given fields replace the current ones; absent ones are kept. quietHours: null removes the schedule. */
export type PreferencesInput = {
  /** The whole list of plugins muted now (at most 100); [] unmutes all. A listed plugin already muted keeps its end; a new one is muted until unmuted. */
  mutedPlugins?: Array<string> | null | undefined;
  quietHours?: QuietHoursInput | null | undefined;
  quietMode?: boolean | null | undefined;
  severityFloor?: Severity | null | undefined;
};

export type Presentation =
  | 'BANNER'
  | 'INLINE'
  | 'MODAL';

export type PublishNotificationInput = {
  actions?: Array<ActionInput> | null | undefined;
  body?: string | null | undefined;
  /** Your own data for your clients (any JSON, at most 16 KiB serialized); kept by patches that leave it out, cleared by null. */
  data?: unknown;
  display?: DisplayInput | null | undefined;
  engagementId?: string | null | undefined;
  /** Names the stream within the scope target. */
  key: string;
  operation?: OperationInput | null | undefined;
  /** PERSON scope: the addressee. */
  personId?: string | null | undefined;
  requestId?: string | null | undefined;
  retention?: RetentionInput | null | undefined;
  scope: NotificationScope;
  /** SESSION scope: a Herald Session.id. */
  sessionId?: string | null | undefined;
  severity?: Severity | null | undefined;
  source: SourceInput;
  title: string;
  trigger?: TriggerInput | null | undefined;
  uiEffects?: unknown;
};

/** An OBSERVATION offering to remember a fact; Herald adds the “Remember this” and “Not now” follow-ups. */
export type PublishObservationInput = {
  body?: string | null | undefined;
  engagementId?: string | null | undefined;
  /** What “Remember this” stores in the person's memory. */
  fact: string;
  /** Defaults to one derived from the fact: the same offer updates in place. */
  key?: string | null | undefined;
  personId: string;
  source: SourceInput;
  title?: string | null | undefined;
};

export type QuietHoursInput = {
  allowErrors?: boolean | null | undefined;
  /** "HH:MM", 24 h; before start: spans midnight; must differ from start. */
  end: string;
  /** "HH:MM", 24 h. */
  start: string;
  /** An IANA time zone, e.g. Europe/Berlin. */
  timeZone: string;
};

export type RememberFactInput = {
  content: string;
  /** The engagement the fact is about: remembering it counts as activity there. */
  engagementId?: string | null | undefined;
  personId: string;
};

/** One completed exchange (a user turn and the assistant's answer) of an agent session. */
export type ReportExchangeInput = {
  /** The start of it becomes the notification body. */
  assistantText: string;
  /** The harness's id of this completion. Distinct ids count as exchanges; a retry with the same id changes nothing. Without one the exchange notifies but is not counted. */
  completionId?: string | null | undefined;
  /** The session's working directory; its last component names the session until it has a label. */
  cwd: string;
  /** pi, claude-code, codex or opencode. */
  harness: string;
  /** Creates the session for this person when it does not exist yet. */
  personId?: string | null | undefined;
  /** The harness's own session id: 1-128 characters of A-Za-z0-9._:- not starting with . or -. */
  sessionId: string;
  userText: string;
};

export type ResolutionInput = {
  actionId?: string | null | undefined;
  values?: unknown;
};

export type RetentionInput = {
  expiresAt?: string | null | undefined;
  policy: RetentionPolicy;
  requestId?: string | null | undefined;
};

export type RetentionPolicy =
  | 'TTL'
  | 'UNTIL_REQUEST_COMPLETE'
  | 'UNTIL_RESOLVED'
  | 'UNTIL_SERVER_RESTART';

export type Severity =
  | 'ERROR'
  | 'INFO'
  | 'SUCCESS'
  | 'WARNING';

export type SourceInput = {
  plugin: string;
  subsystem?: string | null | undefined;
};

export type TriggerInput = {
  ref?: string | null | undefined;
  type: TriggerType;
};

export type TriggerType =
  | 'EVENT_BASED'
  | 'OBSERVATION'
  | 'PRODUCER'
  | 'TIME_BASED';

export type Variant =
  | 'ERROR'
  | 'INFO'
  | 'SUCCESS'
  | 'WARNING';

export type ChannelFieldsFragment = { __typename: 'Channel', id: string, kind: ChannelKind, label: string, createdAt: string, failing: boolean, lastDeliveryAt: string | null, rules: { __typename: 'ChannelRules', minSeverity: Severity, scopes: Array<NotificationScope>, delaySeconds: number } };

export type ChannelDeliveryFieldsFragment = { __typename: 'ChannelDelivery', id: string, notificationId: string | null, revision: number, type: string, status: DeliveryStatus, attempts: number, lastError: string | null, createdAt: string, sentAt: string | null, channel: { __typename: 'Channel', id: string, kind: ChannelKind, label: string } };

export type ViewerChannelsQueryVariables = Exact<{ [key: string]: never; }>;


export type ViewerChannelsQuery = { __typename: 'Query', viewer: { __typename: 'Person', id: string, channels: Array<{ __typename: 'Channel', id: string, kind: ChannelKind, label: string, createdAt: string, failing: boolean, lastDeliveryAt: string | null, rules: { __typename: 'ChannelRules', minSeverity: Severity, scopes: Array<NotificationScope>, delaySeconds: number } }>, recentDeliveries: Array<{ __typename: 'ChannelDelivery', id: string, notificationId: string | null, revision: number, type: string, status: DeliveryStatus, attempts: number, lastError: string | null, createdAt: string, sentAt: string | null, channel: { __typename: 'Channel', id: string, kind: ChannelKind, label: string } }> } };

export type WebPushPublicKeyQueryVariables = Exact<{ [key: string]: never; }>;


export type WebPushPublicKeyQuery = { __typename: 'Query', webPushPublicKey: string };

export type ChannelDeliveryByIdQueryVariables = Exact<{
  id: string;
}>;


export type ChannelDeliveryByIdQuery = { __typename: 'Query', channelDelivery: { __typename: 'ChannelDelivery', id: string, notificationId: string | null, revision: number, type: string, status: DeliveryStatus, attempts: number, lastError: string | null, createdAt: string, sentAt: string | null, channel: { __typename: 'Channel', id: string, kind: ChannelKind, label: string } } | null };

export type NotificationDeliveriesQueryVariables = Exact<{
  id: string;
}>;


export type NotificationDeliveriesQuery = { __typename: 'Query', notification: { __typename: 'Notification', id: string, deliveries: Array<{ __typename: 'ChannelDelivery', id: string, notificationId: string | null, revision: number, type: string, status: DeliveryStatus, attempts: number, lastError: string | null, createdAt: string, sentAt: string | null, channel: { __typename: 'Channel', id: string, kind: ChannelKind, label: string } }> } | null };

export type AddWebPushChannelMutationVariables = Exact<{
  input: AddWebPushChannelInput;
}>;


export type AddWebPushChannelMutation = { __typename: 'Mutation', addWebPushChannel:
    | { __typename: 'Channel', id: string, kind: ChannelKind, label: string, createdAt: string, failing: boolean, lastDeliveryAt: string | null, rules: { __typename: 'ChannelRules', minSeverity: Severity, scopes: Array<NotificationScope>, delaySeconds: number } }
    | { __typename: 'ValidationError', message: string, field: string }
   };

export type AddNtfyChannelMutationVariables = Exact<{
  input: AddNtfyChannelInput;
}>;


export type AddNtfyChannelMutation = { __typename: 'Mutation', addNtfyChannel:
    | { __typename: 'Channel', id: string, kind: ChannelKind, label: string, createdAt: string, failing: boolean, lastDeliveryAt: string | null, rules: { __typename: 'ChannelRules', minSeverity: Severity, scopes: Array<NotificationScope>, delaySeconds: number } }
    | { __typename: 'ValidationError', message: string, field: string }
   };

export type AddWebhookChannelMutationVariables = Exact<{
  input: AddWebhookChannelInput;
}>;


export type AddWebhookChannelMutation = { __typename: 'Mutation', addWebhookChannel:
    | { __typename: 'ValidationError', message: string, field: string }
    | { __typename: 'WebhookChannelCreated', secret: string, channel: { __typename: 'Channel', id: string, kind: ChannelKind, label: string, createdAt: string, failing: boolean, lastDeliveryAt: string | null, rules: { __typename: 'ChannelRules', minSeverity: Severity, scopes: Array<NotificationScope>, delaySeconds: number } } }
   };

export type SetChannelRulesMutationVariables = Exact<{
  id: string;
  rules: ChannelRulesInput;
}>;


export type SetChannelRulesMutation = { __typename: 'Mutation', setChannelRules:
    | { __typename: 'Channel', id: string, kind: ChannelKind, label: string, createdAt: string, failing: boolean, lastDeliveryAt: string | null, rules: { __typename: 'ChannelRules', minSeverity: Severity, scopes: Array<NotificationScope>, delaySeconds: number } }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'ValidationError', message: string, field: string }
   };

export type RemoveChannelMutationVariables = Exact<{
  id: string;
}>;


export type RemoveChannelMutation = { __typename: 'Mutation', removeChannel: boolean };

export type TestChannelMutationVariables = Exact<{
  id: string;
}>;


export type TestChannelMutation = { __typename: 'Mutation', testChannel: { __typename: 'ChannelDelivery', id: string, notificationId: string | null, revision: number, type: string, status: DeliveryStatus, attempts: number, lastError: string | null, createdAt: string, sentAt: string | null, channel: { __typename: 'Channel', id: string, kind: ChannelKind, label: string } } };

export type EmitEventMutationVariables = Exact<{
  input: EmitEventInput;
}>;


export type EmitEventMutation = { __typename: 'Mutation', emitEvent:
    | { __typename: 'EmitEventSuccess', eventId: string, type: string, listeners: Array<string>, duplicate: boolean, notifications: Array<{ __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null }> }
    | { __typename: 'ValidationError', message: string, field: string }
   };

export type PublishObservationMutationVariables = Exact<{
  input: PublishObservationInput;
}>;


export type PublishObservationMutation = { __typename: 'Mutation', publishObservation:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null }
    | { __typename: 'NotificationTransitionError', message: string, current: { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null } }
    | { __typename: 'OperationMismatchError', message: string, current: { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null } }
    | { __typename: 'ValidationError', message: string, field: string }
   };

export type PersonPreferencesQueryVariables = Exact<{
  personId: string;
}>;


export type PersonPreferencesQuery = { __typename: 'Query', personPreferences: { __typename: 'Preferences', quietMode: boolean } | null };

export type SetPersonQuietModeMutationVariables = Exact<{
  personId: string;
  enabled: boolean;
}>;


export type SetPersonQuietModeMutation = { __typename: 'Mutation', setPersonQuietMode: { __typename: 'Preferences', quietMode: boolean } };

export type PreferencesEventsSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type PreferencesEventsSubscription = { __typename: 'Subscription', preferencesEvents: { __typename: 'Preferences', quietMode: boolean, mutedPlugins: Array<string>, severityFloor: Severity, mutes: Array<{ __typename: 'PluginMute', plugin: string, until: string | null }>, quietHours: { __typename: 'QuietHours', start: string, end: string, timeZone: string, allowErrors: boolean } | null } };

export type NotificationFieldsFragment = { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null };

export type ViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ViewerQuery = { __typename: 'Query', viewer: { __typename: 'Person', id: string, name: string, preferences: { __typename: 'Preferences', quietMode: boolean, mutedPlugins: Array<string>, severityFloor: Severity, mutes: Array<{ __typename: 'PluginMute', plugin: string, until: string | null }>, quietHours: { __typename: 'QuietHours', start: string, end: string, timeZone: string, allowErrors: boolean } | null } } };

export type NotificationsPageQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
  filter?: NotificationFilter | null | undefined;
}>;


export type NotificationsPageQuery = { __typename: 'Query', notifications: { __typename: 'NotificationConnection', totalCount: number, edges: Array<{ __typename: 'NotificationEdge', cursor: string, node: { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null } }>, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } };

export type NotificationByIdQueryVariables = Exact<{
  id: string;
}>;


export type NotificationByIdQuery = { __typename: 'Query', notification: { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null } | null };

export type NotificationCountsQueryVariables = Exact<{
  filter?: NotificationFilter | null | undefined;
}>;


export type NotificationCountsQuery = { __typename: 'Query', notificationCounts: { __typename: 'NotificationCounts', total: number, unseen: number, unread: number } };

export type MarkNotificationsSeenMutationVariables = Exact<{
  ids: Array<string> | string;
}>;


export type MarkNotificationsSeenMutation = { __typename: 'Mutation', markNotificationsSeen: Array<{ __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null }> };

export type MarkAllNotificationsSeenMutationVariables = Exact<{
  filter?: NotificationFilter | null | undefined;
}>;


export type MarkAllNotificationsSeenMutation = { __typename: 'Mutation', markAllNotificationsSeen: number };

export type MarkNotificationsReadMutationVariables = Exact<{
  ids: Array<string> | string;
}>;


export type MarkNotificationsReadMutation = { __typename: 'Mutation', markNotificationsRead: Array<{ __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null }> };

export type MarkNotificationsUnreadMutationVariables = Exact<{
  ids: Array<string> | string;
}>;


export type MarkNotificationsUnreadMutation = { __typename: 'Mutation', markNotificationsUnread: Array<{ __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null }> };

export type MarkAllNotificationsReadMutationVariables = Exact<{
  filter?: NotificationFilter | null | undefined;
}>;


export type MarkAllNotificationsReadMutation = { __typename: 'Mutation', markAllNotificationsRead: number };

export type DismissNotificationMutationVariables = Exact<{
  id: string;
  expectedRevision?: number | null | undefined;
  reason?: string | null | undefined;
}>;


export type DismissNotificationMutation = { __typename: 'Mutation', dismissNotification:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null }
    | { __typename: 'NotificationTransitionError', message: string, current: { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null } }
    | { __typename: 'RevisionConflictError', message: string, current: { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null } }
    | { __typename: 'ValidationError', message: string, field: string }
   };

export type SnoozeNotificationMutationVariables = Exact<{
  id: string;
  until: string;
}>;


export type SnoozeNotificationMutation = { __typename: 'Mutation', snoozeNotification: { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null } };

export type UnsnoozeNotificationMutationVariables = Exact<{
  id: string;
}>;


export type UnsnoozeNotificationMutation = { __typename: 'Mutation', unsnoozeNotification: { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null } };

export type SetQuietModeMutationVariables = Exact<{
  enabled: boolean;
}>;


export type SetQuietModeMutation = { __typename: 'Mutation', setQuietMode: { __typename: 'Preferences', quietMode: boolean } };

export type InvokeNotificationActionMutationVariables = Exact<{
  id: string;
  actionId: string;
  values?: unknown;
  invocationId?: string | null | undefined;
}>;


export type InvokeNotificationActionMutation = { __typename: 'Mutation', invokeNotificationAction: { __typename: 'ActionInvocation', id: string, notificationId: string, notificationKey: string, actionId: string, targetActionId: string, fixedParams: unknown, values: unknown, personId: string, plugin: string, invokedAt: string, cursor: string, state: ActionInvocationState, outcomeMessage: string | null, presentation: Presentation, variant: Variant, uiEffects: unknown, acknowledgedAt: string | null, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } };

export type NotificationEventsSubscriptionVariables = Exact<{
  after?: string | null | undefined;
}>;


export type NotificationEventsSubscription = { __typename: 'Subscription', notificationEvents: { __typename: 'NotificationEvent', cursor: string, type: NotificationEventType, notification: { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null } } };

export type NotificationEventsCursorQueryVariables = Exact<{ [key: string]: never; }>;


export type NotificationEventsCursorQuery = { __typename: 'Query', notificationEventsCursor: string };

export type SessionByIdQueryVariables = Exact<{
  id: string;
}>;


export type SessionByIdQuery = { __typename: 'Query', sessionById: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null };

export type EngagementByIdQueryVariables = Exact<{
  id: string;
}>;


export type EngagementByIdQuery = { __typename: 'Query', engagement: { __typename: 'Engagement', id: string, name: string } | null };

export type SignOutMutationVariables = Exact<{ [key: string]: never; }>;


export type SignOutMutation = { __typename: 'Mutation', signOut: boolean };

export type ActionInvocationFieldsFragment = { __typename: 'ActionInvocation', id: string, notificationId: string, notificationKey: string, actionId: string, targetActionId: string, fixedParams: unknown, values: unknown, personId: string, plugin: string, invokedAt: string, cursor: string, state: ActionInvocationState, outcomeMessage: string | null, presentation: Presentation, variant: Variant, uiEffects: unknown, acknowledgedAt: string | null, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> };

type PublishResultFields_NotFoundError_Fragment = { __typename: 'NotFoundError', message: string };

type PublishResultFields_Notification_Fragment = { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null };

type PublishResultFields_NotificationTransitionError_Fragment = { __typename: 'NotificationTransitionError', message: string, current: { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null } };

type PublishResultFields_OperationMismatchError_Fragment = { __typename: 'OperationMismatchError', message: string, current: { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null } };

type PublishResultFields_ValidationError_Fragment = { __typename: 'ValidationError', message: string, field: string };

export type PublishResultFieldsFragment =
  | PublishResultFields_NotFoundError_Fragment
  | PublishResultFields_Notification_Fragment
  | PublishResultFields_NotificationTransitionError_Fragment
  | PublishResultFields_OperationMismatchError_Fragment
  | PublishResultFields_ValidationError_Fragment
;

type ResolveResultFields_NotFoundError_Fragment = { __typename: 'NotFoundError', message: string };

type ResolveResultFields_Notification_Fragment = { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null };

type ResolveResultFields_NotificationTransitionError_Fragment = { __typename: 'NotificationTransitionError', message: string, current: { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null } };

type ResolveResultFields_OperationMismatchError_Fragment = { __typename: 'OperationMismatchError', message: string, current: { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null } };

type ResolveResultFields_ValidationError_Fragment = { __typename: 'ValidationError', message: string, field: string };

export type ResolveResultFieldsFragment =
  | ResolveResultFields_NotFoundError_Fragment
  | ResolveResultFields_Notification_Fragment
  | ResolveResultFields_NotificationTransitionError_Fragment
  | ResolveResultFields_OperationMismatchError_Fragment
  | ResolveResultFields_ValidationError_Fragment
;

export type PublishNotificationMutationVariables = Exact<{
  input: PublishNotificationInput;
}>;


export type PublishNotificationMutation = { __typename: 'Mutation', publishNotification:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null }
    | { __typename: 'NotificationTransitionError', message: string, current: { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null } }
    | { __typename: 'OperationMismatchError', message: string, current: { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null } }
    | { __typename: 'ValidationError', message: string, field: string }
   };

export type UpdateNotificationMutationVariables = Exact<{
  id: string;
  patch: NotificationPatch;
}>;


export type UpdateNotificationMutation = { __typename: 'Mutation', updateNotification:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null }
    | { __typename: 'NotificationTransitionError', message: string, current: { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null } }
    | { __typename: 'OperationMismatchError', message: string, current: { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null } }
    | { __typename: 'ValidationError', message: string, field: string }
   };

export type UpdateNotificationByKeyMutationVariables = Exact<{
  target: NotificationPatchTarget;
  patch: NotificationPatch;
}>;


export type UpdateNotificationByKeyMutation = { __typename: 'Mutation', updateNotificationByKey:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null }
    | { __typename: 'NotificationTransitionError', message: string, current: { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null } }
    | { __typename: 'OperationMismatchError', message: string, current: { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null } }
    | { __typename: 'ValidationError', message: string, field: string }
   };

export type ResolveNotificationMutationVariables = Exact<{
  id: string;
  resolution?: ResolutionInput | null | undefined;
  operationId?: string | null | undefined;
}>;


export type ResolveNotificationMutation = { __typename: 'Mutation', resolveNotification:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null }
    | { __typename: 'NotificationTransitionError', message: string, current: { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null } }
    | { __typename: 'OperationMismatchError', message: string, current: { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null } }
    | { __typename: 'ValidationError', message: string, field: string }
   };

export type ExpireNotificationMutationVariables = Exact<{
  id: string;
  reason?: string | null | undefined;
  operationId?: string | null | undefined;
}>;


export type ExpireNotificationMutation = { __typename: 'Mutation', expireNotification:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null }
    | { __typename: 'NotificationTransitionError', message: string, current: { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null } }
    | { __typename: 'OperationMismatchError', message: string, current: { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null } }
    | { __typename: 'ValidationError', message: string, field: string }
   };

export type CompleteRequestMutationVariables = Exact<{
  requestId: string;
}>;


export type CompleteRequestMutation = { __typename: 'Mutation', completeRequest: number };

export type CreatePersonMutationVariables = Exact<{
  name: string;
}>;


export type CreatePersonMutation = { __typename: 'Mutation', createPerson: { __typename: 'Person', id: string, name: string } };

export type IssuePersonTokenMutationVariables = Exact<{
  personId: string;
  name?: string | null | undefined;
}>;


export type IssuePersonTokenMutation = { __typename: 'Mutation', issuePersonToken: { __typename: 'IssuedCredential', id: string, token: string } };

export type CreateSessionMutationVariables = Exact<{
  input: CreateSessionInput;
}>;


export type CreateSessionMutation = { __typename: 'Mutation', createSession: { __typename: 'Session', id: string, harness: string, sessionId: string, ownerPersonId: string, label: string } };

export type ActionInvocationsSubscriptionVariables = Exact<{
  plugin?: string | null | undefined;
  after?: string | null | undefined;
}>;


export type ActionInvocationsSubscription = { __typename: 'Subscription', actionInvocations: { __typename: 'ActionInvocation', id: string, notificationId: string, notificationKey: string, actionId: string, targetActionId: string, fixedParams: unknown, values: unknown, personId: string, plugin: string, invokedAt: string, cursor: string, state: ActionInvocationState, outcomeMessage: string | null, presentation: Presentation, variant: Variant, uiEffects: unknown, acknowledgedAt: string | null, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } };

export type ActionInvocationPageQueryVariables = Exact<{
  plugin?: string | null | undefined;
  after?: string | null | undefined;
  first?: number | null | undefined;
}>;


export type ActionInvocationPageQuery = { __typename: 'Query', actionInvocations: { __typename: 'ActionInvocationPage', cursor: string, hasMore: boolean, items: Array<{ __typename: 'ActionInvocation', id: string, notificationId: string, notificationKey: string, actionId: string, targetActionId: string, fixedParams: unknown, values: unknown, personId: string, plugin: string, invokedAt: string, cursor: string, state: ActionInvocationState, outcomeMessage: string | null, presentation: Presentation, variant: Variant, uiEffects: unknown, acknowledgedAt: string | null, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> }> } };

export type AcknowledgeActionInvocationMutationVariables = Exact<{
  id: string;
  outcome: ActionInvocationOutcome;
  message?: string | null | undefined;
  display?: DisplayInput | null | undefined;
  actions?: Array<ActionInput> | ActionInput | null | undefined;
  uiEffects?: unknown;
}>;


export type AcknowledgeActionInvocationMutation = { __typename: 'Mutation', acknowledgeActionInvocation:
    | { __typename: 'ActionInvocation', id: string, notificationId: string, notificationKey: string, actionId: string, targetActionId: string, fixedParams: unknown, values: unknown, personId: string, plugin: string, invokedAt: string, cursor: string, state: ActionInvocationState, outcomeMessage: string | null, presentation: Presentation, variant: Variant, uiEffects: unknown, acknowledgedAt: string | null, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'ValidationError', message: string, field: string }
   };

export type IssueSignInCodeMutationVariables = Exact<{
  personId: string;
}>;


export type IssueSignInCodeMutation = { __typename: 'Mutation', issueSignInCode: { __typename: 'SignInCode', code: string, expiresAt: string } };

export type RedeemSignInCodeMutationVariables = Exact<{
  code: string;
}>;


export type RedeemSignInCodeMutation = { __typename: 'Mutation', redeemSignInCode: { __typename: 'IssuedCredential', id: string, kind: string, token: string } };

export type CreateEngagementMutationVariables = Exact<{
  input: CreateEngagementInput;
}>;


export type CreateEngagementMutation = { __typename: 'Mutation', createEngagement: { __typename: 'Engagement', id: string, name: string, operatorPersonId: string } };

export type AddEngagementMemberMutationVariables = Exact<{
  input: AddEngagementMemberInput;
}>;


export type AddEngagementMemberMutation = { __typename: 'Mutation', addEngagementMember: { __typename: 'EngagementMember', engagementId: string, personId: string, role: string } };

export type RememberFactMutationVariables = Exact<{
  input: RememberFactInput;
}>;


export type RememberFactMutation = { __typename: 'Mutation', rememberFact: { __typename: 'RememberedFact', id: string, personId: string, content: string, createdAt: string } };

export type SessionMetadataFieldsFragment = { __typename: 'Session', id: string, harness: string, sessionId: string, ownerPersonId: string, label: string, completionId: string, sourceGeneration: string, labelGeneration: string };

export type ReportExchangeMutationVariables = Exact<{
  input: ReportExchangeInput;
}>;


export type ReportExchangeMutation = { __typename: 'Mutation', reportExchange:
    | { __typename: 'ReportedExchange', duplicate: boolean, session: { __typename: 'Session', id: string, harness: string, sessionId: string, ownerPersonId: string, label: string, completionId: string, sourceGeneration: string, labelGeneration: string }, notification: { __typename: 'Notification', id: string, key: string, revision: number, scope: NotificationScope, sessionId: string | null, personId: string | null, status: NotificationStatus, severity: Severity, title: string, body: string, uiEffects: unknown, data: unknown, requestId: string | null, terminalReason: string | null, snoozedUntil: string | null, createdAt: string, updatedAt: string, deliveredAt: string | null, seenAt: string | null, readAt: string | null, dismissedAt: string | null, resolvedAt: string | null, expiredAt: string | null, source: { __typename: 'NotificationSource', plugin: string, subsystem: string | null }, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean }, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }>, lastInvocation: { __typename: 'ActionInvocation', id: string, state: ActionInvocationState, outcomeMessage: string | null, uiEffects: unknown, display: { __typename: 'NotificationDisplay', format: DisplayFormat, title: string, body: string, bodyHtml: string | null, variant: Variant, presentation: Presentation, dismissible: boolean } | null, actions: Array<{ __typename: 'NotificationAction', kind: NotificationActionKind, id: string, label: string, url: string | null, text: string | null, actionId: string | null, fixedParams: unknown, assetId: string | null, form: unknown }> } | null, operation: { __typename: 'NotificationOperation', id: string, type: string | null, state: string | null, phase: string | null, elapsedSeconds: number | null, cancellable: boolean } | null, retention: { __typename: 'NotificationRetention', policy: RetentionPolicy, expiresAt: string | null, requestId: string | null }, trigger: { __typename: 'NotificationTrigger', type: TriggerType, ref: string | null }, engagement: { __typename: 'Engagement', id: string, name: string } | null, session: { __typename: 'Session', id: string, harness: string, sessionId: string, label: string } | null, resolution: { __typename: 'NotificationResolution', actionId: string | null, values: unknown } | null } | null }
    | { __typename: 'ValidationError', message: string, field: string }
   };

export type SessionMetadataQueryVariables = Exact<{
  harness: string;
  sessionId: string;
}>;


export type SessionMetadataQuery = { __typename: 'Query', session: { __typename: 'Session', id: string, harness: string, sessionId: string, ownerPersonId: string, label: string, completionId: string, sourceGeneration: string, labelGeneration: string } | null };

export type UploadAssetMutationVariables = Exact<{
  file: Blob;
  filename?: string | null | undefined;
}>;


export type UploadAssetMutation = { __typename: 'Mutation', uploadAsset:
    | { __typename: 'Asset', id: string, filename: string, contentType: string, size: number, sha256: string, createdAt: string }
    | { __typename: 'ValidationError', message: string, field: string }
   };

export type PreferencesFieldsFragment = { __typename: 'Preferences', quietMode: boolean, mutedPlugins: Array<string>, severityFloor: Severity, mutes: Array<{ __typename: 'PluginMute', plugin: string, until: string | null }>, quietHours: { __typename: 'QuietHours', start: string, end: string, timeZone: string, allowErrors: boolean } | null };

export type ReaderPreferencesQueryVariables = Exact<{ [key: string]: never; }>;


export type ReaderPreferencesQuery = { __typename: 'Query', viewer: { __typename: 'Person', id: string, preferences: { __typename: 'Preferences', quietMode: boolean, mutedPlugins: Array<string>, severityFloor: Severity, mutes: Array<{ __typename: 'PluginMute', plugin: string, until: string | null }>, quietHours: { __typename: 'QuietHours', start: string, end: string, timeZone: string, allowErrors: boolean } | null } } };

export type UpdatePreferencesMutationVariables = Exact<{
  input: PreferencesInput;
}>;


export type UpdatePreferencesMutation = { __typename: 'Mutation', updatePreferences: { __typename: 'Preferences', quietMode: boolean, mutedPlugins: Array<string>, severityFloor: Severity, mutes: Array<{ __typename: 'PluginMute', plugin: string, until: string | null }>, quietHours: { __typename: 'QuietHours', start: string, end: string, timeZone: string, allowErrors: boolean } | null } };

export type MutePluginMutationVariables = Exact<{
  plugin: string;
  until?: string | null | undefined;
}>;


export type MutePluginMutation = { __typename: 'Mutation', mutePlugin: { __typename: 'Preferences', quietMode: boolean, mutedPlugins: Array<string>, severityFloor: Severity, mutes: Array<{ __typename: 'PluginMute', plugin: string, until: string | null }>, quietHours: { __typename: 'QuietHours', start: string, end: string, timeZone: string, allowErrors: boolean } | null } };

export type UnmutePluginMutationVariables = Exact<{
  plugin: string;
}>;


export type UnmutePluginMutation = { __typename: 'Mutation', unmutePlugin: { __typename: 'Preferences', quietMode: boolean, mutedPlugins: Array<string>, severityFloor: Severity, mutes: Array<{ __typename: 'PluginMute', plugin: string, until: string | null }>, quietHours: { __typename: 'QuietHours', start: string, end: string, timeZone: string, allowErrors: boolean } | null } };

export type DismissAllMutationVariables = Exact<{
  filter?: NotificationFilter | null | undefined;
}>;


export type DismissAllMutation = { __typename: 'Mutation', dismissAll: number };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const ChannelFieldsFragmentDoc = /*#__PURE__*/ new TypedDocumentString(`fragment ChannelFields on Channel{id kind label createdAt failing lastDeliveryAt rules{minSeverity scopes delaySeconds}}`, {"fragmentName":"ChannelFields"}) as unknown as TypedDocumentString<ChannelFieldsFragment, unknown>;
export const ChannelDeliveryFieldsFragmentDoc = /*#__PURE__*/ new TypedDocumentString(`fragment ChannelDeliveryFields on ChannelDelivery{id notificationId revision type status attempts lastError createdAt sentAt channel{id kind label}}`, {"fragmentName":"ChannelDeliveryFields"}) as unknown as TypedDocumentString<ChannelDeliveryFieldsFragment, unknown>;
export const ActionInvocationFieldsFragmentDoc = /*#__PURE__*/ new TypedDocumentString(`fragment ActionInvocationFields on ActionInvocation{id notificationId notificationKey actionId targetActionId fixedParams values personId plugin invokedAt cursor state outcomeMessage presentation variant display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}uiEffects acknowledgedAt}`, {"fragmentName":"ActionInvocationFields"}) as unknown as TypedDocumentString<ActionInvocationFieldsFragment, unknown>;
export const NotificationFieldsFragmentDoc = /*#__PURE__*/ new TypedDocumentString(`fragment NotificationFields on Notification{id key revision scope sessionId personId status severity title body source{plugin subsystem}display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}lastInvocation{id state outcomeMessage display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}uiEffects}operation{id type state phase elapsedSeconds cancellable}uiEffects data retention{policy expiresAt requestId}trigger{type ref}engagement{id name}session{id harness sessionId label}requestId resolution{actionId values}terminalReason snoozedUntil createdAt updatedAt deliveredAt seenAt readAt dismissedAt resolvedAt expiredAt}`, {"fragmentName":"NotificationFields"}) as unknown as TypedDocumentString<NotificationFieldsFragment, unknown>;
export const PublishResultFieldsFragmentDoc = /*#__PURE__*/ new TypedDocumentString(`fragment PublishResultFields on PublishNotificationResult{__typename ... on Notification{...NotificationFields}... on OperationMismatchError{message current{...NotificationFields}}... on NotificationTransitionError{message current{...NotificationFields}}... on NotFoundError{message}... on ValidationError{message field}}fragment NotificationFields on Notification{id key revision scope sessionId personId status severity title body source{plugin subsystem}display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}lastInvocation{id state outcomeMessage display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}uiEffects}operation{id type state phase elapsedSeconds cancellable}uiEffects data retention{policy expiresAt requestId}trigger{type ref}engagement{id name}session{id harness sessionId label}requestId resolution{actionId values}terminalReason snoozedUntil createdAt updatedAt deliveredAt seenAt readAt dismissedAt resolvedAt expiredAt}`, {"fragmentName":"PublishResultFields"}) as unknown as TypedDocumentString<PublishResultFieldsFragment, unknown>;
export const ResolveResultFieldsFragmentDoc = /*#__PURE__*/ new TypedDocumentString(`fragment ResolveResultFields on ResolveNotificationResult{__typename ... on Notification{...NotificationFields}... on OperationMismatchError{message current{...NotificationFields}}... on NotificationTransitionError{message current{...NotificationFields}}... on NotFoundError{message}... on ValidationError{message field}}fragment NotificationFields on Notification{id key revision scope sessionId personId status severity title body source{plugin subsystem}display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}lastInvocation{id state outcomeMessage display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}uiEffects}operation{id type state phase elapsedSeconds cancellable}uiEffects data retention{policy expiresAt requestId}trigger{type ref}engagement{id name}session{id harness sessionId label}requestId resolution{actionId values}terminalReason snoozedUntil createdAt updatedAt deliveredAt seenAt readAt dismissedAt resolvedAt expiredAt}`, {"fragmentName":"ResolveResultFields"}) as unknown as TypedDocumentString<ResolveResultFieldsFragment, unknown>;
export const SessionMetadataFieldsFragmentDoc = /*#__PURE__*/ new TypedDocumentString(`fragment SessionMetadataFields on Session{id harness sessionId ownerPersonId label completionId sourceGeneration labelGeneration}`, {"fragmentName":"SessionMetadataFields"}) as unknown as TypedDocumentString<SessionMetadataFieldsFragment, unknown>;
export const PreferencesFieldsFragmentDoc = /*#__PURE__*/ new TypedDocumentString(`fragment PreferencesFields on Preferences{quietMode mutedPlugins mutes{plugin until}severityFloor quietHours{start end timeZone allowErrors}}`, {"fragmentName":"PreferencesFields"}) as unknown as TypedDocumentString<PreferencesFieldsFragment, unknown>;
export const ViewerChannelsDocument = /*#__PURE__*/ new TypedDocumentString(`query ViewerChannels{viewer{id channels{...ChannelFields}recentDeliveries(first:20){...ChannelDeliveryFields}}}fragment ChannelFields on Channel{id kind label createdAt failing lastDeliveryAt rules{minSeverity scopes delaySeconds}}fragment ChannelDeliveryFields on ChannelDelivery{id notificationId revision type status attempts lastError createdAt sentAt channel{id kind label}}`) as unknown as TypedDocumentString<ViewerChannelsQuery, ViewerChannelsQueryVariables>;
export const WebPushPublicKeyDocument = /*#__PURE__*/ new TypedDocumentString(`query WebPushPublicKey{webPushPublicKey}`) as unknown as TypedDocumentString<WebPushPublicKeyQuery, WebPushPublicKeyQueryVariables>;
export const ChannelDeliveryByIdDocument = /*#__PURE__*/ new TypedDocumentString(`query ChannelDeliveryById($id:ID!){channelDelivery(id:$id){...ChannelDeliveryFields}}fragment ChannelDeliveryFields on ChannelDelivery{id notificationId revision type status attempts lastError createdAt sentAt channel{id kind label}}`) as unknown as TypedDocumentString<ChannelDeliveryByIdQuery, ChannelDeliveryByIdQueryVariables>;
export const NotificationDeliveriesDocument = /*#__PURE__*/ new TypedDocumentString(`query NotificationDeliveries($id:ID!){notification(id:$id){id deliveries{...ChannelDeliveryFields}}}fragment ChannelDeliveryFields on ChannelDelivery{id notificationId revision type status attempts lastError createdAt sentAt channel{id kind label}}`) as unknown as TypedDocumentString<NotificationDeliveriesQuery, NotificationDeliveriesQueryVariables>;
export const AddWebPushChannelDocument = /*#__PURE__*/ new TypedDocumentString(`mutation AddWebPushChannel($input:AddWebPushChannelInput!){addWebPushChannel(input:$input){__typename ... on Channel{...ChannelFields}... on ValidationError{message field}}}fragment ChannelFields on Channel{id kind label createdAt failing lastDeliveryAt rules{minSeverity scopes delaySeconds}}`) as unknown as TypedDocumentString<AddWebPushChannelMutation, AddWebPushChannelMutationVariables>;
export const AddNtfyChannelDocument = /*#__PURE__*/ new TypedDocumentString(`mutation AddNtfyChannel($input:AddNtfyChannelInput!){addNtfyChannel(input:$input){__typename ... on Channel{...ChannelFields}... on ValidationError{message field}}}fragment ChannelFields on Channel{id kind label createdAt failing lastDeliveryAt rules{minSeverity scopes delaySeconds}}`) as unknown as TypedDocumentString<AddNtfyChannelMutation, AddNtfyChannelMutationVariables>;
export const AddWebhookChannelDocument = /*#__PURE__*/ new TypedDocumentString(`mutation AddWebhookChannel($input:AddWebhookChannelInput!){addWebhookChannel(input:$input){__typename ... on WebhookChannelCreated{secret channel{...ChannelFields}}... on ValidationError{message field}}}fragment ChannelFields on Channel{id kind label createdAt failing lastDeliveryAt rules{minSeverity scopes delaySeconds}}`) as unknown as TypedDocumentString<AddWebhookChannelMutation, AddWebhookChannelMutationVariables>;
export const SetChannelRulesDocument = /*#__PURE__*/ new TypedDocumentString(`mutation SetChannelRules($id:ID!,$rules:ChannelRulesInput!){setChannelRules(id:$id,rules:$rules){__typename ... on Channel{...ChannelFields}... on ValidationError{message field}... on NotFoundError{message}}}fragment ChannelFields on Channel{id kind label createdAt failing lastDeliveryAt rules{minSeverity scopes delaySeconds}}`) as unknown as TypedDocumentString<SetChannelRulesMutation, SetChannelRulesMutationVariables>;
export const RemoveChannelDocument = /*#__PURE__*/ new TypedDocumentString(`mutation RemoveChannel($id:ID!){removeChannel(id:$id)}`) as unknown as TypedDocumentString<RemoveChannelMutation, RemoveChannelMutationVariables>;
export const TestChannelDocument = /*#__PURE__*/ new TypedDocumentString(`mutation TestChannel($id:ID!){testChannel(id:$id){...ChannelDeliveryFields}}fragment ChannelDeliveryFields on ChannelDelivery{id notificationId revision type status attempts lastError createdAt sentAt channel{id kind label}}`) as unknown as TypedDocumentString<TestChannelMutation, TestChannelMutationVariables>;
export const EmitEventDocument = /*#__PURE__*/ new TypedDocumentString(`mutation EmitEvent($input:EmitEventInput!){emitEvent(input:$input){__typename ... on EmitEventSuccess{eventId type listeners duplicate notifications{...NotificationFields}}... on ValidationError{message field}}}fragment NotificationFields on Notification{id key revision scope sessionId personId status severity title body source{plugin subsystem}display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}lastInvocation{id state outcomeMessage display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}uiEffects}operation{id type state phase elapsedSeconds cancellable}uiEffects data retention{policy expiresAt requestId}trigger{type ref}engagement{id name}session{id harness sessionId label}requestId resolution{actionId values}terminalReason snoozedUntil createdAt updatedAt deliveredAt seenAt readAt dismissedAt resolvedAt expiredAt}`) as unknown as TypedDocumentString<EmitEventMutation, EmitEventMutationVariables>;
export const PublishObservationDocument = /*#__PURE__*/ new TypedDocumentString(`mutation PublishObservation($input:PublishObservationInput!){publishObservation(input:$input){...PublishResultFields}}fragment NotificationFields on Notification{id key revision scope sessionId personId status severity title body source{plugin subsystem}display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}lastInvocation{id state outcomeMessage display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}uiEffects}operation{id type state phase elapsedSeconds cancellable}uiEffects data retention{policy expiresAt requestId}trigger{type ref}engagement{id name}session{id harness sessionId label}requestId resolution{actionId values}terminalReason snoozedUntil createdAt updatedAt deliveredAt seenAt readAt dismissedAt resolvedAt expiredAt}fragment PublishResultFields on PublishNotificationResult{__typename ... on Notification{...NotificationFields}... on OperationMismatchError{message current{...NotificationFields}}... on NotificationTransitionError{message current{...NotificationFields}}... on NotFoundError{message}... on ValidationError{message field}}`) as unknown as TypedDocumentString<PublishObservationMutation, PublishObservationMutationVariables>;
export const PersonPreferencesDocument = /*#__PURE__*/ new TypedDocumentString(`query PersonPreferences($personId:ID!){personPreferences(personId:$personId){quietMode}}`) as unknown as TypedDocumentString<PersonPreferencesQuery, PersonPreferencesQueryVariables>;
export const SetPersonQuietModeDocument = /*#__PURE__*/ new TypedDocumentString(`mutation SetPersonQuietMode($personId:ID!,$enabled:Boolean!){setPersonQuietMode(personId:$personId,enabled:$enabled){quietMode}}`) as unknown as TypedDocumentString<SetPersonQuietModeMutation, SetPersonQuietModeMutationVariables>;
export const PreferencesEventsDocument = /*#__PURE__*/ new TypedDocumentString(`subscription PreferencesEvents{preferencesEvents{...PreferencesFields}}fragment PreferencesFields on Preferences{quietMode mutedPlugins mutes{plugin until}severityFloor quietHours{start end timeZone allowErrors}}`) as unknown as TypedDocumentString<PreferencesEventsSubscription, PreferencesEventsSubscriptionVariables>;
export const ViewerDocument = /*#__PURE__*/ new TypedDocumentString(`query Viewer{viewer{id name preferences{...PreferencesFields}}}fragment PreferencesFields on Preferences{quietMode mutedPlugins mutes{plugin until}severityFloor quietHours{start end timeZone allowErrors}}`) as unknown as TypedDocumentString<ViewerQuery, ViewerQueryVariables>;
export const NotificationsPageDocument = /*#__PURE__*/ new TypedDocumentString(`query NotificationsPage($first:Int,$after:String,$last:Int,$before:String,$filter:NotificationFilter){notifications(first:$first after:$after last:$last before:$before filter:$filter){totalCount edges{cursor node{...NotificationFields}}pageInfo{hasNextPage hasPreviousPage startCursor endCursor}}}fragment NotificationFields on Notification{id key revision scope sessionId personId status severity title body source{plugin subsystem}display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}lastInvocation{id state outcomeMessage display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}uiEffects}operation{id type state phase elapsedSeconds cancellable}uiEffects data retention{policy expiresAt requestId}trigger{type ref}engagement{id name}session{id harness sessionId label}requestId resolution{actionId values}terminalReason snoozedUntil createdAt updatedAt deliveredAt seenAt readAt dismissedAt resolvedAt expiredAt}`) as unknown as TypedDocumentString<NotificationsPageQuery, NotificationsPageQueryVariables>;
export const NotificationByIdDocument = /*#__PURE__*/ new TypedDocumentString(`query NotificationById($id:ID!){notification(id:$id){...NotificationFields}}fragment NotificationFields on Notification{id key revision scope sessionId personId status severity title body source{plugin subsystem}display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}lastInvocation{id state outcomeMessage display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}uiEffects}operation{id type state phase elapsedSeconds cancellable}uiEffects data retention{policy expiresAt requestId}trigger{type ref}engagement{id name}session{id harness sessionId label}requestId resolution{actionId values}terminalReason snoozedUntil createdAt updatedAt deliveredAt seenAt readAt dismissedAt resolvedAt expiredAt}`) as unknown as TypedDocumentString<NotificationByIdQuery, NotificationByIdQueryVariables>;
export const NotificationCountsDocument = /*#__PURE__*/ new TypedDocumentString(`query NotificationCounts($filter:NotificationFilter){notificationCounts(filter:$filter){total unseen unread}}`) as unknown as TypedDocumentString<NotificationCountsQuery, NotificationCountsQueryVariables>;
export const MarkNotificationsSeenDocument = /*#__PURE__*/ new TypedDocumentString(`mutation MarkNotificationsSeen($ids:[ID!]!){markNotificationsSeen(ids:$ids){...NotificationFields}}fragment NotificationFields on Notification{id key revision scope sessionId personId status severity title body source{plugin subsystem}display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}lastInvocation{id state outcomeMessage display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}uiEffects}operation{id type state phase elapsedSeconds cancellable}uiEffects data retention{policy expiresAt requestId}trigger{type ref}engagement{id name}session{id harness sessionId label}requestId resolution{actionId values}terminalReason snoozedUntil createdAt updatedAt deliveredAt seenAt readAt dismissedAt resolvedAt expiredAt}`) as unknown as TypedDocumentString<MarkNotificationsSeenMutation, MarkNotificationsSeenMutationVariables>;
export const MarkAllNotificationsSeenDocument = /*#__PURE__*/ new TypedDocumentString(`mutation MarkAllNotificationsSeen($filter:NotificationFilter){markAllNotificationsSeen(filter:$filter)}`) as unknown as TypedDocumentString<MarkAllNotificationsSeenMutation, MarkAllNotificationsSeenMutationVariables>;
export const MarkNotificationsReadDocument = /*#__PURE__*/ new TypedDocumentString(`mutation MarkNotificationsRead($ids:[ID!]!){markNotificationsRead(ids:$ids){...NotificationFields}}fragment NotificationFields on Notification{id key revision scope sessionId personId status severity title body source{plugin subsystem}display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}lastInvocation{id state outcomeMessage display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}uiEffects}operation{id type state phase elapsedSeconds cancellable}uiEffects data retention{policy expiresAt requestId}trigger{type ref}engagement{id name}session{id harness sessionId label}requestId resolution{actionId values}terminalReason snoozedUntil createdAt updatedAt deliveredAt seenAt readAt dismissedAt resolvedAt expiredAt}`) as unknown as TypedDocumentString<MarkNotificationsReadMutation, MarkNotificationsReadMutationVariables>;
export const MarkNotificationsUnreadDocument = /*#__PURE__*/ new TypedDocumentString(`mutation MarkNotificationsUnread($ids:[ID!]!){markNotificationsUnread(ids:$ids){...NotificationFields}}fragment NotificationFields on Notification{id key revision scope sessionId personId status severity title body source{plugin subsystem}display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}lastInvocation{id state outcomeMessage display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}uiEffects}operation{id type state phase elapsedSeconds cancellable}uiEffects data retention{policy expiresAt requestId}trigger{type ref}engagement{id name}session{id harness sessionId label}requestId resolution{actionId values}terminalReason snoozedUntil createdAt updatedAt deliveredAt seenAt readAt dismissedAt resolvedAt expiredAt}`) as unknown as TypedDocumentString<MarkNotificationsUnreadMutation, MarkNotificationsUnreadMutationVariables>;
export const MarkAllNotificationsReadDocument = /*#__PURE__*/ new TypedDocumentString(`mutation MarkAllNotificationsRead($filter:NotificationFilter){markAllNotificationsRead(filter:$filter)}`) as unknown as TypedDocumentString<MarkAllNotificationsReadMutation, MarkAllNotificationsReadMutationVariables>;
export const DismissNotificationDocument = /*#__PURE__*/ new TypedDocumentString(`mutation DismissNotification($id:ID!,$expectedRevision:Int,$reason:String){dismissNotification(id:$id expectedRevision:$expectedRevision reason:$reason){__typename ... on Notification{...NotificationFields}... on RevisionConflictError{message current{...NotificationFields}}... on NotificationTransitionError{message current{...NotificationFields}}... on NotFoundError{message}... on ValidationError{message field}}}fragment NotificationFields on Notification{id key revision scope sessionId personId status severity title body source{plugin subsystem}display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}lastInvocation{id state outcomeMessage display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}uiEffects}operation{id type state phase elapsedSeconds cancellable}uiEffects data retention{policy expiresAt requestId}trigger{type ref}engagement{id name}session{id harness sessionId label}requestId resolution{actionId values}terminalReason snoozedUntil createdAt updatedAt deliveredAt seenAt readAt dismissedAt resolvedAt expiredAt}`) as unknown as TypedDocumentString<DismissNotificationMutation, DismissNotificationMutationVariables>;
export const SnoozeNotificationDocument = /*#__PURE__*/ new TypedDocumentString(`mutation SnoozeNotification($id:ID!,$until:DateTime!){snoozeNotification(id:$id,until:$until){...NotificationFields}}fragment NotificationFields on Notification{id key revision scope sessionId personId status severity title body source{plugin subsystem}display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}lastInvocation{id state outcomeMessage display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}uiEffects}operation{id type state phase elapsedSeconds cancellable}uiEffects data retention{policy expiresAt requestId}trigger{type ref}engagement{id name}session{id harness sessionId label}requestId resolution{actionId values}terminalReason snoozedUntil createdAt updatedAt deliveredAt seenAt readAt dismissedAt resolvedAt expiredAt}`) as unknown as TypedDocumentString<SnoozeNotificationMutation, SnoozeNotificationMutationVariables>;
export const UnsnoozeNotificationDocument = /*#__PURE__*/ new TypedDocumentString(`mutation UnsnoozeNotification($id:ID!){unsnoozeNotification(id:$id){...NotificationFields}}fragment NotificationFields on Notification{id key revision scope sessionId personId status severity title body source{plugin subsystem}display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}lastInvocation{id state outcomeMessage display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}uiEffects}operation{id type state phase elapsedSeconds cancellable}uiEffects data retention{policy expiresAt requestId}trigger{type ref}engagement{id name}session{id harness sessionId label}requestId resolution{actionId values}terminalReason snoozedUntil createdAt updatedAt deliveredAt seenAt readAt dismissedAt resolvedAt expiredAt}`) as unknown as TypedDocumentString<UnsnoozeNotificationMutation, UnsnoozeNotificationMutationVariables>;
export const SetQuietModeDocument = /*#__PURE__*/ new TypedDocumentString(`mutation SetQuietMode($enabled:Boolean!){setQuietMode(enabled:$enabled){quietMode}}`) as unknown as TypedDocumentString<SetQuietModeMutation, SetQuietModeMutationVariables>;
export const InvokeNotificationActionDocument = /*#__PURE__*/ new TypedDocumentString(`mutation InvokeNotificationAction($id:ID!,$actionId:String!,$values:JSON,$invocationId:ID){invokeNotificationAction(id:$id actionId:$actionId values:$values invocationId:$invocationId){...ActionInvocationFields}}fragment ActionInvocationFields on ActionInvocation{id notificationId notificationKey actionId targetActionId fixedParams values personId plugin invokedAt cursor state outcomeMessage presentation variant display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}uiEffects acknowledgedAt}`) as unknown as TypedDocumentString<InvokeNotificationActionMutation, InvokeNotificationActionMutationVariables>;
export const NotificationEventsDocument = /*#__PURE__*/ new TypedDocumentString(`subscription NotificationEvents($after:String){notificationEvents(after:$after){cursor type notification{...NotificationFields}}}fragment NotificationFields on Notification{id key revision scope sessionId personId status severity title body source{plugin subsystem}display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}lastInvocation{id state outcomeMessage display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}uiEffects}operation{id type state phase elapsedSeconds cancellable}uiEffects data retention{policy expiresAt requestId}trigger{type ref}engagement{id name}session{id harness sessionId label}requestId resolution{actionId values}terminalReason snoozedUntil createdAt updatedAt deliveredAt seenAt readAt dismissedAt resolvedAt expiredAt}`) as unknown as TypedDocumentString<NotificationEventsSubscription, NotificationEventsSubscriptionVariables>;
export const NotificationEventsCursorDocument = /*#__PURE__*/ new TypedDocumentString(`query NotificationEventsCursor{notificationEventsCursor}`) as unknown as TypedDocumentString<NotificationEventsCursorQuery, NotificationEventsCursorQueryVariables>;
export const SessionByIdDocument = /*#__PURE__*/ new TypedDocumentString(`query SessionById($id:ID!){sessionById(id:$id){id harness sessionId label}}`) as unknown as TypedDocumentString<SessionByIdQuery, SessionByIdQueryVariables>;
export const EngagementByIdDocument = /*#__PURE__*/ new TypedDocumentString(`query EngagementById($id:ID!){engagement(id:$id){id name}}`) as unknown as TypedDocumentString<EngagementByIdQuery, EngagementByIdQueryVariables>;
export const SignOutDocument = /*#__PURE__*/ new TypedDocumentString(`mutation SignOut{signOut}`) as unknown as TypedDocumentString<SignOutMutation, SignOutMutationVariables>;
export const PublishNotificationDocument = /*#__PURE__*/ new TypedDocumentString(`mutation PublishNotification($input:PublishNotificationInput!){publishNotification(input:$input){...PublishResultFields}}fragment NotificationFields on Notification{id key revision scope sessionId personId status severity title body source{plugin subsystem}display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}lastInvocation{id state outcomeMessage display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}uiEffects}operation{id type state phase elapsedSeconds cancellable}uiEffects data retention{policy expiresAt requestId}trigger{type ref}engagement{id name}session{id harness sessionId label}requestId resolution{actionId values}terminalReason snoozedUntil createdAt updatedAt deliveredAt seenAt readAt dismissedAt resolvedAt expiredAt}fragment PublishResultFields on PublishNotificationResult{__typename ... on Notification{...NotificationFields}... on OperationMismatchError{message current{...NotificationFields}}... on NotificationTransitionError{message current{...NotificationFields}}... on NotFoundError{message}... on ValidationError{message field}}`) as unknown as TypedDocumentString<PublishNotificationMutation, PublishNotificationMutationVariables>;
export const UpdateNotificationDocument = /*#__PURE__*/ new TypedDocumentString(`mutation UpdateNotification($id:ID!,$patch:NotificationPatch!){updateNotification(id:$id,patch:$patch){...PublishResultFields}}fragment NotificationFields on Notification{id key revision scope sessionId personId status severity title body source{plugin subsystem}display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}lastInvocation{id state outcomeMessage display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}uiEffects}operation{id type state phase elapsedSeconds cancellable}uiEffects data retention{policy expiresAt requestId}trigger{type ref}engagement{id name}session{id harness sessionId label}requestId resolution{actionId values}terminalReason snoozedUntil createdAt updatedAt deliveredAt seenAt readAt dismissedAt resolvedAt expiredAt}fragment PublishResultFields on PublishNotificationResult{__typename ... on Notification{...NotificationFields}... on OperationMismatchError{message current{...NotificationFields}}... on NotificationTransitionError{message current{...NotificationFields}}... on NotFoundError{message}... on ValidationError{message field}}`) as unknown as TypedDocumentString<UpdateNotificationMutation, UpdateNotificationMutationVariables>;
export const UpdateNotificationByKeyDocument = /*#__PURE__*/ new TypedDocumentString(`mutation UpdateNotificationByKey($target:NotificationPatchTarget!,$patch:NotificationPatch!){updateNotificationByKey(target:$target,patch:$patch){...PublishResultFields}}fragment NotificationFields on Notification{id key revision scope sessionId personId status severity title body source{plugin subsystem}display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}lastInvocation{id state outcomeMessage display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}uiEffects}operation{id type state phase elapsedSeconds cancellable}uiEffects data retention{policy expiresAt requestId}trigger{type ref}engagement{id name}session{id harness sessionId label}requestId resolution{actionId values}terminalReason snoozedUntil createdAt updatedAt deliveredAt seenAt readAt dismissedAt resolvedAt expiredAt}fragment PublishResultFields on PublishNotificationResult{__typename ... on Notification{...NotificationFields}... on OperationMismatchError{message current{...NotificationFields}}... on NotificationTransitionError{message current{...NotificationFields}}... on NotFoundError{message}... on ValidationError{message field}}`) as unknown as TypedDocumentString<UpdateNotificationByKeyMutation, UpdateNotificationByKeyMutationVariables>;
export const ResolveNotificationDocument = /*#__PURE__*/ new TypedDocumentString(`mutation ResolveNotification($id:ID!,$resolution:ResolutionInput,$operationId:String){resolveNotification(id:$id,resolution:$resolution,operationId:$operationId){...ResolveResultFields}}fragment NotificationFields on Notification{id key revision scope sessionId personId status severity title body source{plugin subsystem}display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}lastInvocation{id state outcomeMessage display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}uiEffects}operation{id type state phase elapsedSeconds cancellable}uiEffects data retention{policy expiresAt requestId}trigger{type ref}engagement{id name}session{id harness sessionId label}requestId resolution{actionId values}terminalReason snoozedUntil createdAt updatedAt deliveredAt seenAt readAt dismissedAt resolvedAt expiredAt}fragment ResolveResultFields on ResolveNotificationResult{__typename ... on Notification{...NotificationFields}... on OperationMismatchError{message current{...NotificationFields}}... on NotificationTransitionError{message current{...NotificationFields}}... on NotFoundError{message}... on ValidationError{message field}}`) as unknown as TypedDocumentString<ResolveNotificationMutation, ResolveNotificationMutationVariables>;
export const ExpireNotificationDocument = /*#__PURE__*/ new TypedDocumentString(`mutation ExpireNotification($id:ID!,$reason:String,$operationId:String){expireNotification(id:$id,reason:$reason,operationId:$operationId){...ResolveResultFields}}fragment NotificationFields on Notification{id key revision scope sessionId personId status severity title body source{plugin subsystem}display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}lastInvocation{id state outcomeMessage display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}uiEffects}operation{id type state phase elapsedSeconds cancellable}uiEffects data retention{policy expiresAt requestId}trigger{type ref}engagement{id name}session{id harness sessionId label}requestId resolution{actionId values}terminalReason snoozedUntil createdAt updatedAt deliveredAt seenAt readAt dismissedAt resolvedAt expiredAt}fragment ResolveResultFields on ResolveNotificationResult{__typename ... on Notification{...NotificationFields}... on OperationMismatchError{message current{...NotificationFields}}... on NotificationTransitionError{message current{...NotificationFields}}... on NotFoundError{message}... on ValidationError{message field}}`) as unknown as TypedDocumentString<ExpireNotificationMutation, ExpireNotificationMutationVariables>;
export const CompleteRequestDocument = /*#__PURE__*/ new TypedDocumentString(`mutation CompleteRequest($requestId:String!){completeRequest(requestId:$requestId)}`) as unknown as TypedDocumentString<CompleteRequestMutation, CompleteRequestMutationVariables>;
export const CreatePersonDocument = /*#__PURE__*/ new TypedDocumentString(`mutation CreatePerson($name:String!){createPerson(input:{name:$name}){id name}}`) as unknown as TypedDocumentString<CreatePersonMutation, CreatePersonMutationVariables>;
export const IssuePersonTokenDocument = /*#__PURE__*/ new TypedDocumentString(`mutation IssuePersonToken($personId:ID!,$name:String){issuePersonToken(personId:$personId,name:$name){id token}}`) as unknown as TypedDocumentString<IssuePersonTokenMutation, IssuePersonTokenMutationVariables>;
export const CreateSessionDocument = /*#__PURE__*/ new TypedDocumentString(`mutation CreateSession($input:CreateSessionInput!){createSession(input:$input){id harness sessionId ownerPersonId label}}`) as unknown as TypedDocumentString<CreateSessionMutation, CreateSessionMutationVariables>;
export const ActionInvocationsDocument = /*#__PURE__*/ new TypedDocumentString(`subscription ActionInvocations($plugin:String,$after:String){actionInvocations(plugin:$plugin,after:$after){...ActionInvocationFields}}fragment ActionInvocationFields on ActionInvocation{id notificationId notificationKey actionId targetActionId fixedParams values personId plugin invokedAt cursor state outcomeMessage presentation variant display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}uiEffects acknowledgedAt}`) as unknown as TypedDocumentString<ActionInvocationsSubscription, ActionInvocationsSubscriptionVariables>;
export const ActionInvocationPageDocument = /*#__PURE__*/ new TypedDocumentString(`query ActionInvocationPage($plugin:String,$after:String,$first:Int){actionInvocations(plugin:$plugin,after:$after,first:$first){items{...ActionInvocationFields}cursor hasMore}}fragment ActionInvocationFields on ActionInvocation{id notificationId notificationKey actionId targetActionId fixedParams values personId plugin invokedAt cursor state outcomeMessage presentation variant display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}uiEffects acknowledgedAt}`) as unknown as TypedDocumentString<ActionInvocationPageQuery, ActionInvocationPageQueryVariables>;
export const AcknowledgeActionInvocationDocument = /*#__PURE__*/ new TypedDocumentString(`mutation AcknowledgeActionInvocation($id:ID!,$outcome:ActionInvocationOutcome!,$message:String,$display:DisplayInput,$actions:[ActionInput!],$uiEffects:JSON){acknowledgeActionInvocation(id:$id outcome:$outcome message:$message display:$display actions:$actions uiEffects:$uiEffects){__typename ... on ActionInvocation{...ActionInvocationFields}... on NotFoundError{message}... on ValidationError{message field}}}fragment ActionInvocationFields on ActionInvocation{id notificationId notificationKey actionId targetActionId fixedParams values personId plugin invokedAt cursor state outcomeMessage presentation variant display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}uiEffects acknowledgedAt}`) as unknown as TypedDocumentString<AcknowledgeActionInvocationMutation, AcknowledgeActionInvocationMutationVariables>;
export const IssueSignInCodeDocument = /*#__PURE__*/ new TypedDocumentString(`mutation IssueSignInCode($personId:ID!){issueSignInCode(personId:$personId){code expiresAt}}`) as unknown as TypedDocumentString<IssueSignInCodeMutation, IssueSignInCodeMutationVariables>;
export const RedeemSignInCodeDocument = /*#__PURE__*/ new TypedDocumentString(`mutation RedeemSignInCode($code:String!){redeemSignInCode(code:$code){id kind token}}`) as unknown as TypedDocumentString<RedeemSignInCodeMutation, RedeemSignInCodeMutationVariables>;
export const CreateEngagementDocument = /*#__PURE__*/ new TypedDocumentString(`mutation CreateEngagement($input:CreateEngagementInput!){createEngagement(input:$input){id name operatorPersonId}}`) as unknown as TypedDocumentString<CreateEngagementMutation, CreateEngagementMutationVariables>;
export const AddEngagementMemberDocument = /*#__PURE__*/ new TypedDocumentString(`mutation AddEngagementMember($input:AddEngagementMemberInput!){addEngagementMember(input:$input){engagementId personId role}}`) as unknown as TypedDocumentString<AddEngagementMemberMutation, AddEngagementMemberMutationVariables>;
export const RememberFactDocument = /*#__PURE__*/ new TypedDocumentString(`mutation RememberFact($input:RememberFactInput!){rememberFact(input:$input){id personId content createdAt}}`) as unknown as TypedDocumentString<RememberFactMutation, RememberFactMutationVariables>;
export const ReportExchangeDocument = /*#__PURE__*/ new TypedDocumentString(`mutation ReportExchange($input:ReportExchangeInput!){reportExchange(input:$input){__typename ... on ReportedExchange{duplicate session{...SessionMetadataFields}notification{...NotificationFields}}... on ValidationError{message field}}}fragment NotificationFields on Notification{id key revision scope sessionId personId status severity title body source{plugin subsystem}display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}lastInvocation{id state outcomeMessage display{format title body bodyHtml variant presentation dismissible}actions{kind id label url text actionId fixedParams assetId form}uiEffects}operation{id type state phase elapsedSeconds cancellable}uiEffects data retention{policy expiresAt requestId}trigger{type ref}engagement{id name}session{id harness sessionId label}requestId resolution{actionId values}terminalReason snoozedUntil createdAt updatedAt deliveredAt seenAt readAt dismissedAt resolvedAt expiredAt}fragment SessionMetadataFields on Session{id harness sessionId ownerPersonId label completionId sourceGeneration labelGeneration}`) as unknown as TypedDocumentString<ReportExchangeMutation, ReportExchangeMutationVariables>;
export const SessionMetadataDocument = /*#__PURE__*/ new TypedDocumentString(`query SessionMetadata($harness:String!,$sessionId:String!){session(harness:$harness,sessionId:$sessionId){...SessionMetadataFields}}fragment SessionMetadataFields on Session{id harness sessionId ownerPersonId label completionId sourceGeneration labelGeneration}`) as unknown as TypedDocumentString<SessionMetadataQuery, SessionMetadataQueryVariables>;
export const UploadAssetDocument = /*#__PURE__*/ new TypedDocumentString(`mutation UploadAsset($file:File!,$filename:String){uploadAsset(file:$file,filename:$filename){__typename ... on Asset{id filename contentType size sha256 createdAt}... on ValidationError{message field}}}`) as unknown as TypedDocumentString<UploadAssetMutation, UploadAssetMutationVariables>;
export const ReaderPreferencesDocument = /*#__PURE__*/ new TypedDocumentString(`query ReaderPreferences{viewer{id preferences{...PreferencesFields}}}fragment PreferencesFields on Preferences{quietMode mutedPlugins mutes{plugin until}severityFloor quietHours{start end timeZone allowErrors}}`) as unknown as TypedDocumentString<ReaderPreferencesQuery, ReaderPreferencesQueryVariables>;
export const UpdatePreferencesDocument = /*#__PURE__*/ new TypedDocumentString(`mutation UpdatePreferences($input:PreferencesInput!){updatePreferences(input:$input){...PreferencesFields}}fragment PreferencesFields on Preferences{quietMode mutedPlugins mutes{plugin until}severityFloor quietHours{start end timeZone allowErrors}}`) as unknown as TypedDocumentString<UpdatePreferencesMutation, UpdatePreferencesMutationVariables>;
export const MutePluginDocument = /*#__PURE__*/ new TypedDocumentString(`mutation MutePlugin($plugin:String!,$until:DateTime){mutePlugin(plugin:$plugin,until:$until){...PreferencesFields}}fragment PreferencesFields on Preferences{quietMode mutedPlugins mutes{plugin until}severityFloor quietHours{start end timeZone allowErrors}}`) as unknown as TypedDocumentString<MutePluginMutation, MutePluginMutationVariables>;
export const UnmutePluginDocument = /*#__PURE__*/ new TypedDocumentString(`mutation UnmutePlugin($plugin:String!){unmutePlugin(plugin:$plugin){...PreferencesFields}}fragment PreferencesFields on Preferences{quietMode mutedPlugins mutes{plugin until}severityFloor quietHours{start end timeZone allowErrors}}`) as unknown as TypedDocumentString<UnmutePluginMutation, UnmutePluginMutationVariables>;
export const DismissAllDocument = /*#__PURE__*/ new TypedDocumentString(`mutation DismissAll($filter:NotificationFilter){dismissAll(filter:$filter)}`) as unknown as TypedDocumentString<DismissAllMutation, DismissAllMutationVariables>;