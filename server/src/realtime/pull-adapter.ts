// A person stream consumed by pulling (tests, and consumers without a sink of their own).
import type { StreamSink } from "./person-stream.ts";

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * A person stream as a pull iterator: the stream pushes one item ahead at most, and waits for
 * next() to take it (so a client that does not read lets the feed's queue fill, as it should).
 */
export class PullAdapter<T> implements AsyncIterableIterator<T>, StreamSink<T> {
  private ready: { value: T } | null = null;
  private taken: (() => void) | null = null;
  private waiter: { resolve(result: IteratorResult<T>): void; reject(error: unknown): void } | null = null;
  private over: { error: Error | null } | null = null;

  constructor(private readonly stream: { close(): void; resume(): void }) {}

  wanting(): boolean {
    return this.waiter !== null;
  }

  item(value: T): void | Promise<void> {
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = null;
      waiter.resolve({ done: false, value });
      return;
    }
    this.ready = { value };
    return new Promise<void>((resolve) => (this.taken = resolve));
  }

  end(error: Error | null): void {
    this.over = { error };
    const waiter = this.waiter;
    if (!waiter) return;
    this.waiter = null;
    this.over = { error: null };
    if (error) waiter.reject(error);
    else waiter.resolve(DONE);
  }

  next(): Promise<IteratorResult<T>> {
    const ready = this.ready;
    if (ready) {
      this.ready = null;
      const taken = this.taken;
      this.taken = null;
      taken?.();
      return Promise.resolve({ done: false, value: ready.value });
    }
    const over = this.over;
    if (over) {
      // A failure is told once; after it the iterator is done.
      this.over = { error: null };
      return over.error ? Promise.reject(over.error) : Promise.resolve(DONE);
    }
    const asked = new Promise<IteratorResult<T>>((resolve, reject) => (this.waiter = { resolve, reject }));
    this.stream.resume();
    return asked;
  }

  return(): Promise<IteratorResult<T>> {
    this.stop();
    return Promise.resolve(DONE);
  }

  throw(error: unknown): Promise<IteratorResult<T>> {
    this.stop();
    return Promise.reject(error);
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }

  private stop() {
    this.over = { error: null };
    this.ready = null;
    this.stream.close();
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.resolve(DONE);
    const taken = this.taken;
    this.taken = null;
    taken?.();
  }
}
