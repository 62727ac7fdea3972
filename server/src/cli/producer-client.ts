// The producer commands' way to a running Herald: one GraphQL request over HTTP, and every way
// it can end mapped to an exit code a shell script can branch on.
import { type JsonAnswer, postJson } from "./post-json.ts";

export const exitCodes = { ok: 0, other: 1, validation: 2, conflict: 3 } as const;

/** A command's failure: what to print on stderr and the exit code it ends with. */
export class ProducerFailure extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }

  static invalid(field: string, message: string): ProducerFailure {
    return new ProducerFailure(exitCodes.validation, `invalid ${field}: ${message}`);
  }
}

export interface ProducerConnection {
  endpoint: string;
  key: string;
}

/** HERALD_URL (base URL or one ending in /graphql; default the local server) and HERALD_PRODUCER_KEY. */
export function connectionFromEnv(env: NodeJS.ProcessEnv = process.env): ProducerConnection {
  const key = env.HERALD_PRODUCER_KEY?.trim();
  if (!key) throw ProducerFailure.invalid("HERALD_PRODUCER_KEY", "set it to a producer key (herald key create --name ...)");
  const raw = env.HERALD_URL?.trim() || "http://127.0.0.1:4000";
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Not echoed: a URL can carry credentials (user:password@host).
    throw ProducerFailure.invalid("HERALD_URL", "not a URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw ProducerFailure.invalid("HERALD_URL", "must be http(s)");
  if (!url.pathname.endsWith("/graphql")) url.pathname = `${url.pathname.replace(/\/+$/, "")}/graphql`;
  return { endpoint: url.toString(), key };
}

interface GraphQLError {
  message: string;
  extensions?: { code?: string; field?: string };
}

const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Runs one operation and returns `data[field]`; errors become a ProducerFailure. `signal` ends the
 * request early (an agent hook's time budget); without it a request gives up after 30 s.
 */
export async function callHerald(
  connection: ProducerConnection,
  field: string,
  query: string,
  variables: Record<string, unknown>,
  signal: AbortSignal = AbortSignal.timeout(REQUEST_TIMEOUT_MS),
): Promise<Record<string, unknown>> {
  let response: JsonAnswer;
  try {
    response = await postJson(
      new URL(connection.endpoint),
      { "content-type": "application/json", accept: "application/graphql-response+json, application/json", authorization: `Bearer ${connection.key}` },
      JSON.stringify({ query, variables }),
      signal,
    );
  } catch (error) {
    if (signal.aborted) throw new ProducerFailure(exitCodes.other, `Herald at ${connection.endpoint} did not answer in time`);
    const reason = (error as { code?: string }).code ?? (error as Error).message;
    throw new ProducerFailure(exitCodes.other, `cannot reach Herald at ${connection.endpoint} (${reason})`);
  }
  let body: { data?: Record<string, Record<string, unknown> | null> | null; errors?: GraphQLError[] };
  try {
    body = JSON.parse(response.text) as typeof body;
  } catch {
    throw new ProducerFailure(exitCodes.other, `Herald at ${connection.endpoint} answered HTTP ${response.status} without a GraphQL result`);
  }
  const error = body.errors?.[0];
  if (error) throw failureOf(error);
  const result = body.data?.[field];
  if (!result) throw new ProducerFailure(exitCodes.other, `Herald answered HTTP ${response.status} without ${field}`);
  return result;
}

function failureOf(error: GraphQLError): ProducerFailure {
  if (error.extensions?.code === "VALIDATION_ERROR") return ProducerFailure.invalid(error.extensions.field ?? "input", error.message);
  // A value the schema itself refuses (a missing required field, an unknown enum value): graphql-js
  // names the place as `at "input.severity"`, or `Field "title" of required type ...`.
  const coercion = /^Variable "\$(\w+)" got invalid value .*?(?: at "([\w.[\]]+)")?;/.exec(error.message);
  if (coercion) {
    const missing = /Field "(\w+)" of required type/.exec(error.message)?.[1];
    const place = (coercion[2] ?? coercion[1]!).replace(/^(input|patch|resolution)\.?/, "");
    const field = [place, missing].filter(Boolean).join(".") || coercion[1]!;
    return ProducerFailure.invalid(field, coercionProblem(error.message));
  }
  const code = error.extensions?.code ? ` (${error.extensions.code})` : "";
  return new ProducerFailure(exitCodes.other, `${error.message}${code}`);
}

/**
 * graphql-js's coercion message quotes the value sent (a body or a form value can be private):
 * only the kind of problem is kept, in words that name no value.
 */
export function coercionProblem(message: string): string {
  const problem = message.slice(message.indexOf(";") + 1);
  const required = /of required type "([^"]+)" was not provided/.exec(problem);
  if (required) return `required (${required[1]}), not given`;
  const enumType = /does not exist in "(\w+)" enum/.exec(problem);
  if (enumType) return `not a ${enumType[1]} value`;
  const unknown = /Field "(\w+)" is not defined by type "(\w+)"/.exec(problem);
  if (unknown) return `${unknown[1]} is not a field of ${unknown[2]}`;
  const scalar = /(?:Expected type "([^"]+)"|^\s*(\w+) cannot represent)/.exec(problem);
  if (scalar) return `not a valid ${scalar[1] ?? scalar[2]}`;
  return "a value the schema refuses";
}

/** A JSON parse error without the text it quotes (V8 quotes the start of the input). */
export function jsonProblem(error: unknown): string {
  const position = /at position (\d+)/.exec((error as Error).message)?.[1];
  return `not valid JSON${position === undefined ? "" : ` (at character ${position})`}`;
}

/** What a union result means for the caller: the value to print, or a failure with its exit code. */
export function outcomeOf(result: Record<string, unknown>): Record<string, unknown> {
  const type = result.__typename as string;
  const current = result.current as { id?: string; revision?: number; status?: string } | undefined;
  const state = current ? ` (current: ${current.id} revision ${current.revision} ${current.status})` : "";
  switch (type) {
    case "ValidationError":
      throw ProducerFailure.invalid(String(result.field), String(result.message));
    case "RevisionConflictError":
    case "NotificationTransitionError":
    case "OperationMismatchError":
      throw new ProducerFailure(exitCodes.conflict, `${type}: ${String(result.message)}${state}`);
    case "NotFoundError":
      throw new ProducerFailure(exitCodes.other, `${type}: ${String(result.message)}`);
    default:
      return result;
  }
}
