// A producer's `data` travels as JSON the SDK cannot know the shape of: it is `unknown` on
// Notification. Producers and their clients agree on a shape; this reads it with a check.

/**
 * The notification's producer data as `T`, when `isT` accepts it; otherwise null. Without a
 * check, the caller asserts the shape (`dataOf<MyData>(n)`), as with any JSON.
 */
export function dataOf<T>(notification: { data: unknown }, isT?: (value: unknown) => value is T): T | null {
  const value = notification.data;
  if (value === null || value === undefined) return null;
  if (isT && !isT(value)) return null;
  return value as T;
}
