// The wire: queries and mutations through @urql/core, subscriptions through graphql-sse.
// Every failure leaves here as a typed HeraldError.
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { Client, fetchExchange } from "@urql/core";
import { type Client as SseClient, createClient as createSseClient } from "graphql-sse";
import { print } from "graphql";
import { fromGraphQLError, HeraldNetworkError } from "./errors.ts";

export interface TransportOptions {
  /** The GraphQL endpoint, e.g. http://127.0.0.1:4000/graphql. */
  url: string;
  /**
   * A person token (herald_pt_...) or a producer key (herald_pk_...). Leave it out when a proxy
   * adds the credential (a browser app whose token lives in an httpOnly cookie) or to redeem a
   * sign-in code.
   */
  token?: string;
  /** Subscription endpoint; defaults to `${url}/stream` (graphql-sse protocol). */
  streamUrl?: string;
  /** Use one SSE connection for all subscriptions (graphql-sse single-connection mode). */
  singleConnection?: boolean;
  fetch?: typeof fetch;
}

export interface Sink<T> {
  next(value: T): void;
  error(error: Error): void;
  complete(): void;
}

export class Transport {
  private readonly urql: Client;
  private readonly sse: SseClient;
  private readonly headers: Record<string, string>;

  constructor(private readonly options: TransportOptions) {
    const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
    this.headers = headers;
    this.urql = new Client({
      url: options.url,
      exchanges: [fetchExchange],
      preferGetMethod: false,
      requestPolicy: "network-only",
      fetchOptions: () => ({ headers }),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    this.sse = createSseClient({
      url: options.streamUrl ?? `${options.url.replace(/\/$/, "")}/stream`,
      headers,
      singleConnection: options.singleConnection ?? false,
      // Reconnection is the caller's business (the live view resumes from its own cursor).
      retryAttempts: 0,
      ...(options.fetch ? { fetchFn: options.fetch } : {}),
    });
  }

  async query<R, V extends Record<string, unknown>>(document: TypedDocumentNode<R, V>, variables: V): Promise<R> {
    return this.unwrap(await this.urql.query(document, variables).toPromise());
  }

  async mutate<R, V extends Record<string, unknown>>(document: TypedDocumentNode<R, V>, variables: V): Promise<R> {
    return this.unwrap(await this.urql.mutation(document, variables).toPromise());
  }

  /**
   * A mutation with files, as a GraphQL multipart request (operations, map, then one part per
   * file): @urql/core's fetch exchange sends JSON only. Top-level variables holding a Blob (or
   * File) travel as file parts.
   */
  async upload<R, V extends Record<string, unknown>>(document: TypedDocumentNode<R, V>, variables: V): Promise<R> {
    const files = Object.entries(variables).filter((entry): entry is [string, Blob] => entry[1] instanceof Blob);
    const form = new FormData();
    form.set("operations", JSON.stringify({ query: print(document), variables: { ...variables, ...Object.fromEntries(files.map(([n]) => [n, null])) } }));
    form.set("map", JSON.stringify(Object.fromEntries(files.map(([n], i) => [String(i), [`variables.${n}`]]))));
    files.forEach(([n, file], i) => form.set(String(i), file, file instanceof File ? file.name : n));
    let response: Response;
    try {
      response = await (this.options.fetch ?? fetch)(this.options.url, { method: "POST", headers: this.headers, body: form });
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
  subscribe<R, V extends Record<string, unknown>>(document: TypedDocumentNode<R, V>, variables: V, sink: Sink<R>): () => void {
    return this.sse.subscribe<R>(
      { query: print(document), variables },
      {
        next: (result) => {
          if (result.errors?.length) sink.error(fromGraphQLError(result.errors[0]!));
          else if (result.data) sink.next(result.data as R);
        },
        error: (error: unknown) => sink.error(toHeraldError(error)),
        complete: () => sink.complete(),
      },
    );
  }

  close(): void {
    this.sse.dispose();
  }

  private unwrap<R>(result: { data?: R; error?: { networkError?: Error; graphQLErrors: { message: string; extensions?: Record<string, unknown> }[] } }): R {
    if (result.error) {
      const first = result.error.graphQLErrors[0];
      if (first) throw fromGraphQLError(first);
      throw new HeraldNetworkError(result.error.networkError?.message ?? "The request failed");
    }
    if (result.data === undefined || result.data === null) throw new HeraldNetworkError("The server sent no data");
    return result.data;
  }
}

function toHeraldError(error: unknown): Error {
  if (error instanceof Error) return new HeraldNetworkError(error.message);
  if (Array.isArray(error) && error[0]) return fromGraphQLError(error[0] as { message: string });
  if (error && typeof error === "object" && "type" in error) return new HeraldNetworkError(`The stream closed (${String((error as { type: unknown }).type)})`);
  return new HeraldNetworkError("The stream failed");
}
