// @herald/sdk: a typed client for Herald, for people-facing apps and for producers.
export { ActionResponses } from "./action-responses.ts";
export { backoffDelay, type BackoffOptions } from "./backoff.ts";
export { DEFAULT_RECONNECT, type ReconnectClock, Reconnector, type ReconnectOptions, systemClock } from "./reconnect.ts";
export { createHeraldClient, HeraldClient, type HeraldClientOptions } from "./client.ts";
export { ClientBase, type ClientOptions } from "./client-base.ts";
export { type Channel, type ChannelDelivery, createPersonClient, PersonClient, type PersonClientOptions } from "./person-client.ts";
export { createProducerClient, ProducerClient, type ProducerClientOptions } from "./producer-client.ts";
export { dataOf } from "./data.ts";
export { DismissalCache, type PendingDismissal } from "./dismissal.ts";
export {
  fromHttpStatus,
  HeraldError,
  type HeraldErrorCode,
  HeraldForbiddenError,
  HeraldNetworkError,
  HeraldNotFoundError,
  HeraldUnauthenticatedError,
  HeraldValidationError,
} from "./errors.ts";
export { isSnoozed, isTerminal, isUnread, isUnseen, matchesFilter, newestFirst, pastDeadline, supersedes } from "./filter.ts";
export { browserEnvironment, type LiveEnvironment } from "./environment.ts";
export { type ConnectionState, isLoading, type LiveSource, LiveView, type LiveState, type LiveViewOptions } from "./live.ts";
export {
  type EventSource,
  type PreferencesSource,
  sharedEvents,
  sharedPreferences,
  type ShareOptions,
  type SharingGlobals,
  StreamResyncError,
  type SubscribeOptions,
} from "./shared-stream.ts";
export { cancelActionOf, FINISHED_OPERATION_STATES, formOf, formValues, isOperationFinished } from "./operation.ts";
export type { RetryOptions, Sink, TokenSource, TransportOptions } from "./transport.ts";
export type * from "./types.ts";
export { ACTIVE_STATUSES, TERMINAL_STATUSES, UNSEEN_STATUSES } from "./statuses.ts";
export {
  createToolNotificationSink,
  type ToolNotificationInput,
  type ToolNotificationSink,
  type ToolSinkFailure,
  type ToolSinkFailureKind,
  type ToolSinkOptions,
} from "./tool-sink.ts";
export { type Invalidation, type Reload, UiEffectsDispatcher } from "./ui-effects.ts";
