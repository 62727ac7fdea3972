// Subscriptions through the stock graphql-sse client, in either of its modes.
import { createClient } from "graphql-sse";
import { gql } from "./graphql.ts";

export { eventually, sleep } from "@herald/testkit";

export interface ReceivedEvent {
  cursor: string;
  type: string;
  notification: { id: string; revision: number; status: string; title: string; snoozedUntil: string | null };
}

export interface Subscription {
  events: ReceivedEvent[];
  errors: unknown[];
  completed: boolean;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedEvent[]>;
  /** Resolves once the received events satisfy `done`; CREATED may arrive with DELIVERED marks in between. */
  waitUntil(done: (events: ReceivedEvent[]) => boolean, timeoutMs?: number): Promise<ReceivedEvent[]>;
  dispose(): void;
}

export const EVENTS_QUERY = `subscription($after: String) {
  notificationEvents(after: $after) { cursor type notification { id revision status title snoozedUntil } }
}`;

export function subscribe(
  url: string,
  token: string,
  options: { after?: string | null; singleConnection?: boolean; query?: string; variables?: Record<string, unknown> } = {},
): Subscription {
  const client = createClient({
    url: url.replace(/\/graphql$/, "/graphql/stream"),
    headers: { authorization: `Bearer ${token}` },
    singleConnection: options.singleConnection ?? false,
    retryAttempts: 0,
  });
  const events: ReceivedEvent[] = [];
  const errors: unknown[] = [];
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((w) => w());
  const sub: Subscription = {
    events,
    errors,
    completed: false,
    async waitFor(count, timeoutMs = 10_000) {
      return (await sub.waitUntil((received) => received.length >= count, timeoutMs)).slice(0, count);
    },
    waitUntil(done, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (done(events)) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(events);
          } else if (errors.length > 0) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(new Error(`subscription failed: ${JSON.stringify(errors)}`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out with ${events.length} events: ${JSON.stringify(events.map((e) => e.type))}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    dispose() {
      unsubscribe();
      client.dispose();
    },
  };
  const unsubscribe = client.subscribe<{ notificationEvents: ReceivedEvent }>(
    { query: options.query ?? EVENTS_QUERY, variables: options.variables ?? { after: options.after ?? null } },
    {
      next: (value) => {
        if (value.errors) errors.push(value.errors);
        if (value.data?.notificationEvents) events.push(value.data.notificationEvents);
        else if (value.data) events.push(value.data as never);
        notify();
      },
      error: (error) => {
        errors.push(error instanceof Error ? error.message : error);
        notify();
      },
      complete: () => {
        sub.completed = true;
        notify();
      },
    },
  );
  return sub;
}

/** The person's newest event cursor: subscribing after it misses nothing published from now on. */
export async function headCursor(graphqlUrl: string, token: string): Promise<string> {
  const head = await gql<{ notificationEventsCursor: string }>(graphqlUrl, token, "{ notificationEventsCursor }");
  if (!head.data?.notificationEventsCursor) throw new Error(`no head cursor: ${JSON.stringify(head)}`);
  return head.data.notificationEventsCursor;
}
