// A producer's action-invocation stream: handled one at a time, resumed behind the last one
// handled after a drop or a server restart.
import { backoffDelay } from "./backoff.ts";
import { HeraldValidationError } from "./errors.ts";
import { ActionInvocationsDocument } from "./generated/graphql.ts";
import type { Transport } from "./transport.ts";
import type { ActionInvocation, ActionInvocationOptions } from "./types.ts";

/** See ProducerClient.onActionInvocation. Returns a function that stops listening. */
export function followActionInvocations(
  transport: Transport,
  handler: (invocation: ActionInvocation) => void | Promise<void>,
  options: ActionInvocationOptions,
): () => void {
  let cursor = options.after ?? null;
  let stopped = false;
  let attempt = 0;
  let unsubscribe: (() => void) | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let generation = 0;
  // Handled strictly one after the other, so the cursor only moves past finished work.
  let queue: Promise<void> = Promise.resolve();
  const backoff = options.backoff ?? { initialMs: 250, maxMs: 10_000 };
  const connect = () => {
    if (stopped) return;
    const mine = ++generation;
    unsubscribe = transport.subscribe(
      ActionInvocationsDocument,
      { plugin: options.plugin ?? null, after: cursor },
      {
        next: (data) => {
          if (mine !== generation) return;
          attempt = 0;
          const invocation = data.actionInvocations;
          queue = queue.then(async () => {
            if (stopped) return;
            try {
              await handler(invocation);
            } catch (error) {
              options.onError?.(error as Error);
            }
            cursor = invocation.cursor;
            options.onCursor?.(invocation.cursor);
          });
        },
        error: (error) => dropped(mine, error),
        complete: () => dropped(mine, new Error("The invocation stream ended")),
      },
    );
  };
  const dropped = (mine: number, error: Error) => {
    if (mine !== generation || stopped) return;
    generation++;
    unsubscribe?.();
    options.onError?.(error);
    // A refused cursor would be refused again: start over from what is still pending.
    if (error instanceof HeraldValidationError) cursor = null;
    attempt++;
    // Reconnect once the handler caught up, so the cursor sent is the last one handled.
    timer = setTimeout(() => void queue.then(connect), backoffDelay(attempt, backoff));
  };
  connect();
  return () => {
    stopped = true;
    generation++;
    if (timer) clearTimeout(timer);
    unsubscribe?.();
  };
}
