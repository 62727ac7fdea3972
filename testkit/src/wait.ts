// Waiting for a condition instead of sleeping for a guessed time.

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls `check` until it holds, and throws when `timeoutMs` passes first, so a wait can never pass
 * silently. A machine busy with other suites gets the whole timeout, not a fixed sleep.
 */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 15_000, what?: string, stepMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what ?? check.toString().slice(0, 200)}`);
    // Kept: the polling step; a check with no event of its own is read again a moment later.
    await sleep(stepMs);
  }
}
