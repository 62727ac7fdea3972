// The shape every background loop shares: one run per interval, never two at once (a slow run
// makes the next tick skip rather than pile up), a failure logged and retried at the next tick.
import type { Logger } from "../logger.ts";

export function startPeriodic(work: () => Promise<unknown>, intervalMs: number, logger: Logger, failure: string): () => void {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      await work();
    } catch (error) {
      logger.warn({ err: (error as Error).message }, failure);
    } finally {
      running = false;
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
