// The SDK's public types, named for integrators (generated types stay an implementation detail).
import type { BackoffOptions } from "./backoff.ts";
import type {
  ActionInput,
  ActionInvocationFieldsFragment,
  ActionInvocationOutcome,
  ActionInvocationState,
  DisplayFormat,
  DisplayInput,
  EmitEventInput,
  FormFieldType,
  NotificationActionKind,
  NotificationEventsSubscription,
  NotificationEventType,
  NotificationScope,
  NotificationStatus,
  Presentation,
  RetentionPolicy,
  Severity,
  TriggerType,
  Variant,
  NotificationFieldsFragment,
  NotificationFilter,
  NotificationPatch,
  NotificationPatchTarget,
  PublishNotificationInput,
  ReportExchangeInput,
  PublishObservationInput,
  PreferencesFieldsFragment,
  PreferencesInput,
  QuietHoursInput,
  ResolutionInput,
  SessionMetadataFieldsFragment,
} from "./generated/graphql.ts";

/** A person's reader controls (quiet mode, muted plugins, severity floor, quiet hours). */
export type Preferences = PreferencesFieldsFragment;
export type { PreferencesInput, QuietHoursInput };

export type Notification = NotificationFieldsFragment;
/** A session's label state; `sourceGeneration` and `labelGeneration` are uint64 decimal strings. */
export type SessionMetadata = SessionMetadataFieldsFragment;
export type { ReportExchangeInput };

/** A reported exchange: counted and notified, or a retry (`duplicate`) that changed nothing. */
export interface ReportedExchange {
  duplicate: boolean;
  session: SessionMetadata;
  /** The session's completion notification; null for a duplicate. */
  notification: Notification | null;
}
export type ActionInvocation = ActionInvocationFieldsFragment;
/** How a notification or a direct action display looks: format, title, body, variant, presentation, dismissible. */
export type Display = Notification["display"];
export type { DisplayInput };

/** acknowledgeActionInvocation's options beside the outcome. */
export interface AcknowledgeOptions {
  /** The producer's word on the outcome, shown on the person's card (at most 500 characters). */
  message?: string;
  /** A direct display of the result for the person who ran the action; presentation defaults to MODAL. */
  display?: DisplayInput;
  /**
   * Follow-ups on the display (it is required with them), as a notification's: a RUN_ACTION with
   * a form asks the person the next question; their answer arrives as a new invocation.
   */
  actions?: ActionInput[];
  /** Refresh effects (the fields of Notification.uiEffects) for the page that ran the action. */
  uiEffects?: Record<string, unknown>;
}

/**
 * A producer's answer to an action this client ran (PersonClient.actionResponses): delivered once,
 * to this client only, when the invocation settles.
 */
export interface ActionResponse {
  invocationId: string;
  notificationId: string;
  state: Exclude<ActionInvocationState, "PENDING">;
  message: string | null;
  /** What to show (null: nothing beyond the card's outcome line). */
  display: Display | null;
  /** The display's follow-ups: run one with `invokeAction(notificationId, action.id, values, invocationId)`. */
  actions: ActionInvocation["actions"];
  uiEffects: unknown;
}

/** One field of a RUN_ACTION follow-up's form (`action.form`, read it with `formOf`). */
export interface FormField {
  name: string;
  label: string;
  type: FormFieldType;
  required: boolean;
  options: string[] | null;
  placeholder: string | null;
  maxLength: number | null;
}

/** onActionInvocation's options. */
export interface ActionInvocationOptions {
  /** Only invocations of this plugin's notifications. */
  plugin?: string;
  /**
   * Resume behind this invocation cursor (one a previous run stored from `onCursor`). Without
   * it the stream starts with every invocation still PENDING.
   */
  after?: string | null;
  /** Called after the handler finished with an invocation: store it to resume there after a restart. */
  onCursor?: (cursor: string) => void;
  /** Errors of the handler and of the connection; the stream reconnects by itself after the latter. */
  onError?: (error: Error) => void;
  /** Reconnect delays after a drop (default 250 ms doubling to 10 s, with jitter). */
  backoff?: BackoffOptions;
}
export type {
  ActionInput,
  EmitEventInput,
  NotificationFilter,
  NotificationPatch,
  NotificationPatchTarget,
  PublishNotificationInput,
  PublishObservationInput,
  ResolutionInput,
};
// The schema's enums, exactly as codegen prints them from server/schema.graphql (never copied here).
export type {
  ActionInvocationOutcome,
  ActionInvocationState,
  DisplayFormat,
  FormFieldType,
  NotificationActionKind,
  NotificationEventType,
  NotificationScope,
  NotificationStatus,
  Presentation,
  RetentionPolicy,
  Severity,
  TriggerType,
  Variant,
};

/** One event of `events`: the subscription's own type, its record named as a Notification. */
export type NotificationEvent = Omit<NotificationEventsSubscription["notificationEvents"], "__typename" | "notification"> & {
  notification: Notification;
};

/** Each equals the length of a list with the same filter (unseen: statuses PENDING, DELIVERED; unread: `unread: true`). */
export interface Counts {
  total: number;
  /** The badge: not yet seen (opening the inbox sees them). */
  unseen: number;
  /** Not yet opened or acted on (readAt null). */
  unread: number;
}

export interface Page {
  items: Notification[];
  totalCount: number;
  /** Pass as `after` for the next (older) page; null at the end. */
  nextCursor: string | null;
  hasNextPage: boolean;
}

/** A dismissal either happened, or tells why not and what the record is now. */
export type DismissResult =
  | { ok: true; notification: Notification }
  | { ok: false; reason: "conflict"; message: string; current: Notification }
  | { ok: false; reason: "transition"; message: string; current: Notification }
  | { ok: false; reason: "not_found"; message: string };

/** A producer write either produced a revision, or was refused with the current record. */
export type PublishResult =
  { ok: true; notification: Notification } | { ok: false; reason: "operation_mismatch" | "transition"; message: string; current: Notification };

/** What emitEvent did: the listeners that ran and the notifications they created. */
export interface EmitEventResult {
  eventId: string;
  type: string;
  listeners: string[];
  notifications: Notification[];
  /** True when the idempotencyKey was seen before: the first call's result. */
  duplicate: boolean;
}

/** An uploaded attachment: name `id` as `assetId` in a DOWNLOAD_ATTACHMENT_ASSET follow-up. */
export interface Asset {
  id: string;
  filename: string;
  /** The type the download is served with (parameters such as charset are dropped). */
  contentType: string;
  size: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
  createdAt: string;
}
