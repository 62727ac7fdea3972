// @herald/sdk: a typed client for Herald, for people-facing apps and for producers.
export { backoffDelay, type BackoffOptions } from "./backoff.ts";
export { createHeraldClient, HeraldClient, type HeraldClientOptions } from "./client.ts";
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
export { isSnoozed, isTerminal, isUnseen, matchesFilter, newestFirst, supersedes } from "./filter.ts";
export { browserEnvironment, type LiveEnvironment } from "./environment.ts";
export { type ConnectionState, isLoading, type LiveSource, LiveView, type LiveState, type LiveViewOptions } from "./live.ts";
export { cancelActionOf, FINISHED_OPERATION_STATES, isOperationFinished } from "./operation.ts";
export type { RetryOptions, Sink, TokenSource, TransportOptions } from "./transport.ts";
export type * from "./types.ts";
export { TERMINAL_STATUSES, UNSEEN_STATUSES } from "./types.ts";
export { type Invalidation, type Reload, UiEffectsDispatcher } from "./ui-effects.ts";
