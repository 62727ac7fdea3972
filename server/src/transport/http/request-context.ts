// Request ids: every HTTP request gets one (a sane incoming X-Request-Id, e.g. from the proxy,
// or a new UUID), echoed in the response and on every log line written while it is served
// (graphql-yoga's own logs, masked errors, services: see logger.ts).
import { randomUUID } from "node:crypto";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { type Logger, runInRequest, withRequestId } from "../../logger.ts";

/** Ids a client may choose: short and printable, so they cannot forge log lines. */
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function withRequestIds(handler: RequestListener, logger: Logger): RequestListener {
  return (request: IncomingMessage, response: ServerResponse) => {
    const incoming = request.headers["x-request-id"];
    const requestId = typeof incoming === "string" && ACCEPTED_ID.test(incoming) ? incoming : randomUUID();
    response.setHeader("x-request-id", requestId);
    if (logger.isLevelEnabled("debug")) {
      const started = performance.now();
      // The path only: a query string may carry variables.
      const path = (request.url ?? "").split("?")[0];
      // "close" is emitted outside the request's async context: name the request again.
      response.once("close", () =>
        runInRequest(requestId, () =>
          withRequestId(logger).debug({ method: request.method, path, status: response.statusCode, ms: Math.round(performance.now() - started) }, "request"),
        ),
      );
    }
    runInRequest(requestId, () => handler(request, response));
  };
}

/** `logger` naming the request being served, or `logger` itself outside one. */
export function requestLogger(logger: Logger): Logger {
  return withRequestId(logger);
}

type Level = "debug" | "info" | "warn" | "error";

/**
 * graphql-yoga's logger interface on pino, keeping its arguments as structured fields instead
 * of flattening them into one string: an Error stays an error with its stack, objects stay objects.
 */
export function yogaLogging(logger: Logger): Record<Level, (...args: unknown[]) => void> {
  const write = (level: Level) => (...args: unknown[]) => {
    const log = requestLogger(logger);
    const [first, ...rest] = args;
    const details = rest.length > 0 ? { details: rest } : {};
    if (first instanceof Error) log[level]({ err: first, ...details }, first.message);
    else if (typeof first === "string") log[level](details, first);
    else log[level]({ details: args }, "graphql-yoga");
  };
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}
