// Typed failures. Everything the SDK throws is a HeraldError; `code` tells which.
export type HeraldErrorCode = "NETWORK" | "UNAUTHENTICATED" | "FORBIDDEN" | "VALIDATION_ERROR" | "NOT_FOUND" | "NOTIFICATION_TRANSITION" | "SERVER";

export class HeraldError extends Error {
  constructor(
    readonly code: HeraldErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "HeraldError";
  }
}

/** The server could not be reached, or answered with something that is not GraphQL. */
export class HeraldNetworkError extends HeraldError {
  constructor(
    message: string,
    /** The HTTP status when the server answered (429, 503, ...); undefined when it was not reached. */
    readonly status?: number,
  ) {
    super("NETWORK", message);
    this.name = "HeraldNetworkError";
  }
}

export class HeraldUnauthenticatedError extends HeraldError {
  constructor(message: string) {
    super("UNAUTHENTICATED", message);
    this.name = "HeraldUnauthenticatedError";
  }
}

/** The credential is valid but of the wrong kind (a producer key on a person operation, ...). */
export class HeraldForbiddenError extends HeraldError {
  constructor(message: string) {
    super("FORBIDDEN", message);
    this.name = "HeraldForbiddenError";
  }
}

export class HeraldValidationError extends HeraldError {
  constructor(
    /** Dotted path of the offending input field, e.g. "title" or "actions.0.url". */
    readonly field: string,
    message: string,
  ) {
    super("VALIDATION_ERROR", message);
    this.name = "HeraldValidationError";
  }
}

export class HeraldNotFoundError extends HeraldError {
  constructor(message: string) {
    super("NOT_FOUND", message);
    this.name = "HeraldNotFoundError";
  }
}

interface GraphQLErrorLike {
  message: string;
  extensions?: Record<string, unknown>;
}

/** Maps a GraphQL error to its typed counterpart. */
export function fromGraphQLError(error: GraphQLErrorLike): HeraldError {
  const code = error.extensions?.code;
  switch (code) {
    case "UNAUTHENTICATED":
      return new HeraldUnauthenticatedError(error.message);
    case "FORBIDDEN":
      return new HeraldForbiddenError(error.message);
    case "VALIDATION_ERROR":
    case "BAD_USER_INPUT":
    case "GRAPHQL_VALIDATION_FAILED":
    case "QUERY_TOO_COSTLY":
      return new HeraldValidationError(String(error.extensions?.field ?? ""), error.message);
    case "NOT_FOUND":
      return new HeraldNotFoundError(error.message);
    case "NOTIFICATION_TRANSITION":
      return new HeraldError("NOTIFICATION_TRANSITION", error.message);
    default:
      return new HeraldError("SERVER", error.message);
  }
}

/**
 * Maps a refusal by HTTP status, for answers whose body is not GraphQL (a stream refused before it
 * started, a proxy's error page). The status decides, never the wording of a message.
 */
export function fromHttpStatus(status: number, message: string, field = ""): HeraldError {
  if (status === 401) return new HeraldUnauthenticatedError(message);
  if (status === 403) return new HeraldForbiddenError(message);
  if (status === 400 || status === 422) return new HeraldValidationError(field, message);
  if (status === 404) return new HeraldNotFoundError(message);
  return new HeraldNetworkError(message, status);
}

/** True for a failure no retry can cure: the credential is gone (401) or of the wrong kind. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof HeraldUnauthenticatedError;
}
