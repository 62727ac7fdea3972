// The HTTP face of the API: GraphQL (and GraphiQL) at /graphql, graphql-sse at /graphql/stream.
import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { GraphQLError } from "graphql";
import { createYoga, type GraphiQLOptions, maskError, type Plugin } from "graphql-yoga";
import { DomainError, StorageUnavailableError, ValidationError } from "../../domain/errors.ts";
import { isStorageUnavailable } from "../../service/storage-unavailable.ts";
import { limits } from "../../domain/limits.ts";
import type { Tuning } from "../../config.ts";
import type { Logger } from "../../logger.ts";
import type { Caller } from "../../service/caller.ts";
import { DOWNLOAD_PATH, useAssetDownload } from "./asset-download.ts";
import { RequestsInFlight, useRequestsInFlight } from "./download-priority.ts";
import { useBodyLimit } from "./body-limit.ts";
import { callerOf, clientAddressOf, useCallerGate } from "./caller-gate.ts";
import type { TrustedProxies } from "./client-address.ts";
import type { IncomingMessage } from "node:http";
import type { SignInBudget } from "./sign-in-budget.ts";
import { boundedParseCache, useDocumentLimits } from "../../util/document-limits.ts";
import { useGetParams } from "./get-params.ts";
import { useVaryOrigin } from "./vary-origin.ts";
import { useGraphiQLPage } from "./graphiql-page.ts";
import { useGraphQLStream } from "../../realtime/graphql-stream.ts";
import type { RequestRateLimiter } from "./rate-limiter.ts";
import type { HeraldObserver } from "../../events/observer.ts";
import { useProducerApi } from "./producer-api.ts";
import { useQueryCostLimit } from "./query-cost.ts";
import { yogaLogging } from "../../util/request-context.ts";
import { ErrorLines, useErrorLines } from "./error-lines.ts";
import { useStreamGuard } from "../../realtime/stream-guard.ts";
import { uploadRefusal } from "./upload-gate.ts";
import { useSharedRender } from "../../realtime/shared-render.ts";
import { eventCursor } from "../graphql/notification.ts";
import type { Services } from "../../services.ts";
import { type GraphQLContext, newContext } from "../graphql/context.ts";
import { schema } from "../graphql/schema.ts";

const exampleQuery = `# Herald: paste a person token into the headers below, then run.
query Inbox {
  viewer { name preferences { quietMode } }
  notificationCounts { total unseen unread }
  notifications(first: 10) {
    edges { cursor node { id key revision status title body createdAt } }
    pageInfo { hasNextPage endCursor }
  }
}
`;

/** GraphiQL opens on the header editor, whose placeholder says what goes there. */
const graphiqlOptions = {
  title: "Herald GraphiQL",
  defaultQuery: exampleQuery,
  headers: '{"Authorization": "Bearer <person token or producer key>"}',
  defaultEditorToolsVisibility: "headers",
} as GraphiQLOptions;

/** Operations endpoints (/ready, /metrics) and the observer that counts slow-consumer closes. */
export interface OperationsWiring {
  plugins: Plugin[];
  /** Absent in tests that serve GraphQL without operations. */
  observer?: HeraldObserver;
}

export function createGraphQLHandler(
  services: Services,
  logger: Logger,
  tuning: Tuning,
  limiters: { requests: RequestRateLimiter; signIn: SignInBudget; trustedProxies: TrustedProxies },
  operations: OperationsWiring = { plugins: [] },
) {
  const { signIn, trustedProxies } = limiters;
  // Each error's line is written once, at the level its kind deserves; Yoga logs every masked
  // error again at error level, which would let any client flood the error log.
  const errorLines = new ErrorLines(logger);
  // Expected failures keep their message and gain a machine-readable code (and the field for
  // validation); anything else becomes "Unexpected error." with no stack or detail.
  const maskHeraldError = (error: unknown, message: string): Error => {
    // Already written with its request when it came from an execution.
    errorLines.write(error);
    const original = error instanceof GraphQLError ? error.originalError : error;
    if (original instanceof DomainError) {
      const graphQLError = error as GraphQLError;
      return errorLines.alreadyWritten(
        new GraphQLError(original.message, {
          nodes: graphQLError.nodes,
          path: graphQLError.path,
          extensions: { code: original.code, ...(original instanceof ValidationError ? { field: original.field } : {}) },
        }),
      );
    }
    if (isStorageUnavailable(original)) return errorLines.alreadyWritten(unavailable());
    // Never the development variant: it would put stack traces in responses.
    return errorLines.alreadyWritten(maskError(error, message, false));
  };
  const documentLimits = { maxTokens: limits.queryTokens, maxNesting: limits.queryNesting };
  const authenticate = (authorization: string | null) => services.auth.authenticate(authorization);
  const yogaLog = yogaLogging(logger);
  const streamLimits = {
    heartbeatMs: tuning.heartbeatMs,
    maxBufferedBytes: tuning.maxBufferedBytes,
    onSlowConsumer: () => {
      logger.info("closed a stream whose client fell behind");
      operations.observer?.slowConsumerClosed("bytes");
    },
  };
  const parseCache = boundedParseCache(limits.parseCacheDocuments, limits.parseCacheBytes);
  const requestsInFlight = new RequestsInFlight(tuning.assetPacedBytesPerSecond);
  return createYoga<Record<string, unknown>, GraphQLContext>({
    schema,
    graphqlEndpoint: "/graphql",
    landingPage: false,
    // Served by useGraphiQLPage below (compressed, revalidated, no request before the person acts).
    graphiql: false,
    // Browsers may call from the listed origins only (credentials allowed); others get no CORS headers.
    cors: (request) => {
      const origin = request.headers.get("origin");
      return origin && tuning.corsOrigins.includes(origin) ? { origin: [origin], credentials: true } : false;
    },
    parserAndValidationCache: parseCache,
    // useBodyLimit below has read the whole body within Herald's own limits before yoga parses it;
    // yoga's limit would pipe that buffered body through a byte-counting stream once more per
    // request (about 3% of a publish's CPU) and cap uploads at its own 25 MB besides.
    maxRequestBodySize: false,
    logging: {
      ...yogaLog,
      error: (...args) => {
        const errors = args.filter((a): a is Error => a instanceof Error);
        if (errors.length > 0 && errors.every((e) => errorLines.has(e))) return;
        yogaLog.error(...args);
      },
    },
    plugins: [
      // First, so every request is counted from its first hook: downloads give way to them.
      useRequestsInFlight(requestsInFlight, DOWNLOAD_PATH),
      ...(tuning.graphiql ? [useGraphiQLPage("/graphql", graphiqlOptions)] : []),
      parseCache.forgetInvalid(),
      useVaryOrigin(),
      // One execution per event for every alike subscription of a person (bench/history.md,
      // "Render once: live fan-out"). Before the tracing plugin, which wraps whatever subscribe it finds.
      useSharedRender({
        maskError: (error) => maskHeraldError(error, "Unexpected error.") as GraphQLError,
        cursorOf: eventCursor,
        onRender: () => operations.observer?.rendered(),
      }),
      // Then: refuses over-limit callers (rate, open streams) from headers alone, before any body is read.
      useCallerGate({ services, limiter: limiters.requests, trustedProxies, logger, graphqlEndpoint: "/graphql", streamEndpoint: "/graphql/stream" }),
      // Then nothing may read a body before its size is checked. File uploads by a producer key
      // to /graphql may be as large as one attachment plus the usual body.
      // Multipart requests from anyone else are refused before their body is read.
      useBodyLimit(tuning.maxBodyBytes, { maxBytes: tuning.assetMaxBytes + tuning.maxBodyBytes, refusal: uploadRefusal(services, "/graphql") }),
      // Malformed JSON in a GET's query string: a 400, not an unexpected error.
      useGetParams("/graphql"),
      // GET /assets/:id, attachments for persons.
      useAssetDownload(services, logger, tuning.assetDownloadsPerCredential, requestsInFlight),
      // Operations endpoints (/ready, /metrics) and request timings: after the body limit, which
      // replaces the request object that the timings are keyed by.
      ...operations.plugins,
      // The producers' HTTP/JSON API (/api/v1): behind the caller gate and the body limit like GraphQL.
      useProducerApi({ logger }),
      // graphql-sse protocol (distinct connections and single-connection reservations).
      useGraphQLStream({
        endpoint: "/graphql/stream",
        reservationTtlMs: tuning.reservationTtlMs,
        reservationsPerCredential: tuning.reservationsPerCredential,
        documentLimits,
        streamLimits,
        authenticate,
        holdConnection: (credentialId, close) => services.realtime.holdConnection(credentialId, close),
        logger,
      }),
      // Yoga's own SSE on /graphql; /graphql/stream guards its streams itself with the same limits.
      useStreamGuard({ ...streamLimits, except: ["/graphql/stream"] }),
      useDocumentLimits(documentLimits),
      // Before the masking, which Yoga adds last: an execution's errors are logged naming their request.
      useErrorLines(errorLines),
      maxDepthPlugin({ n: limits.queryDepth, ignoreIntrospection: true }),
      maxAliasesPlugin({ n: limits.queryAliases }),
      // Checked when the operation starts, with its variables (query-cost.ts).
      useQueryCostLimit({ maxCost: limits.queryCost, defaultPageSize: limits.defaultPageSize, maxPageSize: limits.pageSize }),
    ],
    context: async ({ request, caller, req }): Promise<GraphQLContext> => {
      const node = { req: req as IncomingMessage | undefined };
      const client = clientAddressOf(node);
      // The stream endpoint has authenticated the request already.
      if (caller) return newContext(caller as Caller, services, client, signIn);
      // No credential at all: introspection (GraphiQL's docs) still works; every field refuses.
      try {
        return newContext(await callerOf(services, request, node), services, client, signIn);
      } catch (error) {
        if (error instanceof DomainError) {
          throw new GraphQLError(error.message, { extensions: { code: error.code, http: { status: 401 } } });
        }
        if (isStorageUnavailable(error)) throw unavailable();
        throw error;
      }
    },
    maskedErrors: { maskError: (error, message) => maskHeraldError(error, message) },
  });
}

/** 503 with a typed code: the store is down (e.g. restarting); the client retries shortly. */
function unavailable(): GraphQLError {
  const error = new StorageUnavailableError();
  return new GraphQLError(error.message, { extensions: { code: error.code, http: { status: 503, headers: { "retry-after": "5" } } } });
}
