// Waits for a person's answer to one notification: the producers' durable invocation stream
// (`actionInvocations` over graphql-sse on /graphql/stream), which first replays every invocation
// still PENDING, so an answer given while no agent waited is found as soon as one waits again.
import { createClient } from "graphql-sse";
import { ProducerFailure, type ProducerConnection } from "../producer-client.ts";

export interface Invocation {
  id: string;
  notificationId: string;
  actionId: string;
  fixedParams: Record<string, unknown> | null;
  values: Record<string, unknown> | null;
}

const SUBSCRIPTION = `subscription McpAnswers($plugin: String) {
  actionInvocations(plugin: $plugin) { id notificationId actionId fixedParams values }
}`;

/**
 * The first invocation of `notificationId` (pending or new), or null when `signal` aborts first
 * (the wait's timeout, or the agent cancelling the call). Invocations of other notifications are
 * left alone: another waiter (or a later call) takes them.
 */
export async function nextInvocation(connection: ProducerConnection, plugin: string, notificationId: string, signal: AbortSignal): Promise<Invocation | null> {
  if (signal.aborted) return null;
  const client = createClient({
    url: connection.endpoint.replace(/\/graphql$/, "/graphql/stream"),
    headers: { authorization: `Bearer ${connection.key}` },
    singleConnection: false,
    // A dropped stream reconnects and replays what is still pending: nothing is lost meanwhile.
    retryAttempts: 5,
  });
  const results = client.iterate<{ actionInvocations: Invocation }>({ query: SUBSCRIPTION, variables: { plugin } });
  const stop = () => void results.return?.();
  signal.addEventListener("abort", stop, { once: true });
  try {
    for await (const result of results) {
      if (result.errors?.length) throw streamFailure(result.errors[0]!);
      const invocation = result.data?.actionInvocations;
      if (invocation?.notificationId === notificationId) return invocation;
    }
    return null;
  } catch (error) {
    if (signal.aborted) return null;
    if (error instanceof ProducerFailure) throw error;
    throw new ProducerFailure(1, `the answer stream from Herald failed: ${describe(error)}`);
  } finally {
    signal.removeEventListener("abort", stop);
    client.dispose();
  }
}

function streamFailure(error: { message: string; extensions?: Record<string, unknown> }): ProducerFailure {
  const code = typeof error.extensions?.code === "string" ? ` (${error.extensions.code})` : "";
  return new ProducerFailure(1, `Herald refused the answer stream: ${error.message}${code}`);
}

/** graphql-sse rejects with a Response, a CloseEvent-like object or an Error. */
function describe(error: unknown): string {
  if (error instanceof Error) return (error as { cause?: { code?: string } }).cause?.code ?? error.message;
  if (error instanceof Response) return `HTTP ${error.status}`;
  if (Array.isArray(error)) return (error as { message?: string }[]).map((e) => e.message).join("; ");
  return String(error);
}
