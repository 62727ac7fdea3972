// Turns a push listener into a pull stream for a subscription (graphql-yoga's Repeater): values
// wait in a bounded buffer (beyond `maxQueued`, the oldest waiting values are kept and new ones
// dropped), and closing the stream detaches the listener at once, even while a read waits.
// A Repeater starts on its first next(): the listener attaches then, not when this is called.
import { DroppingBuffer, Repeater } from "graphql-yoga";

export function listenerStream<T>(attach: (push: (value: T) => void) => () => void, maxQueued: number): Repeater<T> {
  return new Repeater<T>(async (push, stop) => {
    const detach = attach((value) => void push(value));
    await stop;
    detach();
  }, new DroppingBuffer(maxQueued));
}
