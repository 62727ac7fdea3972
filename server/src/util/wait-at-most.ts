// Bounded waits at start-up: a dependency that does not answer in time must not hold the server.

/** Resolves when `promise` settles or after `ms`, whichever comes first. */
export async function waitAtMost(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
