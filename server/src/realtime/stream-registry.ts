// The open streams of this instance, by the credential that opened them: the per-credential cap
// is checked here, and a revoked credential's streams are ended here.
// Protocol: docs/event-stream.md, "Revocation".
import { TooManyStreamsError, UnauthenticatedError } from "../domain/errors.ts";
import type { StreamRegistration } from "./person-stream.ts";

/** A stream the registry can end: a bound iterator, or a stream that ends itself (the person stream). */
interface Endable {
  end(value: StreamEnded): void;
}

/** A stream that ends itself with a last value and tells its registration when it is over. */
export interface SelfEnding {
  endWith(value: StreamEnded): void;
  registration: StreamRegistration | null;
}

/** The last value of a stream that was ended for its caller's sake; the resolver turns it into that error. */
export class StreamEnded {
  constructor(readonly error: Error) {}
}

export class StreamRegistry {
  private readonly open = new Map<string, Set<Endable>>();

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
   * The source must end a pending next() when return() is called (the person stream and Yoga's
   * Repeaters do): a revocation that finds the stream waiting closes the source, and the waiting
   * next() answers with the StreamEnded instead. Racing every next() against an interruption
   * promise cost three promises per event of every stream (bench/history.md, "Render once: live fan-out").
   * Hand-written, not a Repeater: the stream must count from the moment it is bound (the cap
   * holds between subscribe and first read) and must be released by a return() that comes
   * before any read (graphql-sse does that to an operation completed before it was performed);
   * a Repeater starts on its first next() and gives no hook to a return() before it. It also
   * passes on every event of every stream, where a Repeater's push() costs (person-stream.ts).
   * No throw(): graphql-js's mapAsyncIterator, which wraps it, closes a source without one
   * through return() and rethrows (one closure less per stream).
   */
  bind<T>(credentialId: string, source: AsyncIterableIterator<T>): AsyncIterableIterator<T | StreamEnded> {
    return this.admit(credentialId, new BoundStream(source, this, credentialId));
  }

  /**
   * Counts a stream that ends itself (no wrapper: the person stream, which every subscriber
   * holds): a revocation calls its endWith, and it releases its registration when it is over.
   */
  track(credentialId: string, stream: SelfEnding): void {
    stream.registration = this.admit(credentialId, new Registration(stream, this, credentialId));
  }

  /**
   * Counts a connection that carries streams but is not one itself (a graphql-sse
   * single-connection stream, idle or not): `close` ends it when the credential is revoked.
   */
  hold(credentialId: string, close: () => void): StreamRegistration {
    return this.admit(credentialId, new HeldConnection(close, this, credentialId));
  }

  /** Counts a stream against its credential, refusing past the cap. */
  private admit<S extends Endable>(credentialId: string, stream: S): S {
    this.assertRoom(credentialId);
    let set = this.open.get(credentialId);
    if (!set) this.open.set(credentialId, (set = new Set()));
    set.add(stream);
    return stream;
  }

  /** A stream ended: it no longer counts against its credential. */
  forget(credentialId: string, bound: Endable): void {
    const set = this.open.get(credentialId);
    if (!set?.delete(bound)) return;
    if (set.size === 0) this.open.delete(credentialId);
  }

  /** Ends every open stream of these credentials on this instance; returns how many. */
  revoke(credentialIds: readonly string[]): number {
    let closed = 0;
    for (const id of credentialIds) {
      for (const bound of [...(this.open.get(id) ?? [])]) {
        bound.end(new StreamEnded(new UnauthenticatedError("The credential was revoked; this stream has ended")));
        closed++;
      }
    }
    return closed;
  }
}

/** One open stream as the registry holds it: its fields are its state (no closures per stream). */
export class BoundStream<T> implements AsyncIterableIterator<T | StreamEnded> {
  private ended: StreamEnded | null = null;
  private finished = false;
  private waiting = false;

  constructor(
    private readonly source: AsyncIterableIterator<T>,
    private readonly registry: StreamRegistry,
    private readonly credentialId: string,
  ) {}

  end(value: StreamEnded): void {
    if (this.ended) return;
    this.ended = value;
    if (this.waiting) void this.source.return?.()?.catch(() => undefined);
  }

  async next(): Promise<IteratorResult<T | StreamEnded>> {
    if (this.finished) return { done: true, value: undefined };
    if (this.ended) return this.endedResult(this.ended);
    this.waiting = true;
    let result: IteratorResult<T>;
    try {
      result = await this.source.next();
    } finally {
      this.waiting = false;
    }
    // Revoked while it waited (the source was closed for it) or as its event arrived: nothing more goes out.
    if (this.ended) return this.endedResult(this.ended);
    if (result.done) await this.release();
    return result;
  }

  async return(): Promise<IteratorResult<T | StreamEnded>> {
    await this.release();
    return { done: true, value: undefined };
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T | StreamEnded> {
    return this;
  }

  private async endedResult(value: StreamEnded): Promise<IteratorResult<T | StreamEnded>> {
    await this.release();
    return { done: false, value };
  }

  private async release() {
    if (this.finished) return;
    this.finished = true;
    this.registry.forget(this.credentialId, this);
    await this.source.return?.();
  }
}

/** A self-ending stream as the registry holds it. */
class Registration implements Endable, StreamRegistration {
  constructor(
    private readonly stream: SelfEnding,
    private readonly registry: StreamRegistry,
    private readonly credentialId: string,
  ) {}

  end(value: StreamEnded): void {
    this.stream.endWith(value);
  }

  release(): void {
    this.registry.forget(this.credentialId, this);
  }
}

/** A held connection as the registry holds it. */
class HeldConnection implements Endable, StreamRegistration {
  constructor(
    private readonly close: () => void,
    private readonly registry: StreamRegistry,
    private readonly credentialId: string,
  ) {}

  end(): void {
    this.close();
  }

  release(): void {
    this.registry.forget(this.credentialId, this);
  }
}
