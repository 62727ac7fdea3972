// The wire: queries and mutations through @urql/core, subscriptions through graphql-sse.
// Every failure leaves here as a typed HeraldError, chosen by HTTP status or GraphQL error code.
import type { DocumentTypeDecoration } from "@graphql-typed-document-node/core";
import { Client, type CombinedError, fetchExchange, type Operation } from "@urql/core";
import { retryExchange } from "@urql/exchange-retry";
import { type Client as SseClient, createClient as createSseClient } from "graphql-sse";
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
 * typed with its result and variables. Sent as source, so no GraphQL AST or printer is needed
 * here; @urql/core parses it once for its own bookkeeping.
 */
export type Document<R, V> = DocumentTypeDecoration<R, V> & { toString(): string };

const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

export class Transport {
  private readonly urql: Client;
  private readonly sse: SseClient;
  private readonly url: string;
  /** fetch with the current credential: the token function is asked on every call. */
  private readonly authorizedFetch: typeof fetch;

  constructor(options: TransportOptions) {
    const authorizedFetch = withCredential(options.token, options.fetch);
    this.url = options.url;
    this.authorizedFetch = authorizedFetch;
    const retry = options.retry === false ? null : { maxAttempts: 3, initialDelayMs: 300, maxDelayMs: 5_000, ...options.retry };
    this.urql = new Client({
      url: options.url,
      exchanges: retry
        ? [
            retryExchange({
              initialDelayMs: retry.initialDelayMs,
              maxDelayMs: retry.maxDelayMs,
              maxNumberAttempts: retry.maxAttempts,
              retryIf: isRetryable,
            }),
            fetchExchange,
          ]
        : [fetchExchange],
      preferGetMethod: false,
      requestPolicy: "network-only",
      fetch: authorizedFetch,
    });
    this.sse = createSseClient({
      url: options.streamUrl ?? `${options.url.replace(/\/$/, "")}/stream`,
      singleConnection: options.singleConnection ?? false,
      // Reconnection is the caller's business (the live view resumes from its own cursor).
      retryAttempts: 0,
      fetchFn: authorizedFetch,
    });
  }

  async query<R, V extends Record<string, unknown>>(document: Document<R, V>, variables: V): Promise<R> {
    return this.unwrap(await this.urql.query<R, V>(document.toString(), variables).toPromise());
  }

  async mutate<R, V extends Record<string, unknown>>(document: Document<R, V>, variables: V): Promise<R> {
    return this.unwrap(await this.urql.mutation<R, V>(document.toString(), variables).toPromise());
  }

  /**
   * A mutation with files, as a GraphQL multipart request (operations, map, then one part per
   * file): @urql/core's fetch exchange sends JSON only. Top-level variables holding a Blob (or
   * File) travel as file parts.
   */
  async upload<R, V extends Record<string, unknown>>(document: Document<R, V>, variables: V): Promise<R> {
    const files = Object.entries(variables).filter((entry): entry is [string, Blob] => entry[1] instanceof Blob);
    const form = new FormData();
    form.set("operations", JSON.stringify({ query: document.toString(), variables: { ...variables, ...Object.fromEntries(files.map(([n]) => [n, null])) } }));
    form.set("map", JSON.stringify(Object.fromEntries(files.map(([n], i) => [String(i), [`variables.${n}`]]))));
    files.forEach(([n, file], i) => form.set(String(i), file, file instanceof File ? file.name : n));
    let response: Response;
    try {
      response = await this.authorizedFetch(this.url, { method: "POST", body: form });
    } catch (error) {
      throw new HeraldNetworkError((error as Error).message);
    }
    let body: { data?: R | null; errors?: { message: string; extensions?: Record<string, unknown> }[] };
    try {
      body = (await response.json()) as typeof body;
    } catch {
      throw new HeraldNetworkError(`The server answered ${response.status} without GraphQL`);
    }
    if (body.errors?.[0]) throw fromGraphQLError(body.errors[0]);
    if (body.data === undefined || body.data === null) throw new HeraldNetworkError("The server sent no data");
    return body.data;
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

  private unwrap<R>(result: { data?: R; error?: CombinedError }): R {
    if (result.error) {
      const first = result.error.graphQLErrors[0];
      if (first) throw fromGraphQLError(first);
      const status = (result.error.response as Response | undefined)?.status;
      const message = result.error.networkError?.message ?? "The request failed";
      if (status !== undefined && (status < 200 || status >= 300)) throw fromHttpStatus(status, message);
      throw new HeraldNetworkError(message);
    }
    if (result.data === undefined || result.data === null) throw new HeraldNetworkError("The server sent no data");
    return result.data;
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

function isRetryable(error: CombinedError, operation: Operation): boolean {
  if (operation.kind !== "query") return false;
  if (error.graphQLErrors.length > 0) {
    const status = (error.response as Response | undefined)?.status;
    return status !== undefined && RETRYABLE_STATUSES.has(status);
  }
  const status = (error.response as Response | undefined)?.status;
  return status === undefined || RETRYABLE_STATUSES.has(status);
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
