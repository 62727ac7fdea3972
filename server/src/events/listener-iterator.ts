// Turns a push listener into a pull iterator for a subscription: values queue up (at most
// `maxQueued`; beyond that the oldest waiting values are kept and new ones dropped), and
// closing the iterator detaches the listener at once, even while it waits.
export function listenerIterator<T>(attach: (push: (value: T) => void) => () => void, maxQueued: number): AsyncIterableIterator<T> {
  const queue: T[] = [];
  let wake: (() => void) | null = null;
  let closed = false;
  const detach = attach((value) => {
    if (queue.length < maxQueued) queue.push(value);
    wake?.();
  });
  const finish = () => {
    closed = true;
    detach();
    wake?.();
  };
  const iterator: AsyncIterableIterator<T> = {
    async next() {
      while (!closed) {
        if (queue.length > 0) return { done: false, value: queue.shift()! };
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
      return { done: true, value: undefined };
    },
    async return() {
      finish();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
