// The producers' HTTP/JSON API at /api/v1, generated from the GraphQL schema by SOFA
// (@graphql-yoga/plugin-sofa): one route per producer operation, executed through Yoga's own
// pipeline (context, error masking, metrics), so it is the same API as GraphQL with REST clothes.
// What SOFA leaves to us: which operations it exposes, and an HTTP status per outcome.
import { MapperKind, mapSchema } from "@graphql-tools/utils";
import { useSofa } from "@graphql-yoga/plugin-sofa";
import { type DocumentNode, type FieldNode, GraphQLError, GraphQLSchema, isObjectType, Kind } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { Logger } from "../../logger.ts";
import { errorBody, errorResponse } from "../../util/http-errors.ts";
import { requestLogger } from "../../util/request-context.ts";

export const producerApiBase = "/api/v1";
export const producerApiDocument = `${producerApiBase}/openapi.json`;

/** What a producer key may do; person operations stay on GraphQL. Route: POST /api/v1/<kebab-case name>. */
export const producerMutations = [
  "publishNotification",
  "publishObservation",
  "updateNotification",
  "updateNotificationByKey",
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
    errorHandler: (errors) => errorsResponse(errors as readonly unknown[]) as never,
  });
  let api: GraphQLSchema | undefined;
  let document: Promise<Response> | undefined;
  return {
    onPluginInit({ addPlugin }) {
      addPlugin({
        ...sofa,
        onSchemaChange(payload) {
          api = producerSchema(payload.schema);
          document = undefined;
          sofa.onSchemaChange?.({ ...payload, schema: api });
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
          const refusal = await bodyRefusal(payload.request);
          if (refusal) return payload.endResponse(refusal);
          const request = bodyOnly(payload.request, payload.url, payload.fetchAPI.Request);
          let answered: Response | undefined;
          await sofa.onRequest?.({ ...payload, request, url: new URL(request.url), endResponse: (response) => (answered = response) });
          if (!answered) return payload.endResponse(notFound());
          if (path === producerApiDocument && answered.status === 200) {
            const schema = api!;
            const served = answered;
            document ??= served.json().then((generated) => Response.json(describeOutcomes(generated as OpenApiDocument, schema)));
            return payload.endResponse((await document).clone());
          }
          // SOFA's error handler knows no request: its unexpected errors are logged here, naming it.
          for (const error of unexpectedOf.get(answered) ?? [])
            requestLogger(logger, payload.request).error({ err: error }, "unexpected error in the producer API");
          payload.endResponse(await withOutcomeStatus(answered));
        },
      });
    },
  };
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, { description?: string; content?: Record<string, { schema: OpenApiSchema }> }> }>>;
  components: { schemas: Record<string, OpenApiSchema>; securitySchemes?: Record<string, unknown> };
  security?: unknown[];
}

interface OpenApiSchema {
  $ref?: string;
  oneOf?: OpenApiSchema[];
  properties?: Record<string, unknown>;
  [key: string]: unknown;
}

const json = (schema: OpenApiSchema) => ({ content: { "application/json": { schema } } });
const errorRef: OpenApiSchema = { $ref: "#/components/schemas/HttpError" };

/** Refusals any route may answer, before or instead of running the operation. */
const commonRefusals: Record<string, string> = {
  "400": "The body is not JSON, or the document could not be run (BAD_REQUEST)",
  "401": "No, an unknown or a revoked credential (UNAUTHENTICATED)",
  "403": "Not a producer key (FORBIDDEN)",
  "413": "The body is larger than the server's limit (PAYLOAD_TOO_LARGE)",
  "429": "Too many requests for this credential or address (RATE_LIMITED, with Retry-After)",
  "503": "The store is unavailable; nothing was changed (STORAGE_UNAVAILABLE, with Retry-After)",
};

/**
 * SOFA documents every result as one 200 response; this API answers a union's failure members
 * with their own status, so the document says so, and names the bearer credential and the error shape.
 */
export function describeOutcomes(generated: OpenApiDocument, schema: GraphQLSchema): OpenApiDocument {
  const doc = structuredClone(generated);
  doc.components.securitySchemes = { producerKey: { type: "http", scheme: "bearer", description: "A producer key (herald_pk_...)" } };
  doc.security = [{ producerKey: [] }];
  doc.components.schemas.HttpError = {
    type: "object",
    required: ["errors"],
    properties: {
      errors: {
        type: "array",
        items: {
          type: "object",
          required: ["message", "extensions"],
          properties: {
            message: { type: "string" },
            extensions: {
              type: "object",
              required: ["code"],
              properties: { code: { type: "string" }, field: { type: "string", description: "VALIDATION_ERROR: the refused input field" } },
            },
          },
        },
      },
    },
  };
  // The result object names its type, so a client can tell union members apart by body too.
  for (const [name, component] of Object.entries(doc.components.schemas)) {
    if (isObjectType(schema.getType(name)) && component.properties) {
      component.properties = { __typename: { type: "string", enum: [name] }, ...component.properties };
    }
  }
  for (const operations of Object.values(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const success = operation.responses["200"]?.content?.["application/json"]?.schema ?? {};
      const members = success.oneOf ?? [success];
      const byStatus = new Map<string, OpenApiSchema[]>();
      for (const member of members) {
        const status = String(statusOfResult[member.$ref?.split("/").at(-1) ?? ""] ?? 200);
        byStatus.set(status, [...(byStatus.get(status) ?? []), member]);
      }
      const responses: OpenApiDocument["paths"][string][string]["responses"] = {};
      for (const [status, schemas] of [...byStatus].sort(([a], [b]) => a.localeCompare(b))) {
        responses[status] = {
          description: status === "200" ? "The result" : "A failure the caller must handle",
          ...json(schemas.length === 1 ? schemas[0]! : { oneOf: schemas }),
        };
      }
      const invalid = responses["422"]?.content?.["application/json"]?.schema;
      responses["422"] = {
        description: "Input the schema or the service refuses, naming the field (VALIDATION_ERROR)",
        ...json(invalid ? { oneOf: [invalid, errorRef] } : errorRef),
      };
      if (method === "get") responses["404"] ??= { description: "Nothing found (NOT_FOUND)", ...json(errorRef) };
      for (const [status, description] of Object.entries(commonRefusals)) responses[status] ??= { description, ...json(errorRef) };
      operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
    }
  }
  return doc;
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

/**
 * SOFA reads arguments as fields of the body, and fails with a TypeError on `null`: anything but
 * a JSON object is the client's mistake, answered 400 before SOFA sees it. The body is already
 * bounded by the body limit, so reading it twice costs at most that.
 */
async function bodyRefusal(request: Request): Promise<Response | null> {
  if (request.method !== "POST") return null;
  const text = await request.clone().text();
  if (text.trim() === "") return null;
  try {
    const body = JSON.parse(text) as unknown;
    if (body && typeof body === "object" && !Array.isArray(body)) return null;
  } catch {
    // refused below
  }
  return errorResponse("BAD_REQUEST", "The body must be a JSON object of the operation's arguments");
}

/**
 * SOFA lets a query-string parameter win over the body's field of the same name. A POST's
 * arguments are its body, nothing else: the query string is dropped before SOFA reads it.
 */
function bodyOnly(request: Request, url: URL, RequestClass: typeof Request): Request {
  if (request.method !== "POST" || url.search === "") return request;
  const bare = new URL(url);
  bare.search = "";
  return new RequestClass(bare, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: request.signal,
    duplex: "half",
  } as RequestInit);
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
/** The errors behind an answer that the server did not expect, to be logged with their request. */
const unexpectedOf = new WeakMap<Response, unknown[]>();

function errorsResponse(errors: readonly unknown[]): Response {
  let status = 0;
  const headers: Record<string, string> = {};
  const unexpected = errors.filter((error) => !(error instanceof GraphQLError));
  const shaped = errors.map((error) => {
    const { body, status: own, headers: extra } = shape(error);
    status = Math.max(status, own);
    Object.assign(headers, extra);
    return body;
  });
  const response = Response.json({ errors: shaped }, { status: status || 500, headers });
  if (unexpected.length > 0) unexpectedOf.set(response, unexpected);
  return response;
}

interface ShapedError {
  body: ReturnType<typeof errorBody>["errors"][number];
  status: number;
  headers: Record<string, string>;
}

function shape(error: unknown): ShapedError {
  if (!(error instanceof GraphQLError)) {
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
