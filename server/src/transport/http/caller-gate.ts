// The first thing every request meets, before its body is parsed: who is calling (authenticated
// once; the GraphQL context reuses it), whether that credential (or, without one, the client
// address) is within its request rate, and whether it may open one more stream. Probes
// (/health, /ready) are never counted: junk traffic must not make an instance look down.
import type { Plugin } from "graphql-yoga";
import type { IncomingMessage } from "node:http";
import { type DomainError, RateLimitedError } from "../../domain/errors.ts";
import type { Logger } from "../../logger.ts";
import type { Caller } from "../../service/caller.ts";
import type { Services } from "../../services.ts";
import type { TrustedProxies } from "./client-address.ts";
import type { RequestRateLimiter } from "./rate-limiter.ts";

/**
 * Keyed by the Node request where there is one: a plugin after the gate (the body limit) may
 * replace the fetch Request, and the caller is then still looked up once.
 */
const authenticated = new WeakMap<object, Promise<Caller | null>>();
const clientAddresses = new WeakMap<object, string>();

/** The server context of a request: the Node request it came on, when it came over node:http. */
export interface RequestContext {
  req?: object;
}
const PROBES = new Set(["/health", "/ready"]);

/** The client address the gate established for this request ("unknown" if it never passed the gate). */
export function clientAddressOf(serverContext: RequestContext): string {
  return (serverContext.req && clientAddresses.get(serverContext.req)) ?? "unknown";
}

/**
 * The request's caller: null without an Authorization header; rejects with the authentication
 * error for a bad or revoked credential. Looked up once per request.
 */
export function callerOf(services: Services, request: Request, serverContext: RequestContext): Promise<Caller | null> {
  const key = serverContext.req ?? request;
  let caller = authenticated.get(key);
  if (!caller) {
    const authorization = request.headers.get("authorization");
    caller = authorization ? services.auth.authenticate(authorization) : Promise.resolve(null);
    caller.catch(() => undefined); // observed by whoever awaits it; never an unhandled rejection
    authenticated.set(key, caller);
  }
  return caller;
}

export interface CallerGateOptions {
  services: Services;
  limiter: RequestRateLimiter;
  trustedProxies: TrustedProxies;
  streamEndpoint: string;
  graphqlEndpoint: string;
  logger: Logger;
}

export function useCallerGate(options: CallerGateOptions): Plugin {
  const { services, limiter, logger } = options;
  return {
    async onRequest({ request, serverContext, endResponse }) {
      if (PROBES.has(new URL(request.url).pathname)) return;
      const req = (serverContext as { req?: IncomingMessage }).req;
      const address = options.trustedProxies.clientOf(req?.socket.remoteAddress ?? "unknown", request.headers.get("x-forwarded-for"));
      if (req) clientAddresses.set(req, address);
      const caller = await callerOf(services, request, serverContext as RequestContext).catch(() => null);
      let decision;
      try {
        decision = await limiter.consume(caller ? `credential:${caller.credentialId}` : `address:${address}`);
      } catch (error) {
        // A limiter that cannot count must not take the service down with it.
        logger.warn({ err: (error as Error).message }, "rate limiter unavailable; request let through");
        return;
      }
      if (!decision.allowed) {
        const refusal = new RateLimitedError(decision.retryAfterSeconds);
        return endResponse(refuse(refusal, 429, { "retry-after": String(decision.retryAfterSeconds) }));
      }
      if (caller && opensStream(request, options)) {
        try {
          services.realtime.assertStreamRoom(caller.credentialId);
        } catch (error) {
          return endResponse(refuse(error as DomainError, 429));
        }
      }
    },
  };
}

/** Requests that may start a subscription: anything but a reservation's PUT/DELETE on the stream endpoint, and event-stream requests on /graphql. */
function opensStream(request: Request, options: CallerGateOptions): boolean {
  const path = new URL(request.url).pathname;
  if (path === options.streamEndpoint) return request.method === "GET" || request.method === "POST";
  return path === options.graphqlEndpoint && (request.headers.get("accept") ?? "").includes("text/event-stream");
}

function refuse(error: DomainError, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ errors: [{ message: error.message, extensions: { code: error.code } }] }), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}
