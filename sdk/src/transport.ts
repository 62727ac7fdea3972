// The wire: queries and mutations as GraphQL over HTTP (one JSON POST each, reads retried on
// the way), subscriptions through graphql-sse. Every failure leaves here as a typed HeraldError,
// chosen by HTTP status or GraphQL error code.
import type { DocumentTypeDecoration } from "@graphql-typed-document-node/core";
import { type Client as SseClient, createClient as createSseClient } from "graphql-sse";
import { backoffDelay } from "./backoff.ts";
import { fromGraphQLError, fromHttpStatus, HeraldNetworkError } from "./errors.ts";

/** A credential, or a function that returns the current one (called for every request and reconnect). */
export type TokenSource = string | (() => string | null | undefined | Promise<string | null | undefined>);

export interface RetryOptions {
  /** Attempts in all, the first included (default 3). */
  maxAttempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

export interface TransportOptions {
  /** The GraphQL endpoint, e.g. http://127.0.0.1:4000/graphql. */
  url: string;
  /**
   * A person token (herald_pt_...) or a producer key (herald_pk_...), or a function returning the
   * current one (a refreshing app). Leave it out when a proxy adds the credential (a browser app
   * whose token lives in an httpOnly cookie) or to redeem a sign-in code.
   */
  token?: TokenSource;
  /** Subscription endpoint; defaults to `${url}/stream` (graphql-sse protocol). */
  streamUrl?: string;
  /** Use one SSE connection for all subscriptions (graphql-sse single-connection mode). */
  singleConnection?: boolean;
  /**
   * Retries of reads (queries) that failed on the way: no answer, 429, 502-504. Mutations are never
   * retried, since a lost answer does not say whether the change was made. `false` turns it off.
   */
  retry?: Partial<RetryOptions> | false;
  fetch?: typeof fetch;
}

export interface Sink<T> {
  next(value: T): void;
  error(error: Error): void;
  complete(): void;
}

/**
 * A generated operation: its GraphQL source (a String object whose toString is the source),
 * typed with its result and variables. Sent as source, so no GraphQL AST, parser or printer is
 * needed on the client.
 */
export type Document<R, V> = DocumentTypeDecoration<R, V> & { toString(): string };

type GraphQLResponse<R> = { data?: R | null; errors?: { message: string; extensions?: Record<string, unknown> }[] };

const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

/** A read that may be tried again: nothing answered, or the answer says "later". */
class Retryable extends Error {
  constructor(readonly failure: Error) {
    super(failure.message);
  }
}

export class Transport {
  private readonly sse: SseClient;
  private readonly url: string;
  private readonly retry: RetryOptions | null;
  /** fetch with the current credential: the token function is asked on every call. */
  private readonly authorizedFetch: typeof fetch;

  constructor(options: TransportOptions) {
    const authorizedFetch = withCredential(options.token, options.fetch);
    this.url = options.url;
    this.authorizedFetch = authorizedFetch;
    this.retry = options.retry === false ? null : { maxAttempts: 3, initialDelayMs: 300, maxDelayMs: 5_000, ...options.retry };
    this.sse = createSseClient({
      url: options.streamUrl ?? `${options.url.replace(/\/$/, "")}/stream`,
      singleConnection: options.singleConnection ?? false,
      // Reconnection is the caller's business (the live view resumes from its own cursor).
      retryAttempts: 0,
      fetchFn: authorizedFetch,
    });
  }

  async query<R, V extends Record<string, unknown>>(document: Document<R, V>, variables: V): Promise<R> {
    const body = JSON.stringify({ query: document.toString(), variables });
    const attempts = this.retry?.maxAttempts ?? 1;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.post<R>(body, JSON_HEADERS);
      } catch (error) {
        if (!(error instanceof Retryable)) throw error;
        if (attempt >= attempts || !this.retry) throw error.failure;
        const { initialDelayMs: initialMs, maxDelayMs: maxMs } = this.retry;
        await new Promise((resolve) => setTimeout(resolve, Math.max(initialMs, backoffDelay(attempt - 1, { initialMs, maxMs }))));
      }
    }
  }

  async mutate<R, V extends Record<string, unknown>>(document: Document<R, V>, variables: V): Promise<R> {
    return finalOf(this.post<R>(JSON.stringify({ query: document.toString(), variables }), JSON_HEADERS));
  }

  /**
   * A mutation with files, as a GraphQL multipart request (operations, map, then one part per
   * file). Top-level variables holding a Blob (or File) travel as file parts.
   */
  async upload<R, V extends Record<string, unknown>>(document: Document<R, V>, variables: V): Promise<R> {
    const files = Object.entries(variables).filter((entry): entry is [string, Blob] => entry[1] instanceof Blob);
    const form = new FormData();
    form.set("operations", JSON.stringify({ query: document.toString(), variables: { ...variables, ...Object.fromEntries(files.map(([n]) => [n, null])) } }));
    form.set("map", JSON.stringify(Object.fromEntries(files.map(([n], i) => [String(i), [`variables.${n}`]]))));
    files.forEach(([n, file], i) => form.set(String(i), file, file instanceof File ? file.name : n));
    return finalOf(this.post<R>(form, {}));
  }

  /** One request and its answer; failures that a read may try again come as Retryable. */
  private async post<R>(body: BodyInit, headers: Record<string, string>): Promise<R> {
    let response: Response;
    try {
      response = await this.authorizedFetch(this.url, { method: "POST", body, headers });
    } catch (error) {
      throw new Retryable(new HeraldNetworkError((error as Error).message));
    }
    let answer: GraphQLResponse<R> | null;
    try {
      answer = (await response.json()) as GraphQLResponse<R>;
    } catch {
      answer = null;
    }
    const failure = failureOf(response, answer);
    if (failure) throw RETRYABLE_STATUSES.has(response.status) ? new Retryable(failure) : failure;
    return answer!.data as R;
  }

  /** Returns an unsubscribe function. Errors reach `sink.error` as HeraldErrors. */
  subscribe<R, V extends Record<string, unknown>>(document: Document<R, V>, variables: V, sink: Sink<R>): () => void {
    return this.sse.subscribe<R>(
      { query: document.toString(), variables },
      {
        next: (result) => {
          if (result.errors?.length) sink.error(fromGraphQLError(result.errors[0]!));
          else if (result.data) sink.next(result.data as R);
        },
        error: (error: unknown) => void toHeraldError(error).then((e) => sink.error(e)),
        complete: () => sink.complete(),
      },
    );
  }

  close(): void {
    this.sse.dispose();
  }
}

/** A fetch that adds the current credential to every request (queries, stream reservations, streams). */
function withCredential(token: TokenSource | undefined, base: typeof fetch | undefined): typeof fetch {
  return async (input, init) => {
    const current = typeof token === "function" ? await token() : token;
    const headers = new Headers(init?.headers);
    if (current) headers.set("authorization", `Bearer ${current}`);
    // Looked up per call, so a fetch installed after the client was made (a test's, a polyfill) is used.
    return (base ?? globalThis.fetch)(input, { ...init, headers });
  };
}

const JSON_HEADERS = { "content-type": "application/json", accept: "application/graphql-response+json, application/json" };

/** What is wrong with an answer, typed by its first GraphQL error, else its status; null when it carries data. */
function failureOf<R>(response: Response, answer: GraphQLResponse<R> | null): Error | null {
  const first = answer?.errors?.[0];
  if (first) return fromGraphQLError(first);
  if (!response.ok) return fromHttpStatus(response.status, `The server answered ${response.status}`);
  if (answer === null) return new HeraldNetworkError(`The server answered ${response.status} without GraphQL`);
  if (answer.data === undefined || answer.data === null) return new HeraldNetworkError("The server sent no data");
  return null;
}

/** A write's failure as its caller sees it: never tried again, whatever it was. */
async function finalOf<R>(pending: Promise<R>): Promise<R> {
  try {
    return await pending;
  } catch (error) {
    throw error instanceof Retryable ? error.failure : error;
  }
}

async function toHeraldError(error: unknown): Promise<Error> {
  const response = (error as { response?: Response } | null)?.response;
  if (response && typeof response.status === "number") {
    // A stream refused before it started: the body is the typed error, the status says what kind.
    const body = (await response.json().catch(() => null)) as { errors?: { message: string; extensions?: Record<string, unknown> }[] } | null;
    const first = body?.errors?.[0];
    if (first?.extensions?.code) return fromGraphQLError(first);
    return fromHttpStatus(response.status, first?.message ?? `The stream was refused (HTTP ${response.status})`, String(first?.extensions?.field ?? ""));
  }
  if (error instanceof Error) return new HeraldNetworkError(error.message);
  if (Array.isArray(error) && error[0]) return fromGraphQLError(error[0] as { message: string });
  if (error && typeof error === "object" && "type" in error) return new HeraldNetworkError(`The stream closed (${String((error as { type: unknown }).type)})`);
  return new HeraldNetworkError("The stream failed");
}
