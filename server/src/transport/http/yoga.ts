// The HTTP face of the API: GraphQL (and GraphiQL) at /graphql.
import { costLimitPlugin } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { GraphQLError } from "graphql";
import { createYoga, maskError, type Plugin } from "graphql-yoga";
import { DomainError, ValidationError } from "../../domain/errors.ts";
import { limits } from "../../domain/limits.ts";
import { useGraphQLSSE } from "@graphql-yoga/plugin-graphql-sse";
import type { Tuning } from "../../config.ts";
import type { Logger } from "../../logger.ts";
import { noObserver, type HeraldObserver } from "../../events/observer.ts";
import { requestLogger, yogaLogging } from "./request-context.ts";
import { useStreamGuard } from "./stream-guard.ts";
import type { Services } from "../../services.ts";
import { type GraphQLContext, newContext } from "../graphql/context.ts";
import { schema } from "../graphql/schema.ts";

const exampleQuery = `# Herald: paste a person token into the headers below, then run.
query Inbox {
  viewer { name preferences { quietMode } }
  notificationCounts { total unseen }
  notifications(first: 10) {
    edges { cursor node { id key revision status title body createdAt } }
    pageInfo { hasNextPage endCursor }
  }
}
`;

/** Operations endpoints (/ready, /metrics) and the observer that counts slow-consumer closes. */
export interface OperationsWiring {
  plugins: Plugin[];
  observer: HeraldObserver;
}

export function createGraphQLHandler(services: Services, logger: Logger, tuning: Tuning, operations: OperationsWiring = { plugins: [], observer: noObserver }) {
  return createYoga<Record<string, unknown>, GraphQLContext>({
    schema,
    graphqlEndpoint: "/graphql",
    landingPage: false,
    graphiql: { title: "Herald GraphiQL", defaultQuery: exampleQuery, headers: '{"Authorization": "Bearer "}' },
    logging: yogaLogging(logger),
    plugins: [
      ...operations.plugins,
      // graphql-sse protocol (distinct connections and single-connection reservations).
      useGraphQLSSE({ endpoint: "/graphql/stream" }),
      useStreamGuard({
        heartbeatMs: tuning.heartbeatMs,
        maxBufferedBytes: tuning.maxBufferedBytes,
        onSlowConsumer: () => {
          requestLogger(logger).info("closed a stream whose client fell behind");
          operations.observer.slowConsumerClosed("bytes");
        },
      }),
      maxDepthPlugin({ n: limits.queryDepth, ignoreIntrospection: true }),
      costLimitPlugin({ maxCost: limits.queryCost, ignoreIntrospection: true }),
      maxAliasesPlugin({ n: limits.queryAliases }),
    ],
    context: async ({ request }): Promise<GraphQLContext> => {
      const authorization = request.headers.get("authorization");
      // No credential at all: introspection (GraphiQL's docs) still works; every field refuses.
      if (!authorization) return newContext(null, services);
      try {
        return newContext(await services.auth.authenticate(authorization), services);
      } catch (error) {
        if (error instanceof DomainError) {
          throw new GraphQLError(error.message, { extensions: { code: error.code, http: { status: 401 } } });
        }
        throw error;
      }
    },
    maskedErrors: {
      // Expected failures keep their message and gain a machine-readable code (and the field for
      // validation); anything else becomes "Unexpected error." with no stack or detail.
      maskError(error, message, isDev) {
        const original = error instanceof GraphQLError ? error.originalError : error;
        if (original instanceof DomainError) {
          const graphQLError = error as GraphQLError;
          return new GraphQLError(original.message, {
            nodes: graphQLError.nodes,
            path: graphQLError.path,
            extensions: { code: original.code, ...(original instanceof ValidationError ? { field: original.field } : {}) },
          });
        }
        if (!(error instanceof GraphQLError && !error.originalError)) requestLogger(logger).error({ err: original }, "unexpected error");
        // Never the development variant: it would put stack traces in responses.
        void isDev;
        return maskError(error, message, false);
      },
    },
  });
}
