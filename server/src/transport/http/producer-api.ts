// The producers' HTTP/JSON API at /api/v1, generated from the GraphQL schema by SOFA
// (@graphql-yoga/plugin-sofa): one route per producer operation, executed through Yoga's own
// pipeline (context, error masking, metrics), so it is the same API as GraphQL with REST clothes.
// What SOFA leaves to us: which operations it exposes, and an HTTP status per outcome.
import { MapperKind, mapSchema } from "@graphql-tools/utils";
import { useSofa } from "@graphql-yoga/plugin-sofa";
import { type DocumentNode, type FieldNode, GraphQLError, GraphQLSchema, Kind } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { Logger } from "../../logger.ts";
import { errorBody, errorResponse } from "./http-errors.ts";
import { requestLogger } from "./request-context.ts";

export const producerApiBase = "/api/v1";
export const producerApiDocument = `${producerApiBase}/openapi.json`;

/** What a producer key may do; person operations stay on GraphQL. Route: POST /api/v1/<kebab-case name>. */
export const producerMutations = [
  "publishNotification",
  "publishObservation",
  "updateNotification",
  "resolveNotification",
  "expireNotification",
  "completeRequest",
  "emitEvent",
  "reportExchange",
  "createPerson",
  "setPersonQuietMode",
  "createSession",
  "createEngagement",
  "addEngagementMember",
  "rememberFact",
] as const;

/** Producer reads, GET /api/v1/<kebab-case name>?arg=...; null answers 404. */
export const producerQueries = ["session", "personPreferences"] as const;

/** Union members a caller must handle, answered with the status their kind deserves. */
const statusOfResult: Record<string, number> = {
  ValidationError: 422,
  RevisionConflictError: 409,
  NotificationTransitionError: 409,
  OperationMismatchError: 409,
  NotFoundError: 404,
};

/** Error codes (GraphQL `extensions.code`) and the status each is answered with on this API. */
const statusOfCode: Record<string, number> = {
  BAD_REQUEST: 400,
  VALIDATION_ERROR: 422,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  REVISION_CONFLICT: 409,
  NOTIFICATION_TRANSITION: 409,
  OPERATION_MISMATCH: 409,
  RATE_LIMITED: 429,
  STORAGE_UNAVAILABLE: 503,
};

/** The schema SOFA sees: only the producer operations (resolvers, unions and scalars kept). */
export function producerSchema(schema: GraphQLSchema): GraphQLSchema {
  const keep: Record<string, readonly string[]> = {
    [schema.getQueryType()!.name]: producerQueries,
    [schema.getMutationType()!.name]: producerMutations,
  };
  const subscription = schema.getSubscriptionType()?.name;
  const mapped = mapSchema(schema, {
    [MapperKind.ROOT_FIELD]: (field, fieldName, typeName) => (keep[typeName]?.includes(fieldName) ? field : null),
  }).toConfig();
  // Streams are not offered over REST (SOFA's webhooks would call URLs a client chooses).
  return new GraphQLSchema({ ...mapped, subscription: null, types: mapped.types.filter((type) => type.name !== subscription) });
}

export interface ProducerApiOptions {
  logger: Logger;
}

export function useProducerApi({ logger }: ProducerApiOptions): Plugin {
  const sofa = useSofa({
    basePath: producerApiBase,
    // Every object field down to one level of a type seen twice: the whole result, as GraphQL would give it.
    depthLimit: 2,
    customScalars: {
      DateTime: { type: "string", format: "date-time" },
      JSON: {},
    },
    openAPI: {
      info: {
        title: "Herald producer API",
        description:
          "Herald's producer operations over HTTP/JSON, generated from its GraphQL schema. Send the producer key as `Authorization: Bearer <key>`; arguments are the JSON body's fields (the query string's for GET). A ValidationError answers 422, a conflict or transition 409, a missing record 404.",
        version: "1",
      },
    },
    // GraphiQL is the place to explore; Swagger UI would load its scripts from a CDN.
    swaggerUI: { endpoint: false as unknown as string },
    // A standard Response; fets (SOFA's router) types its own with typed headers.
    errorHandler: (errors) => errorsResponse(errors as readonly unknown[], logger) as never,
  });
  return {
    onPluginInit({ addPlugin }) {
      addPlugin({
        ...sofa,
        onSchemaChange(payload) {
          sofa.onSchemaChange?.({ ...payload, schema: producerSchema(payload.schema) });
        },
        onExecute({ context, executeFn, setExecuteFn }) {
          const request = (context as { request?: Request }).request;
          if (!request || !isProducerApiPath(new URL(request.url).pathname)) return;
          setExecuteFn((args) => executeFn({ ...args, document: withResultTypename(args.document) }));
        },
        async onRequest(payload) {
          const path = payload.url.pathname;
          if (!isProducerApiPath(path)) return;
          // SOFA always routes its subscription webhooks; they are not part of this API.
          if (path.startsWith(`${producerApiBase}/webhook`)) return payload.endResponse(notFound());
          let answered: Response | undefined;
          await sofa.onRequest?.({ ...payload, endResponse: (response) => (answered = response) });
          payload.endResponse(answered ? await withOutcomeStatus(answered) : notFound());
        },
      });
    },
  };
}

function isProducerApiPath(path: string): boolean {
  return path === producerApiBase || path.startsWith(`${producerApiBase}/`);
}

const typenamed = new WeakMap<DocumentNode, DocumentNode>();
const typenameField: FieldNode = { kind: Kind.FIELD, name: { kind: Kind.NAME, value: "__typename" } };

/**
 * SOFA's documents select no __typename, so a union result (a Notification or a ValidationError)
 * could not be told apart; the result's own __typename is added (once per document, cached).
 */
function withResultTypename(document: DocumentNode): DocumentNode {
  let typed = typenamed.get(document);
  if (!typed) {
    typed = {
      ...document,
      definitions: document.definitions.map((definition) => {
        if (definition.kind !== Kind.OPERATION_DEFINITION) return definition;
        return {
          ...definition,
          selectionSet: {
            ...definition.selectionSet,
            selections: definition.selectionSet.selections.map((selection) =>
              selection.kind === Kind.FIELD && selection.selectionSet
                ? { ...selection, selectionSet: { ...selection.selectionSet, selections: [typenameField, ...selection.selectionSet.selections] } }
                : selection,
            ),
          },
        };
      }),
    };
    typenamed.set(document, typed);
  }
  return typed;
}

function notFound(): Response {
  return errorResponse("NOT_FOUND", "No such producer API route");
}

/** SOFA answers every result 200: a union member a caller must handle gets its own status. */
async function withOutcomeStatus(response: Response): Promise<Response> {
  if (response.status !== 200 || !(response.headers.get("content-type") ?? "").includes("json")) return response;
  const body = (await response.json()) as unknown;
  const typename = body && typeof body === "object" ? (body as { __typename?: unknown }).__typename : undefined;
  const status = body === null ? 404 : typeof typename === "string" ? (statusOfResult[typename] ?? 200) : 200;
  const answer = body === null ? errorBody("NOT_FOUND", "Not found") : body;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return Response.json(answer, { status, headers });
}

/**
 * GraphQL errors (already masked by Yoga when they come from execution) as the HTTP layer's one
 * error shape, with the status of their code; a value the schema refuses is a 422 naming the field.
 */
function errorsResponse(errors: readonly unknown[], logger: Logger): Response {
  let status = 0;
  const headers: Record<string, string> = {};
  const shaped = errors.map((error) => {
    const { body, status: own, headers: extra } = shape(error, logger);
    status = Math.max(status, own);
    Object.assign(headers, extra);
    return body;
  });
  return Response.json({ errors: shaped }, { status: status || 500, headers });
}

interface ShapedError {
  body: ReturnType<typeof errorBody>["errors"][number];
  status: number;
  headers: Record<string, string>;
}

function shape(error: unknown, logger: Logger): ShapedError {
  if (!(error instanceof GraphQLError)) {
    requestLogger(logger).error({ err: error }, "unexpected error in the producer API");
    return { body: errorBody("INTERNAL_SERVER_ERROR", "Unexpected error.").errors[0]!, status: 500, headers: {} };
  }
  const { http, code, ...extensions } = error.extensions as { http?: { status?: number; headers?: Record<string, string> }; code?: string };
  const coercion = code ? null : coercionField(error.message);
  if (coercion !== null) {
    return { body: errorBody("VALIDATION_ERROR", error.message, { field: coercion }).errors[0]!, status: 422, headers: {} };
  }
  const resolved = code ?? (http?.status === 400 ? "BAD_REQUEST" : "INTERNAL_SERVER_ERROR");
  const status = statusOfCode[resolved] ?? http?.status ?? 500;
  return { body: errorBody(resolved, error.message, extensions).errors[0]!, status, headers: http?.headers ?? {} };
}

/**
 * The input path graphql-js names when a value does not fit the schema (a missing required field,
 * an unknown enum value): `Variable "$input" got invalid value ... at "input.severity"; ...`, or
 * `Field "title" of required type ...`. Null when the message is not such a refusal.
 */
export function coercionField(message: string): string | null {
  const absent = /^Variable "\$(\w+)" of required type "[^"]+" was not provided\./.exec(message);
  if (absent) return absent[1]!;
  const coercion = /^Variable "\$(\w+)" got invalid value .*?(?: at "([\w.[\]]+)")?;/s.exec(message);
  if (!coercion) return null;
  const missing = /Field "(\w+)" of required type/.exec(message)?.[1];
  const path = [coercion[2] ?? coercion[1]!, missing].filter(Boolean).join(".");
  // Fields of an operation's `input` are named as the service names them (`title`, not `input.title`).
  return path.startsWith("input.") ? path.slice("input.".length) : path;
}
