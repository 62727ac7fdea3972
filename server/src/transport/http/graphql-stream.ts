// /graphql/stream: the graphql-sse protocol (distinct connections and single-connection
// reservations) behind Herald's own door. Every request needs a credential; a reservation
// (PUT) gets a random token, belongs to the credential that made it, is refused to any other,
// and is dropped if nobody opens it in time. Every refusal is a typed JSON error with its status.
import { randomBytes } from "node:crypto";
import { getOperationAST, GraphQLError, type ExecutionResult } from "graphql";
import { type Response as SSEResponse, TOKEN_HEADER_KEY, TOKEN_QUERY_KEY } from "graphql-sse";
import { createHandler } from "graphql-sse/lib/use/fetch";
import type { Plugin, YogaServerInstance } from "graphql-yoga";
import { DomainError } from "../../domain/errors.ts";
import type { Logger } from "../../logger.ts";
import type { Caller } from "../../service/caller.ts";
import { checkDocument, type DocumentLimits } from "./document-limits.ts";
import { errorBody, errorResponse, httpStatusOf, type HttpErrorCode } from "./http-errors.ts";

export interface GraphQLStreamOptions {
  endpoint: string;
  reservationTtlMs: number;
  reservationsPerCredential: number;
  documentLimits: DocumentLimits;
  authenticate(authorization: string | null): Promise<Caller>;
  logger: Logger;
}

interface Reservation {
  credentialId: string;
  opened: boolean;
  expiry: NodeJS.Timeout | undefined;
}

/** graphql-sse's answer when a request is refused: a body and its init. */
type Refusal = SSEResponse;

// A fresh object each time: the fetch ponyfill writes content-length into the headers it is given.
const json = () => ({ "content-type": "application/json; charset=utf-8" });

function refusal(code: HttpErrorCode, message: string, headers: Record<string, string> = {}): Refusal {
  return [JSON.stringify(errorBody(code, message)), { status: httpStatusOf[code], statusText: "", headers: { ...json(), ...headers } }];
}

const codeOfStatus = (status: number) => (Object.keys(httpStatusOf) as HttpErrorCode[]).find((c) => httpStatusOf[c] === status);

/** GraphQL errors as a refusal; the status is the one the error asks for, or its code's. */
function refusalOf(errors: readonly GraphQLError[], fallback: HttpErrorCode): Refusal {
  const first = errors[0]?.extensions ?? {};
  const asked = (first.http as { status?: number } | undefined)?.status;
  let code = String(first.code ?? fallback);
  // Yoga's own refusals (a mutation over GET) carry a status but a generic code.
  if (asked && (httpStatusOf as Record<string, number>)[code] !== asked) code = codeOfStatus(asked) ?? code;
  const status = asked ?? (httpStatusOf as Record<string, number>)[code] ?? httpStatusOf[fallback];
  const body = {
    errors: errors.map((e) => {
      const { http: _http, ...extensions } = e.extensions ?? {};
      return { message: e.message, extensions: { ...extensions, code } };
    }),
  };
  return [JSON.stringify(body), { status, statusText: "", headers: json() }];
}

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof value === "object" && value !== null && Symbol.asyncIterator in value;

const reservationToken = (request: Request) =>
  request.headers.get(TOKEN_HEADER_KEY) || new URL(request.url).searchParams.get(TOKEN_QUERY_KEY) || null;

export function useGraphQLStream(options: GraphQLStreamOptions): Plugin {
  const { endpoint, logger, documentLimits } = options;
  const reservations = new Map<string, Reservation>();
  const unopened = new Map<string, number>();
  // What the door decided for a request, read by the protocol handler and the operation.
  const admitted = new WeakMap<Request, { caller: Caller; token: string | null; serverContext: object }>();
  let handler: (request: Request) => Promise<Response>;

  const countUnopened = (credentialId: string, delta: number) => {
    const count = (unopened.get(credentialId) ?? 0) + delta;
    if (count > 0) unopened.set(credentialId, count);
    else unopened.delete(credentialId);
  };

  const release = (token: string) => {
    const reservation = reservations.get(token);
    if (!reservation) return;
    clearTimeout(reservation.expiry);
    if (!reservation.opened) countUnopened(reservation.credentialId, -1);
    reservations.delete(token);
  };

  /** Drops a reservation nobody opened, and graphql-sse's stream with it (attach, then detach). */
  const expire = async (token: string) => {
    const reservation = reservations.get(token);
    if (!reservation || reservation.opened) return;
    release(token);
    const probe = new Request(`http://localhost${endpoint}`, { headers: { accept: "text/event-stream", [TOKEN_HEADER_KEY]: token } });
    admitted.set(probe, { caller: { kind: "producer", credentialId: reservation.credentialId, name: "" }, token, serverContext: {} });
    const response = await handler(probe);
    await response.body?.cancel();
  };

  const reserve = (caller: Caller): string | Response => {
    if ((unopened.get(caller.credentialId) ?? 0) >= options.reservationsPerCredential) {
      return errorResponse(
        "TOO_MANY_REQUESTS",
        `This credential already holds ${options.reservationsPerCredential} unopened stream reservations`,
        { "retry-after": String(Math.ceil(options.reservationTtlMs / 1000)) },
      );
    }
    const token = randomBytes(24).toString("base64url");
    const expiry = setTimeout(() => void expire(token).catch((error) => logger.warn({ err: error }, "could not drop an expired reservation")), options.reservationTtlMs);
    expiry.unref();
    reservations.set(token, { credentialId: caller.credentialId, opened: false, expiry });
    countUnopened(caller.credentialId, 1);
    return token;
  };

  /** Decides whether a request may reach the protocol handler; returns a refusal if not. */
  const admit = async (request: Request, serverContext: object): Promise<Response | undefined> => {
    let caller: Caller;
    try {
      caller = await options.authenticate(request.headers.get("authorization"));
    } catch (error) {
      if (error instanceof DomainError) return errorResponse("UNAUTHENTICATED", error.message);
      throw error;
    }
    let token = reservationToken(request);
    if (token) {
      const reservation = reservations.get(token);
      if (!reservation) return errorResponse("NOT_FOUND", "No such stream reservation (it expired or was closed)");
      if (reservation.credentialId !== caller.credentialId) {
        return errorResponse("FORBIDDEN", "This stream reservation belongs to another credential");
      }
      if (request.method === "GET" && request.headers.get("accept") === "text/event-stream" && !reservation.opened) {
        reservation.opened = true;
        clearTimeout(reservation.expiry);
        countUnopened(caller.credentialId, -1);
        request.signal.addEventListener("abort", () => release(token!), { once: true });
      }
    } else if (request.method === "PUT") {
      const reserved = reserve(caller);
      if (reserved instanceof Response) return reserved;
      token = reserved;
    }
    admitted.set(request, { caller, token, serverContext });
    return undefined;
  };

  return {
    onYogaInit({ yoga }) {
      const server = yoga as unknown as YogaServerInstance<Record<string, unknown>, Record<string, unknown>>;
      handler = createHandler(
        {
          authenticate: (req) => admitted.get(req.raw)?.token ?? null,
          async onSubscribe(req, params): Promise<SSEResponse | ExecutionResult | AsyncIterable<ExecutionResult>> {
            const door = admitted.get(req.raw)!;
            const enveloped = server.getEnveloped({ ...door.serverContext, request: req.raw, params, caller: door.caller });
            let document;
            try {
              checkDocument(params.query, documentLimits);
              document = enveloped.parse(params.query);
            } catch (error) {
              if (error instanceof GraphQLError) return refusalOf([error], "GRAPHQL_PARSE_FAILED");
              throw error;
            }
            let errors: readonly GraphQLError[];
            try {
              errors = enveloped.validate(enveloped.schema, document);
            } catch (error) {
              // graphql-armor's limits throw their refusal rather than report it.
              if (error instanceof GraphQLError) return refusalOf([error], "GRAPHQL_VALIDATION_FAILED");
              throw error;
            }
            if (errors.length > 0) return refusalOf(errors, "GRAPHQL_VALIDATION_FAILED");
            const operation = getOperationAST(document, params.operationName);
            if (!operation) {
              return refusal("BAD_REQUEST", params.operationName ? `No operation named "${params.operationName}"` : "Name the operation to run");
            }
            if (operation.operation === "mutation" && req.method === "GET") {
              return refusal("METHOD_NOT_ALLOWED", "Mutations must be sent with POST", { allow: "POST" });
            }
            let contextValue;
            try {
              contextValue = await enveloped.contextFactory();
            } catch (error) {
              if (error instanceof GraphQLError) return refusalOf([error], "UNAUTHENTICATED");
              throw error;
            }
            const args = { schema: enveloped.schema, document, contextValue, variableValues: params.variables, operationName: params.operationName };
            const result = (await (operation.operation === "subscription" ? enveloped.subscribe(args) : enveloped.execute(args))) as
              | ExecutionResult
              | AsyncIterable<ExecutionResult>;
            // A subscription refused before its first event (no right to it, a foreign cursor):
            // graphql-js answers errors without data; the client gets them with their status.
            if (!isAsyncIterable(result) && !("data" in result) && result.errors?.length) {
              return refusalOf(result.errors, "BAD_REQUEST");
            }
            return result;
          },
        },
        // Node's own stream classes, not Yoga's fetch ponyfill: the ponyfill's ReadableStream leaves a
        // failing pull (the subscription's store went away mid-stream) as an unhandled rejection,
        // which ended the process; Node's errors the stream, and the stream guard ends it cleanly.
        { Response, ReadableStream, TextEncoder },
      );
    },
    async onRequest({ request, endResponse, serverContext }) {
      if (new URL(request.url).pathname !== endpoint) return;
      try {
        const refused = await admit(request, serverContext ?? {});
        if (refused) return endResponse(refused);
        endResponse(await typed(await handler(request)));
      } catch (error) {
        logger.error({ err: error }, "unexpected error on the stream endpoint");
        endResponse(errorResponse("INTERNAL_SERVER_ERROR", "Unexpected error."));
      }
    },
  };
}

/** graphql-sse answers some refusals with an empty body or errors without a code; give them both. */
async function typed(response: Response): Promise<Response> {
  if (response.status < 400) return response;
  const code = codeOfStatus(response.status) ?? "BAD_REQUEST";
  const text = await response.text();
  let body: { errors?: { message: string; extensions?: Record<string, unknown> }[] } = {};
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    // not JSON: replaced below
  }
  const errors = body.errors?.length ? body.errors : [{ message: response.statusText || "The request was refused" }];
  const headers = new Headers(response.headers);
  headers.set("content-type", json()["content-type"]);
  headers.delete("content-length");
  return new Response(JSON.stringify({ errors: errors.map((e) => ({ message: e.message, extensions: { code, ...e.extensions } })) }), {
    status: response.status,
    headers,
  });
}
