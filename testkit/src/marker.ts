// "Nothing more arrives", shown by an event rather than by waiting: after the thing under test,
// publish a marker the streams must carry next, wait until every stream has it, and read what
// came before it. A stream that delivers in order carries whatever the thing under test sent (a
// duplicate, a stray) before its marker or not at all.
import { eventually } from "./wait.ts";

/** One stream's received items so far, in arrival order. */
export type Received<T> = () => T[];

/**
 * Publishes a marker and waits until every stream has received an item `isMarker` matches to it;
 * resolves with each stream's items before its (first) marker, in the order of `streams`.
 */
export async function untilMarker<T, M>(
  streams: Received<T>[],
  publishMarker: () => Promise<M>,
  isMarker: (item: T, marker: M) => boolean,
  timeoutMs = 30_000,
): Promise<T[][]> {
  const marker = await publishMarker();
  const matches = (item: T) => isMarker(item, marker);
  await eventually(() => streams.every((received) => received().some(matches)), timeoutMs, "the marker on every stream");
  return streams.map((received) => {
    const items = received();
    return items.slice(0, items.findIndex(matches));
  });
}
