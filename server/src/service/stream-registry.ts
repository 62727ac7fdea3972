// The open streams of this instance, by the credential that opened them: the per-credential cap
// is checked here, and a revoked credential's streams are ended here.
// Protocol: docs/event-stream.md, "Revocation".
import { TooManyStreamsError, UnauthenticatedError } from "../domain/errors.ts";

/** The last value of a stream that was ended for its caller's sake; the resolver turns it into that error. */
export class StreamEnded {
  constructor(readonly error: Error) {}
}

export class StreamRegistry {
  private readonly open = new Map<string, Set<(ended: StreamEnded) => void>>();

  constructor(private readonly maxPerCredential: number) {}

  /** Open streams of one credential on this instance. */
  count(credentialId: string): number {
    return this.open.get(credentialId)?.size ?? 0;
  }

  /** Credentials holding at least one open stream. */
  credentialIds(): string[] {
    return [...this.open.keys()];
  }

  /** Refuses past the cap before anything is subscribed. */
  assertRoom(credentialId: string): void {
    if (this.count(credentialId) >= this.maxPerCredential) throw new TooManyStreamsError(this.maxPerCredential);
  }

  /**
   * Wraps a subscription's source so it counts against its credential and ends (with a
   * final StreamEnded value, then done) when the credential is revoked.
   * Hand-written, not a Repeater: the stream must count from the moment it is bound (the cap
   * holds between subscribe and first read) and must be released by a return() that comes
   * before any read (graphql-sse does that to an operation completed before it was performed);
   * a Repeater starts on its first next() and gives no hook to a return() before it. It also
   * passes on every event of every stream, where a Repeater's push() costs (person-stream.ts).
   * No throw(): graphql-js's mapAsyncIterator, which wraps it, closes a source without one
   * through return() and rethrows (one closure less per stream).
   */
  bind<T>(credentialId: string, source: AsyncIterableIterator<T>): AsyncIterableIterator<T | StreamEnded> {
    this.assertRoom(credentialId);
    let ended: StreamEnded | null = null;
    let finished = false;
    // Only the pending next() waits for an interruption. Racing every next() against one
    // long-lived promise left a reaction on it per event, which grew for the stream's whole life.
    let interrupt: ((value: StreamEnded) => void) | null = null;
    const end = (value: StreamEnded) => {
      ended = value;
      interrupt?.(value);
    };
    let set = this.open.get(credentialId);
    if (!set) this.open.set(credentialId, (set = new Set()));
    set.add(end);
    const release = async () => {
      if (finished) return;
      finished = true;
      set.delete(end);
      if (set.size === 0 && this.open.get(credentialId) === set) this.open.delete(credentialId);
      await source.return?.();
    };
    const iterator: AsyncIterableIterator<T | StreamEnded> = {
      async next() {
        if (finished) return { done: true, value: undefined };
        if (ended) {
          await release();
          return { done: false, value: ended };
        }
        const interrupted = new Promise<StreamEnded>((resolve) => (interrupt = resolve));
        const result = await Promise.race([source.next(), interrupted]);
        interrupt = null;
        if (result instanceof StreamEnded) {
          await release();
          return { done: false, value: result };
        }
        if (result.done) await release();
        return result;
      },
      async return() {
        await release();
        return { done: true, value: undefined };
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  /** Ends every open stream of these credentials on this instance; returns how many. */
  revoke(credentialIds: readonly string[]): number {
    let closed = 0;
    for (const id of credentialIds) {
      for (const end of [...(this.open.get(id) ?? [])]) {
        end(new StreamEnded(new UnauthenticatedError("The credential was revoked; this stream has ended")));
        closed++;
      }
    }
    return closed;
  }
}
