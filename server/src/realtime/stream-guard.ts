// Yoga's own SSE responses (subscriptions on /graphql) pass through here: a heartbeat
// comment at a fixed interval, so proxies keep the stream and dead peers are found, and a
// bound on what may wait for a slow client before the server closes its connection.
// Protocol: docs/event-stream.md ("Heartbeats", "Slow consumers").
// /graphql/stream writes its streams itself (event-stream-body.ts) with the same heartbeat and bound.
import { isAsyncIterable, type Plugin } from "graphql-yoga";
import { startTicks, stopTicks } from "./heartbeat.ts";

export interface StreamGuardOptions {
  heartbeatMs: number;
  /** Bytes that may wait for one client; past this the connection is closed. */
  maxBufferedBytes: number;
  onSlowConsumer?: () => void;
  /** Paths whose event streams are written and guarded by their own endpoint. */
  except?: readonly string[];
}

const heartbeat = new TextEncoder().encode(": heartbeat\n\n");

export function useStreamGuard(options: StreamGuardOptions): Plugin {
  return {
    // Yoga answers 406 when a subscription's client accepts no streaming media type, and leaves
    // the subscription (and its feed listener) running for good. Its result processors run
    // before this plugin's, so none chose one here: the subscription ends now.
    onResultProcess({ result, resultProcessor }) {
      if (resultProcessor || !isAsyncIterable(result)) return;
      void Promise.resolve(result[Symbol.asyncIterator]().return?.()).catch(() => undefined);
    },
    onResponse({ request, response, setResponse }) {
      if (!response.body || !response.headers.get("content-type")?.startsWith("text/event-stream")) return;
      if (options.except?.includes(new URL(request.url).pathname)) return;
      // Proxies such as nginx buffer responses by default; an event stream must pass through at once.
      const headers = new Headers(response.headers);
      headers.set("x-accel-buffering", "no");
      setResponse(new Response(guard(response.body, options, request.signal), { status: response.status, headers }));
    },
  };
}

export function guard(source: ReadableStream<Uint8Array>, options: StreamGuardOptions, clientGone?: AbortSignal): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let stopBeating = () => {};
  // The HTTP server aborts the request when its client leaves but does not cancel the response
  // body: without this, Yoga's own SSE on /graphql kept the subscription (and its feed listener)
  // of every client that had left.
  const leave = () => {
    stopBeating();
    reader.cancel("client gone").catch(() => undefined);
  };
  if (clientGone?.aborted) queueMicrotask(leave);
  else clientGone?.addEventListener("abort", leave, { once: true });
  // A heartbeat may only go between two messages: inside one, its blank line would end the message.
  let atBoundary = true;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const beating = {
          beat() {
            if (atBoundary && controller.desiredSize !== null && controller.desiredSize > 0) controller.enqueue(heartbeat);
          },
        };
        startTicks(options.heartbeatMs, beating);
        stopBeating = () => stopTicks(options.heartbeatMs, beating);
        // Read the source eagerly so that what waits for the client waits here, where it is
        // counted, rather than in an unbounded queue upstream.
        void (async () => {
          try {
            for (;;) {
              const { done, value } = await reader.read();
              if (done) break;
              controller.enqueue(value);
              atBoundary = value.length >= 2 && value[value.length - 1] === 10 && value[value.length - 2] === 10;
              if (controller.desiredSize !== null && controller.desiredSize < 0) {
                options.onSlowConsumer?.();
                await reader.cancel("slow consumer");
                controller.error(new Error("slow consumer"));
                return;
              }
            }
            controller.close();
          } catch {
            // The source failed (its store went away mid-stream): end the response cleanly, so the
            // client resumes from its last cursor. An errored body would stay errored, and every
            // later cancel of it (the socket closing) would reject with nobody to catch it.
            try {
              controller.close();
            } catch {
              // already closed by the client
            }
          } finally {
            stopBeating();
          }
        })();
      },
      cancel(reason) {
        stopBeating();
        // A client that leaves after the source failed (its store went away mid-stream) cancels a
        // source that is already errored, and that cancel rejects with the source's error. Nobody
        // awaits the cancel of a response body, so letting it reject crashed the whole process.
        return reader.cancel(reason).catch(() => undefined);
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: options.maxBufferedBytes }),
  );
}
