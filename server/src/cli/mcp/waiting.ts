// A tool call that waits: cancelled with the agent's request, and reporting progress while it
// waits when the client asked for it (clients that reset their request timeout on progress then
// let a long wait run).
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

const PROGRESS_EVERY_MS = 10_000;

export async function keepingAlive<T>(extra: ToolExtra, timeoutSeconds: number, wait: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const token = extra._meta?.progressToken;
  const started = Date.now();
  const timer =
    token === undefined
      ? undefined
      : setInterval(() => {
          const progress = Math.round((Date.now() - started) / 1000);
          void extra
            .sendNotification({
              method: "notifications/progress",
              params: { progressToken: token, progress, total: timeoutSeconds, message: "waiting for the person's answer" },
            })
            .catch(() => undefined);
        }, PROGRESS_EVERY_MS);
  try {
    return await wait(extra.signal);
  } finally {
    clearInterval(timer);
  }
}
