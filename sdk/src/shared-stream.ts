// One event stream for all the tabs of one origin and one person: the tab holding a Web Lock
// (the leader) holds the SSE stream and passes each event on over a BroadcastChannel; the others
// apply what it passes on, each remembering the cursor of the last event it saw, so that when the
// leader goes the tab that takes the lock resumes from there without a gap. Without Web Locks,
// BroadcastChannel or SubtleCrypto (Node, old browsers) every view keeps its own stream.
import type { Sink } from "./transport.ts";
import type { NotificationEvent } from "./types.ts";

export interface ShareOptions {
  /**
   * Whose stream this is (the person's or the credential's id). Only a hash of it goes into the
   * lock and channel names, and two persons signed in to one browser never share events.
   */
  key: string;
}

export type EventSource = (after: string | null, sink: Sink<NotificationEvent>) => () => void;

interface Locks {
  request(name: string, options: { signal: AbortSignal }, callback: () => Promise<void>): Promise<unknown>;
}

interface SharingGlobals {
  navigator?: { locks?: Locks };
  BroadcastChannel?: typeof BroadcastChannel;
  crypto?: { subtle?: Pick<SubtleCrypto, "digest"> };
}

/** Wraps `events` so tabs of one origin and key share one stream; `events` itself where they cannot. */
export function sharedEvents(events: EventSource, share: ShareOptions, globals: SharingGlobals = globalThis as SharingGlobals): EventSource {
  const locks = globals.navigator?.locks;
  const Channel = globals.BroadcastChannel;
  const subtle = globals.crypto?.subtle;
  if (!locks || !Channel || !subtle) return events;
  const name = channelName(share.key, subtle);
  return (after, sink) => {
    let cursor = after;
    let stopped = false;
    let leading = false;
    let channel: BroadcastChannel | null = null;
    let release: (() => void) | null = null;
    let stopStream: (() => void) | null = null;
    const abort = new AbortController();
    const stop = () => {
      if (stopped) return;
      stopped = true;
      abort.abort();
      stopStream?.();
      stopStream = null;
      release?.();
      channel?.close();
    };
    name
      .then((lockName) => {
        if (stopped) return;
        const open = new Channel(lockName);
        channel = open;
        open.onmessage = (message: MessageEvent<NotificationEvent>) => {
          if (leading || stopped) return;
          cursor = message.data.cursor;
          sink.next(message.data);
        };
        // The lock is held for as long as this promise is pending: until this view lets go, its
        // stream fails, or the tab closes (the browser then gives the lock to the next tab).
        const lead = () =>
          new Promise<void>((resolve) => {
            if (stopped) return resolve();
            leading = true;
            release = resolve;
            stopStream = events(cursor, {
              next: (event) => {
                cursor = event.cursor;
                open.postMessage(event);
                sink.next(event);
              },
              error: (error) => {
                stop();
                sink.error(error);
              },
              complete: () => {
                stop();
                sink.complete();
              },
            });
          });
        // Rejected with an AbortError when the view lets go before it ever led: nothing to do.
        locks.request(lockName, { signal: abort.signal }, lead).catch(() => undefined);
      })
      .catch((error: Error) => {
        if (!stopped) sink.error(error);
      });
    return stop;
  };
}

async function channelName(key: string, subtle: Pick<SubtleCrypto, "digest">): Promise<string> {
  const digest = await subtle.digest("SHA-256", new TextEncoder().encode(key));
  const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `herald-events:${hex}`;
}
