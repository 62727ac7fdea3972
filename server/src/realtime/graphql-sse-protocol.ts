// The server side of the graphql-sse protocol on /graphql/stream: distinct connections (one
// request per operation, its results on that response) and single-connection reservations
// (PUT reserves a token, GET opens the one stream, POST runs operations onto it, DELETE stops one).
// It follows graphql-sse's PROTOCOL.md and answers as graphql-sse's own handler does, so the stock
// client works in both modes; it is written here so that each result is serialised once for
// every subscriber and written as bytes (bench/history.md, "Write bytes"). Every refusal is typed
// JSON with its status. Protocol: docs/event-stream.md ("Transport").
import { randomBytes } from "node:crypto";
import { isAsyncIterable } from "@graphql-tools/utils";
import type { ExecutionResult } from "graphql";
import { TOKEN_HEADER_KEY, TOKEN_QUERY_KEY } from "graphql-sse";
import { DomainError } from "../domain/errors.ts";
import type { Logger } from "../logger.ts";
import { EVENT_STREAM_HEADERS, EventStreamBody, type EventStreamLimits } from "./event-stream-body.ts";
import { errorResponse } from "../util/http-errors.ts";
import { MessageFramer } from "./sse-messages.ts";
import type { ResultSink } from "./shared-render.ts";

export interface RequestParams {
  query: string;
  operationName?: string | undefined;
  variables?: Record<string, unknown> | undefined;
  extensions?: Record<string, unknown> | undefined;
}

export type Outcome = ExecutionResult | AsyncIterable<ExecutionResult>;

/** Runs one operation for an admitted request: its result(s), or a refusal to answer instead. */
export type Operate = (request: Request, params: RequestParams) => Promise<Outcome | Response>;

export interface ProtocolOptions {
  limits: EventStreamLimits;
  reservationTtlMs: number;
  reservationsPerCredential: number;
  logger: Logger;
  /** The HTTP adapter's Response, which takes a Node Readable as its body and pipes it as is. */
  Response: typeof Response;
  /** Counts an opened single connection against its credential's stream cap (a DomainError past it); revocation calls `close`. */
  holdConnection(credentialId: string, close: () => void): { release(): void };
}

/** One single-connection reservation: its operations, and their messages until the stream opens. */
class Reservation {
  opened = false;
  body: EventStreamBody | null = null;
  /** Its place under the credential's stream cap, once opened. */
  held: { release(): void } | null = null;
  /** Revoked: closes once its operations have sent their last message (or after DRAIN_MS). */
  draining = false;
  readonly operations = new Map<string, Stoppable | null>();
  private waiting: (string | Buffer)[] = [];
  private waitingBytes = 0;

  constructor(
    readonly token: string,
    readonly credentialId: string,
    public expiry: NodeJS.Timeout | undefined,
    private readonly maxWaitingBytes: number,
  ) {}

  /** Streaming to a reservation not opened yet is allowed: the messages wait for it, within the byte bound. */
  write(message: string | Buffer): boolean {
    if (this.body) return this.body.write(message);
    if (this.opened) return false;
    this.waitingBytes += message.length;
    if (this.waitingBytes > this.maxWaitingBytes) return false;
    this.waiting.push(message);
    return true;
  }

  attach(body: EventStreamBody): void {
    this.body = body;
    for (const message of this.waiting.splice(0)) body.write(message);
    this.waitingBytes = 0;
  }

  stopAll(): void {
    for (const operation of this.operations.values()) stopQuietly(operation);
    this.operations.clear();
    this.waiting = [];
  }
}

/** Ends an operation's results (the client left, or stopped it); a failure to end it is nobody's to hear. */
const stopQuietly = (operation: Stoppable | null | undefined) => void operation?.return?.()?.catch(() => undefined);

/** A running operation: its iterator, or its live results. */
interface Stoppable {
  return?(): Promise<unknown>;
}

const tokenOf = (request: Request, url: URL) => request.headers.get(TOKEN_HEADER_KEY) || url.searchParams.get(TOKEN_QUERY_KEY) || null;

/** The operation a request carries: the query string of a GET, the JSON body of a POST. */
export async function parseParams(request: Request, url: URL): Promise<RequestParams | Response> {
  let raw: Record<string, unknown>;
  if (request.method === "GET") {
    try {
      const search = url.searchParams;
      const json = (name: string) => (search.get(name) ? JSON.parse(search.get(name)!) : undefined);
      raw = {
        query: search.get("query") ?? undefined,
        operationName: search.get("operationName") ?? undefined,
        variables: json("variables"),
        extensions: json("extensions"),
      };
    } catch {
      return errorResponse("BAD_REQUEST", "The URL's variables or extensions are not JSON");
    }
  } else if (request.method === "POST" && request.headers.get("content-type")?.includes("application/json")) {
    let body: unknown;
    try {
      body = JSON.parse(await request.text());
    } catch {
      return errorResponse("BAD_REQUEST", "The body is not JSON");
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) return errorResponse("BAD_REQUEST", "The JSON body must be an object");
    raw = body as Record<string, unknown>;
  } else {
    return errorResponse("UNSUPPORTED_MEDIA_TYPE", "Send the operation as JSON (Content-Type: application/json) or in a GET's query string");
  }
  const isObject = (value: unknown) => value == null || (typeof value === "object" && !Array.isArray(value));
  if (raw.query == null) return errorResponse("BAD_REQUEST", "Missing query");
  if (typeof raw.query !== "string") return errorResponse("BAD_REQUEST", "Invalid query: it must be a string");
  if (raw.operationName != null && typeof raw.operationName !== "string") return errorResponse("BAD_REQUEST", "Invalid operationName: it must be a string");
  if (!isObject(raw.variables)) return errorResponse("BAD_REQUEST", "Invalid variables: they must be an object");
  if (!isObject(raw.extensions)) return errorResponse("BAD_REQUEST", "Invalid extensions: they must be an object");
  return {
    query: raw.query,
    operationName: (raw.operationName as string | null) ?? undefined,
    variables: (raw.variables as Record<string, unknown> | null) ?? undefined,
    extensions: (raw.extensions as Record<string, unknown> | null) ?? undefined,
  };
}

/** A subscription whose results the transport takes as they come (shared-render's RenderedResults). */
interface LiveOutcome {
  readonly live: boolean;
  attach(sink: ResultSink): void;
  return(): Promise<unknown>;
}

const isLive = (outcome: Outcome): outcome is Outcome & LiveOutcome => (outcome as Partial<LiveOutcome>).live === true;

/** How long a revoked connection waits for its operations' last messages before it closes anyway. */
const DRAIN_MS = 2_000;

/** A distinct connection's messages carry no operation id, so one framer serves them all. */
const DISTINCT = new MessageFramer(null);

const isIterator = (source: ExecutionResult | AsyncIterator<ExecutionResult>): source is AsyncIterator<ExecutionResult> =>
  typeof (source as AsyncIterator<ExecutionResult>).next === "function";

const logFailure = (logger: Logger, error: Error) =>
  // The source failed (its store went away mid-stream): the stream ends cleanly, so the client
  // resumes from its last cursor.
  logger.debug({ err: error.message }, "a stream's source failed; ending the stream");

/**
 * Pulls an operation's results into its sink until it completes, the stream closes or it
 * fails. Live subscriptions push instead (attach), without a suspended frame per stream.
 */
async function pump(source: ExecutionResult | AsyncIterator<ExecutionResult>, sink: ResultSink): Promise<void> {
  let failure: Error | null = null;
  try {
    if (!isIterator(source)) sink.result(source);
    else {
      for (;;) {
        const { done, value } = await source.next();
        if (done) break;
        if (!sink.result(value)) {
          await source.return?.();
          break;
        }
      }
    }
  } catch (error) {
    failure = error as Error;
  }
  // After a write that failed, the `complete` fails too: the sink sees an operation that did not complete.
  sink.end(failure);
}

/** A distinct connection: its one operation's results, then the end of the stream. */
class DistinctOperation implements ResultSink {
  constructor(
    private readonly body: EventStreamBody,
    private readonly logger: Logger,
  ) {}

  result(result: ExecutionResult, cursor?: string): boolean {
    return this.body.write(DISTINCT.next(result, cursor));
  }

  end(error: Error | null): void {
    if (error) logFailure(this.logger, error);
    else this.body.write(DISTINCT.complete());
    this.body.end();
  }
}

/** An operation running on a reservation: its messages go to the reservation's stream. */
class ReservedOperation implements ResultSink {
  private readonly framer: MessageFramer;

  constructor(
    private readonly reservation: Reservation,
    private readonly operationId: string,
    private readonly release: (token: string) => void,
    private readonly logger: Logger,
  ) {
    this.framer = new MessageFramer(operationId);
  }

  result(result: ExecutionResult, cursor?: string): boolean {
    return this.reservation.write(this.framer.next(result, cursor));
  }

  end(error: Error | null): void {
    if (error) logFailure(this.logger, error);
    const completed = !error && this.reservation.write(this.framer.complete());
    if (completed) {
      this.reservation.operations.delete(this.operationId);
      if (this.reservation.draining && this.reservation.operations.size === 0) this.release(this.reservation.token);
    }
    // A failed operation, or one whose messages could not be written, ends the whole stream as
    // in graphql-sse; the client resumes every operation from its cursor.
    else if (this.reservation.body) this.reservation.body.end();
    else this.release(this.reservation.token);
  }
}

export class GraphQLSseProtocol {
  private readonly reservations = new Map<string, Reservation>();
  private readonly unopened = new Map<string, number>();

  constructor(private readonly options: ProtocolOptions) {}

  /** Answers an authenticated request of `credentialId`; `cutOff` drops its connection (see EventStreamBody). */
  async handle(request: Request, credentialId: string, operate: Operate, cutOff: () => void): Promise<Response> {
    const url = new URL(request.url);
    const token = tokenOf(request, url);
    const reservation = token ? this.reservations.get(token) : undefined;
    if (token) {
      if (!reservation) return errorResponse("NOT_FOUND", "No such stream reservation (it expired or was closed)");
      if (reservation.credentialId !== credentialId) return errorResponse("FORBIDDEN", "This stream reservation belongs to another credential");
    }
    const accept = request.headers.get("accept") || "*/*";
    if (accept === "text/event-stream") {
      if (!token || !reservation) return this.distinct(request, url, operate, cutOff);
      if (reservation.opened) return errorResponse("CONFLICT", "This reservation's stream is already open");
      return this.open(token, reservation, cutOff);
    }
    if (!token || !reservation) {
      if (request.method !== "PUT") return errorResponse("NOT_FOUND", "Open a stream (Accept: text/event-stream) or reserve one (PUT)");
      if (!["*/*", "text/plain"].includes(accept)) return errorResponse("NOT_ACCEPTABLE", "A reservation's token is text/plain");
      return this.reserve(credentialId);
    }
    switch (request.method) {
      case "PUT":
        return errorResponse("CONFLICT", "This stream is already reserved");
      case "DELETE": {
        const operationId = url.searchParams.get("operationId");
        if (!operationId) return errorResponse("BAD_REQUEST", "Operation ID is missing");
        stopQuietly(reservation.operations.get(operationId));
        reservation.operations.delete(operationId);
        return new this.options.Response(null, { status: 200 });
      }
      case "GET":
      case "POST":
        return this.run(request, url, reservation, operate);
      default:
        return errorResponse("METHOD_NOT_ALLOWED", "Use GET, POST, PUT or DELETE", { allow: "GET, POST, PUT, DELETE" });
    }
  }

  /** One operation on its own response: the stream ends with the operation. */
  private async distinct(request: Request, url: URL, operate: Operate, cutOff: () => void): Promise<Response> {
    const params = await parseParams(request, url);
    if (params instanceof Response) return params;
    const outcome = await operate(request, params);
    if (outcome instanceof Response) return outcome;
    const body = new EventStreamBody(this.options.limits, cutOff);
    // An empty message at once: some browsers do not count the headers alone as the stream's start.
    body.write(":\n\n");
    const sink = new DistinctOperation(body, this.options.logger);
    // The stream ends with its one operation.
    if (isLive(outcome)) {
      body.onClose(() => stopQuietly(outcome));
      outcome.attach(sink);
    } else if (isAsyncIterable(outcome)) {
      const iterator = outcome[Symbol.asyncIterator]();
      body.onClose(() => stopQuietly(iterator));
      void pump(iterator, sink);
    } else void pump(outcome, sink);
    return this.streamResponse(body);
  }

  private reserve(credentialId: string): Response {
    const { reservationsPerCredential, reservationTtlMs } = this.options;
    if ((this.unopened.get(credentialId) ?? 0) >= reservationsPerCredential) {
      return errorResponse("TOO_MANY_REQUESTS", `This credential already holds ${reservationsPerCredential} unopened stream reservations`, {
        "retry-after": String(Math.ceil(reservationTtlMs / 1000)),
      });
    }
    const token = randomBytes(24).toString("base64url");
    // Dropped if nobody opens it in time, with whatever operations were started on it.
    const expiry = setTimeout(() => this.release(token), reservationTtlMs);
    expiry.unref();
    this.reservations.set(token, new Reservation(token, credentialId, expiry, this.options.limits.maxBufferedBytes));
    this.countUnopened(credentialId, 1);
    return new this.options.Response(token, { status: 201, headers: { "content-type": "text/plain; charset=utf-8" } });
  }

  private open(token: string, reservation: Reservation, cutOff: () => void): Response {
    let held: { release(): void };
    // An idle connection held open by heartbeats is a stream too: it counts, and a revocation ends it.
    try {
      held = this.options.holdConnection(reservation.credentialId, () => this.drain(token));
    } catch (error) {
      if (error instanceof DomainError) return errorResponse("TOO_MANY_REQUESTS", error.message);
      throw error;
    }
    reservation.opened = true;
    reservation.held = held;
    clearTimeout(reservation.expiry);
    this.countUnopened(reservation.credentialId, -1);
    const body = new EventStreamBody(this.options.limits, cutOff);
    body.write(":\n\n");
    reservation.attach(body);
    // The reservation lives as long as its stream: a closed stream's token is gone, and so are its operations.
    body.onClose(() => this.release(token));
    return this.streamResponse(body);
  }

  /** An operation onto an open (or not yet opened) reservation: 202, its results go to the stream. */
  private async run(request: Request, url: URL, reservation: Reservation, operate: Operate): Promise<Response> {
    const accept = request.headers.get("accept") || "*/*";
    if (!["*/*", "application/*", "application/json"].includes(accept)) return errorResponse("NOT_ACCEPTABLE", "Operations on a reservation answer with JSON");
    const params = await parseParams(request, url);
    if (params instanceof Response) return params;
    const operationId = String(params.extensions?.operationId ?? "");
    if (!operationId) return errorResponse("BAD_REQUEST", "Operation ID is missing");
    if (reservation.operations.has(operationId)) return errorResponse("CONFLICT", "An operation with this ID already runs");
    reservation.operations.set(operationId, null);
    let outcome: Outcome | Response;
    try {
      outcome = await operate(request, params);
    } catch (error) {
      // An unexpected failure (answered 500 by the plugin) must not keep the id taken.
      reservation.operations.delete(operationId);
      throw error;
    }
    if (outcome instanceof Response) {
      reservation.operations.delete(operationId);
      return outcome;
    }
    const live = isLive(outcome) ? outcome : null;
    const iterator = live || !isAsyncIterable(outcome) ? null : outcome[Symbol.asyncIterator]();
    // Stopped (DELETE, or the stream closed) while it was being prepared.
    if (!reservation.operations.has(operationId)) {
      stopQuietly(live ?? iterator);
      return new this.options.Response(null, { status: 204 });
    }
    reservation.operations.set(operationId, live ?? iterator);
    const sink = new ReservedOperation(reservation, operationId, (token) => this.release(token), this.options.logger);
    if (live) live.attach(sink);
    else void pump(iterator ?? (outcome as ExecutionResult), sink);
    return new this.options.Response(null, { status: 202 });
  }

  private streamResponse(body: EventStreamBody): Response {
    return new this.options.Response(body.readable as unknown as BodyInit, { status: 200, headers: EVENT_STREAM_HEADERS });
  }

  /** Revoked: the operations' own UNAUTHENTICATED messages go out first; an idle connection closes at once. */
  private drain(token: string) {
    const reservation = this.reservations.get(token);
    if (!reservation) return;
    reservation.draining = true;
    if (reservation.operations.size === 0) return this.release(token);
    clearTimeout(reservation.expiry);
    reservation.expiry = setTimeout(() => this.release(token), DRAIN_MS);
    reservation.expiry.unref();
  }

  private release(token: string) {
    const reservation = this.reservations.get(token);
    if (!reservation) return;
    clearTimeout(reservation.expiry);
    if (!reservation.opened) this.countUnopened(reservation.credentialId, -1);
    this.reservations.delete(token);
    reservation.held?.release();
    reservation.stopAll();
    reservation.body?.end();
  }

  private countUnopened(credentialId: string, delta: number) {
    const count = (this.unopened.get(credentialId) ?? 0) + delta;
    if (count > 0) this.unopened.set(credentialId, count);
    else this.unopened.delete(credentialId);
  }
}
