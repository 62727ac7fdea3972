// A notification sink for agent-harness tools: publishes SESSION notifications for one session
// (and request) and never throws into the tool that calls it. Whatever goes wrong (server down,
// a refused record, a server error, no answer in time, too many publishes waiting) becomes a
// `null` result and one call of `onError`; the tool carries on. Bounded: at most `maxInFlight`
// publishes wait at once, and each gives up after `timeoutMs` (its request is aborted).
import { createProducerClient, type ProducerClient } from "./producer-client.ts";
import { HeraldError } from "./errors.ts";
import type { Notification, PublishNotificationInput } from "./types.ts";

/** What a tool sends: a notification without its target (the sink binds the session and request). */
export type ToolNotificationInput = Omit<PublishNotificationInput, "scope" | "personId" | "sessionId" | "requestId">;

export type ToolSinkFailureKind = "network" | "timeout" | "validation" | "refused" | "server" | "overloaded";

export interface ToolSinkFailure {
  kind: ToolSinkFailureKind;
  message: string;
  /** The offending input field, for `validation`. */
  field?: string;
  /** The key of the notification that was not published. */
  key: string;
}

export interface ToolSinkOptions {
  /** The GraphQL endpoint, e.g. http://127.0.0.1:4000/graphql. */
  url: string;
  producerKey: string;
  /** The Herald session id (Session.id) the notifications belong to. */
  sessionId: string;
  /** Sent as `requestId` with every notification (for UNTIL_REQUEST_COMPLETE retention). */
  requestId?: string;
  /** Called once per failed publish; an exception it throws is swallowed too. */
  onError?: (failure: ToolSinkFailure) => void;
  /** Each publish gives up after this long. Default 5,000 ms. */
  timeoutMs?: number;
  /** Publishes that may wait at once; more are dropped and reported as `overloaded`. Default 8. */
  maxInFlight?: number;
  fetch?: typeof fetch;
}

export interface ToolNotificationSink {
  /** The published notification, or null when it could not be (reported to `onError`). Never rejects. */
  create(input: ToolNotificationInput): Promise<Notification | null>;
  /** Publishes waiting for an answer now. */
  readonly inFlight: number;
  close(): void;
}

export function createToolNotificationSink(options: ToolSinkOptions): ToolNotificationSink {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const maxInFlight = options.maxInFlight ?? 8;
  const baseFetch = options.fetch ?? fetch;
  // Every request of this sink's client is aborted when it takes too long, so a hung server
  // cannot hold a slot (or the tool) forever.
  const timedFetch: typeof fetch = (input, init) => baseFetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  const client: ProducerClient = createProducerClient({ url: options.url, token: options.producerKey, fetch: timedFetch });
  let inFlight = 0;

  const report = (failure: ToolSinkFailure) => {
    try {
      options.onError?.(failure);
    } catch {
      // The error callback is the caller's code; its failure must not reach the tool either.
    }
  };

  const publish = async (input: ToolNotificationInput): Promise<Notification | null> => {
    const key = typeof input?.key === "string" ? input.key : "";
    if (inFlight >= maxInFlight) {
      report({ kind: "overloaded", key, message: `${inFlight} notifications are still waiting for the server; this one was dropped` });
      return null;
    }
    inFlight++;
    try {
      const result = await client.publish({
        ...input,
        scope: "SESSION",
        sessionId: options.sessionId,
        ...(options.requestId ? { requestId: options.requestId } : {}),
      });
      if (result.ok) return result.notification;
      report({ kind: "refused", key, message: result.message });
      return null;
    } catch (error) {
      report(failureOf(error, key, timeoutMs));
      return null;
    } finally {
      inFlight--;
    }
  };

  return {
    create(input) {
      // Even a synchronous throw while building the request stays inside the promise.
      return Promise.resolve()
        .then(() => publish(input))
        .catch((error: unknown) => {
          report({ kind: "server", key: "", message: error instanceof Error ? error.message : String(error) });
          return null;
        });
    },
    get inFlight() {
      return inFlight;
    },
    close() {
      client.close();
    },
  };
}

function failureOf(error: unknown, key: string, timeoutMs: number): ToolSinkFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (/timeout|aborted/i.test(message) || (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))) {
    return { kind: "timeout", key, message: `no answer within ${timeoutMs} ms` };
  }
  if (error instanceof HeraldError) {
    if (error.code === "VALIDATION_ERROR") return { kind: "validation", key, message, field: (error as { field?: string }).field ?? "" };
    // An answer that is not GraphQL: a 5xx from the server or a proxy in front of it.
    if (error.code === "NETWORK" && /\b5\d\d\b|Internal Server Error|Bad Gateway|Service Unavailable|Gateway Timeout/i.test(message)) {
      return { kind: "server", key, message };
    }
    if (error.code === "NETWORK") return { kind: "network", key, message };
    if (error.code === "UNAUTHENTICATED" || error.code === "FORBIDDEN" || error.code === "NOT_FOUND" || error.code === "NOTIFICATION_TRANSITION") {
      return { kind: "refused", key, message };
    }
    return { kind: "server", key, message };
  }
  return { kind: "network", key, message };
}
