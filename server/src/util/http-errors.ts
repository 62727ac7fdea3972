// The one shape every refusal on the HTTP layer takes, whatever the endpoint: GraphQL's error
// list with a machine-readable code, so clients handle a refused request like a refused field.

/** Codes a client may see from the HTTP layer, with the status each one is answered with. */
export const httpStatusOf = {
  BAD_REQUEST: 400,
  GRAPHQL_PARSE_FAILED: 400,
  GRAPHQL_VALIDATION_FAILED: 400,
  QUERY_TOO_COSTLY: 400,
  VALIDATION_ERROR: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  NOT_ACCEPTABLE: 406,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_SERVER_ERROR: 500,
} as const;

export type HttpErrorCode = keyof typeof httpStatusOf;

export interface ErrorBody {
  errors: { message: string; extensions: { code: string; [key: string]: unknown } }[];
}

export function errorBody(code: string, message: string, extensions: Record<string, unknown> = {}): ErrorBody {
  return { errors: [{ message, extensions: { code, ...extensions } }] };
}

export function errorResponse(code: HttpErrorCode, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(errorBody(code, message)), {
    status: httpStatusOf[code],
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/** 503 with Retry-After: the store cannot be reached right now; nothing was changed. */
export function storageUnavailableResponse(): Response {
  return new Response(JSON.stringify(errorBody("STORAGE_UNAVAILABLE", "The store is unavailable; retry shortly")), {
    status: 503,
    headers: { "content-type": "application/json; charset=utf-8", "retry-after": "5" },
  });
}
