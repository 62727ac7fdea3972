// Failures a caller is expected to handle. Transport maps each to a typed GraphQL result.
import type { NotificationRecord } from "./notification.ts";

export abstract class DomainError extends Error {
  abstract readonly code: string;
}

export class ValidationError extends DomainError {
  readonly code = "VALIDATION_ERROR";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export class NotFoundError extends DomainError {
  readonly code = "NOT_FOUND";
  constructor(message = "Notification not found") {
    super(message);
  }
}

export class RevisionConflictError extends DomainError {
  readonly code = "REVISION_CONFLICT";
  constructor(readonly current: NotificationRecord) {
    super(`The notification changed: it is at revision ${current.revision} now`);
  }
}

export class NotificationTransitionError extends DomainError {
  readonly code = "NOTIFICATION_TRANSITION";
  constructor(
    readonly current: NotificationRecord,
    target: string,
    message = `A ${current.status} notification cannot become ${target}`,
  ) {
    super(message);
  }
}

export class OperationMismatchError extends DomainError {
  readonly code = "OPERATION_MISMATCH";
  constructor(
    readonly current: NotificationRecord,
    given: string,
  ) {
    super(`Operation ${given} is not the active occurrence of this key (active: ${current.operation?.id ?? "none"})`);
  }
}

export class UnauthenticatedError extends DomainError {
  readonly code = "UNAUTHENTICATED";
}

export class ForbiddenError extends DomainError {
  readonly code = "FORBIDDEN";
}

/** A credential already holds as many open streams as one credential may. */
export class TooManyStreamsError extends DomainError {
  readonly code = "TOO_MANY_STREAMS";
  constructor(limit: number) {
    super(`This credential already has ${limit} open streams on this server; close one before opening another`);
  }
}

/** A credential (or, without one, a client address) sent more requests than its rate allows. */
export class RateLimitedError extends DomainError {
  readonly code = "RATE_LIMITED";
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many requests; retry after ${retryAfterSeconds} s`);
  }
}

/** The store cannot be reached (e.g. PostgreSQL restarting); nothing was changed, the caller may retry. */
export class StorageUnavailableError extends DomainError {
  readonly code = "STORAGE_UNAVAILABLE";
  constructor() {
    super("Herald's database is unavailable right now; nothing was changed. Retry shortly");
  }
}
