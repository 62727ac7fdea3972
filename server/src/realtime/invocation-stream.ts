// A producer's actionInvocations subscription: what it missed, from storage, then live, with no
// gap and no duplicate at the seam. Bus messages only say "something up to seq N committed":
// every invocation is read from storage, so a lost, late or reordered message costs nothing but
// a wait until the next message or poll. Protocol: docs/event-stream.md.
import { Repeater } from "graphql-yoga";
import type { InvocationRecord, InvocationState } from "../domain/invocation.ts";
import type { EventFeed } from "./event-feed.ts";
import { listenerStream } from "./listener-stream.ts";

export interface InvocationReader {
  maxSeq(): Promise<number>;
  read(query: { after: number; upTo: number; plugin: string | null; state: InvocationState | null; limit: number }): Promise<InvocationRecord[]>;
}

export interface InvocationStreamDeps {
  feed: Pick<EventFeed, "onInvocation">;
  store: InvocationReader;
  /** Signals waiting before new ones are dropped (a dropped one is recovered by the next). */
  maxQueued: number;
  /** Safety net for a lost last message: how often storage is asked for anything newer. */
  pollMs: number;
}

const PAGE = 200;
const POLL = 0;

/**
 * `after` null: every invocation still PENDING, oldest first, then live. Otherwise every
 * invocation after that sequence number, then live. Closing the stream detaches at once.
 */
export function invocationStream(deps: InvocationStreamDeps, plugin: string | null, after: number | null): Repeater<InvocationRecord> {
  return new Repeater<InvocationRecord>(async (push, stop) => {
    let stopped = false;
    const signals = listenerStream<number>((signal) => {
      const detach = deps.feed.onInvocation((message) => signal(message.seq));
      const timer = setInterval(() => signal(POLL), deps.pollMs);
      timer.unref();
      return () => {
        detach();
        clearInterval(timer);
      };
    }, deps.maxQueued);
    // Reading starts the listener before storage is read: what commits during the replay is signalled, not lost.
    const firstSignal = signals.next();
    void stop.then(() => {
      stopped = true;
      void signals.return();
    });

    // Sends every invocation in (from, upTo], a page at a time, each when the client asks for it.
    const send = async (from: number, upTo: number, state: InvocationState | null) => {
      for (let position = from; !stopped;) {
        const page = await deps.store.read({ after: position, upTo, plugin, state, limit: PAGE });
        for (const record of page) {
          if (stopped) return;
          await push(record);
        }
        if (page.length < PAGE) return;
        position = page[page.length - 1]!.seq;
      }
    };

    try {
      const head = await deps.store.maxSeq();
      await (after === null ? send(0, head, "PENDING") : send(after, head, null));
      let position = Math.max(after ?? 0, head);
      for (let signal = await firstSignal; !signal.done && !stopped; signal = await signals.next()) {
        if (signal.value !== POLL && signal.value <= position) continue; // already read
        const upTo = signal.value === POLL ? await deps.store.maxSeq() : signal.value;
        if (upTo <= position) continue;
        await send(position, upTo, null);
        position = upTo;
      }
    } catch (error) {
      // A read still in flight when the client left has no one to tell.
      if (!stopped) throw error;
    } finally {
      void signals.return();
    }
  });
}
