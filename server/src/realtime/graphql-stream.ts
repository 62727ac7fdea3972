// /graphql/stream: the graphql-sse protocol (distinct connections and single-connection
// reservations, graphql-sse-protocol.ts) behind Herald's own door. Every request needs a
// credential; a reservation belongs to the credential that made it. Every refusal is a typed JSON
// error with its status. Protocol: docs/event-stream.md ("Transport").
import { isAsyncIterable } from "@graphql-tools/utils";
import { getOperationAST, GraphQLError, type ExecutionResult } from "graphql";
import type { Plugin, YogaServerInstance } from "graphql-yoga";
import type { ServerResponse } from "node:http";
import { DomainError } from "../domain/errors.ts";
import type { Logger } from "../logger.ts";
import { requestLogger } from "../util/request-context.ts";
import { OWN_RESULTS, OwnResults } from "./shared-render.ts";
import type { Caller } from "../service/caller.ts";
import { checkDocument, type DocumentLimits } from "../util/document-limits.ts";
import type { EventStreamLimits } from "./event-stream-body.ts";
import { GraphQLSseProtocol, type Operate } from "./graphql-sse-protocol.ts";
import { errorResponse, httpStatusOf, type HttpErrorCode } from "../util/http-errors.ts";

export interface GraphQLStreamOptions {
  endpoint: string;
  reservationTtlMs: number;
  reservationsPerCredential: number;
  documentLimits: DocumentLimits;
  streamLimits: EventStreamLimits;
  authenticate(authorization: string | null): Promise<Caller>;
  /** Counts an opened single-connection stream against the credential's stream cap (graphql-sse-protocol.ts). */
  holdConnection(credentialId: string, close: () => void): { release(): void };
  logger: Logger;
}

/** GraphQL errors as a refusal; the status is the one the error asks for, or its code's. */
function refusalOf(errors: readonly GraphQLError[], fallback: HttpErrorCode): Response {
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
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8" } });
}

const codeOfStatus = (status: number) => (Object.keys(httpStatusOf) as HttpErrorCode[]).find((c) => httpStatusOf[c] === status);

export function useGraphQLStream(options: GraphQLStreamOptions): Plugin {
  const { endpoint, logger, documentLimits } = options;
  let server: YogaServerInstance<Record<string, unknown>, Record<string, unknown>>;
  let protocol: GraphQLSseProtocol;

  /** Parses, validates and runs one operation as the admitted caller, through Yoga's plugins. */
  const operateAs =
    (caller: Caller, serverContext: object): Operate =>
    async (request, params) => {
      const enveloped = server.getEnveloped({ ...serverContext, request, params, caller, [OWN_RESULTS]: true });
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
        return errorResponse("BAD_REQUEST", params.operationName ? `No operation named "${params.operationName}"` : "Name the operation to run");
      }
      if (operation.operation === "mutation" && request.method === "GET") {
        return errorResponse("METHOD_NOT_ALLOWED", "Mutations must be sent with POST", { allow: "POST" });
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
        ExecutionResult | AsyncIterable<ExecutionResult> | OwnResults;
      if (result instanceof OwnResults) return result.results;
      // A subscription refused before its first event (no right to it, a foreign cursor):
      // graphql-js answers errors without data; the client gets them with their status.
      if (!isAsyncIterable(result) && !("data" in result) && result.errors?.length) return refusalOf(result.errors, "BAD_REQUEST");
      return result;
    };

  return {
    onYogaInit({ yoga }) {
      server = yoga as unknown as YogaServerInstance<Record<string, unknown>, Record<string, unknown>>;
      protocol = new GraphQLSseProtocol({
        limits: options.streamLimits,
        reservationTtlMs: options.reservationTtlMs,
        reservationsPerCredential: options.reservationsPerCredential,
        logger,
        holdConnection: options.holdConnection,
        Response: server.fetchAPI.Response,
      });
    },
    async onRequest({ request, endResponse, serverContext }) {
      if (new URL(request.url).pathname !== endpoint) return;
      try {
        let caller: Caller;
        try {
          caller = await options.authenticate(request.headers.get("authorization"));
        } catch (error) {
          if (error instanceof DomainError) return endResponse(errorResponse("UNAUTHENTICATED", error.message));
          throw error;
        }
        const context = serverContext ?? {};
        // A client that falls too far behind loses its connection (it resumes from its cursor).
        const socket = (context as { res?: ServerResponse }).res;
        const cutOff = () => socket?.destroy();
        endResponse(await protocol.handle(request, caller.credentialId, operateAs(caller, context), cutOff));
      } catch (error) {
        requestLogger(logger, request).error({ err: error }, "unexpected error on the stream endpoint");
        endResponse(errorResponse("INTERNAL_SERVER_ERROR", "Unexpected error."));
      }
    },
  };
}
