// A producer's actionInvocations subscription: what it missed, from storage, then live, with no
// gap and no duplicate at the seam. Bus messages only say "something up to seq N committed":
// every invocation is read from storage, so a lost, late or reordered message costs nothing but
// a wait until the next message or poll. Protocol: docs/event-stream.md.
import type { InvocationRecord, InvocationState } from "../domain/invocation.ts";
import type { EventFeed } from "./event-feed.ts";
import { listenerIterator } from "./listener-iterator.ts";

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
 * invocation after that sequence number, then live. Closing the iterator detaches at once.
 */
export function invocationStream(deps: InvocationStreamDeps, plugin: string | null, after: number | null): AsyncIterableIterator<InvocationRecord> {
  // Subscribe before reading storage: what commits during the replay is signalled, not lost.
  const signals = listenerIterator<number>((push) => {
    const detach = deps.feed.onInvocation((message) => push(message.seq));
    const timer = setInterval(() => push(POLL), deps.pollMs);
    timer.unref();
    return () => {
      detach();
      clearInterval(timer);
    };
  }, deps.maxQueued);

  async function* pages(from: number, upTo: number, state: InvocationState | null): AsyncGenerator<InvocationRecord> {
    for (let position = from; ; ) {
      const page = await deps.store.read({ after: position, upTo, plugin, state, limit: PAGE });
      yield* page;
      if (page.length < PAGE) return;
      position = page[page.length - 1]!.seq;
    }
  }

  async function* run(): AsyncGenerator<InvocationRecord> {
    const head = await deps.store.maxSeq();
    yield* after === null ? pages(0, head, "PENDING") : pages(after, head, null);
    let position = Math.max(after ?? 0, head);
    for (;;) {
      const signal = await signals.next();
      if (signal.done) return;
      if (signal.value !== POLL && signal.value <= position) continue; // already read
      const upTo = signal.value === POLL ? await deps.store.maxSeq() : signal.value;
      if (upTo <= position) continue;
      yield* pages(position, upTo, null);
      position = upTo;
    }
  }

  const generator = run();
  const iterator: AsyncIterableIterator<InvocationRecord> = {
    next: () => generator.next(),
    async return() {
      await signals.return!();
      return generator.return(undefined);
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
