// Request ids: every HTTP request gets one (a sane incoming X-Request-Id, e.g. from the proxy,
// or a new UUID), echoed in the response, and a child logger carrying it that whatever runs for
// the request (graphql-yoga's own logs, masked errors) finds through requestLogger().
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { Logger } from "../../logger.ts";

const current = new AsyncLocalStorage<Logger>();

/** Ids a client may choose: short and printable, so they cannot forge log lines. */
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function withRequestIds(handler: RequestListener, logger: Logger): RequestListener {
  return (request: IncomingMessage, response: ServerResponse) => {
    const incoming = request.headers["x-request-id"];
    const requestId = typeof incoming === "string" && ACCEPTED_ID.test(incoming) ? incoming : randomUUID();
    response.setHeader("x-request-id", requestId);
    const log = logger.child({ requestId });
    if (log.isLevelEnabled("debug")) {
      const started = performance.now();
      // The path only: a query string may carry variables.
      const path = (request.url ?? "").split("?")[0];
      response.once("close", () =>
        log.debug({ method: request.method, path, status: response.statusCode, ms: Math.round(performance.now() - started) }, "request"),
      );
    }
    current.run(log, () => handler(request, response));
  };
}

/** The logger of the request being served, or `fallback` outside one. */
export function requestLogger(fallback: Logger): Logger {
  return current.getStore() ?? fallback;
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
