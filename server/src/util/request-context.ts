// Request ids: every HTTP request gets one (a sane incoming X-Request-Id, e.g. from the proxy,
// or a new UUID), echoed in the response and carried on the request itself, so every line Herald
// writes about a request can name it (docs/decisions.md, "Request ids and traces").
import { randomUUID } from "node:crypto";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { Logger } from "../logger.ts";

/** Ids a client may choose: short and printable, so they cannot forge log lines. */
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const HEADER = "x-request-id";

export function withRequestIds(handler: RequestListener, logger: Logger): RequestListener {
  return (request: IncomingMessage, response: ServerResponse) => {
    const incoming = request.headers[HEADER];
    const requestId = typeof incoming === "string" && ACCEPTED_ID.test(incoming) ? incoming : randomUUID();
    // Written into the request as well: the Fetch Request every plugin sees is made from these
    // headers, so the id travels with the request instead of in an async context (which costs
    // every promise of the process on Node 20; see decisions.md).
    request.headers[HEADER] = requestId;
    response.setHeader(HEADER, requestId);
    if (logger.isLevelEnabled("debug")) {
      const started = performance.now();
      // The path only: a query string may carry variables.
      const path = (request.url ?? "").split("?")[0];
      response.once("close", () =>
        logger.debug({ requestId, method: request.method, path, status: response.statusCode, ms: Math.round(performance.now() - started) }, "request"),
      );
    }
    handler(request, response);
  };
}

/** `logger` naming the request (by the id withRequestIds gave it), or `logger` itself without one. */
export function requestLogger(logger: Logger, request: { headers: Headers } | null | undefined): Logger {
  const requestId = request?.headers.get(HEADER);
  return requestId ? logger.child({ requestId }) : logger;
}

type Level = "debug" | "info" | "warn" | "error";

/**
 * graphql-yoga's logger interface on pino, keeping its arguments as structured fields instead
 * of flattening them into one string: an Error stays an error with its stack, objects stay objects.
 */
export function yogaLogging(logger: Logger): Record<Level, (...args: unknown[]) => void> {
  const write =
    (level: Level) =>
    (...args: unknown[]) => {
      const [first, ...rest] = args;
      const details = rest.length > 0 ? { details: rest } : {};
      if (first instanceof Error) logger[level]({ err: first, ...details }, first.message);
      else if (typeof first === "string") logger[level](details, first);
      else logger[level]({ details: args }, "graphql-yoga");
    };
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}
