import { AsyncLocalStorage } from "node:async_hooks";
import { destination, type DestinationStream, pino, symbols, type Logger } from "pino";

export type { Logger };

/** The HTTP request being served (set by the server around each request), for its log lines. */
const request = new AsyncLocalStorage<{ requestId: string }>();

export function runInRequest<T>(requestId: string, run: () => T): T {
  return request.run({ requestId }, run);
}

/**
 * Adds the current request's id to every line, whichever logger writes it (a service's, Yoga's,
 * one created before the request): a line written while serving a request names it.
 */
function requestIdMixin(): { requestId?: string } {
  const current = request.getStore();
  return current ? { requestId: current.requestId } : {};
}

/** JSON logs on stderr, so stdout stays for what commands print (credentials, JSON results). */
export function createLogger(level: string, stream: DestinationStream = destination(2)): Logger {
  return pino({ level, mixin: requestIdMixin, redact: ["req.headers.authorization", "authorization", "token", "secret"] }, stream);
}

/**
 * `logger` for a line about the current request: loggers made by createLogger name the request
 * by themselves; any other (an embedder's, a test's) gets a child that does.
 */
export function withRequestId(logger: Logger): Logger {
  const current = request.getStore();
  if (!current || (logger as unknown as Record<symbol, unknown>)[symbols.mixinSym] === requestIdMixin) return logger;
  return logger.child({ requestId: current.requestId });
}
