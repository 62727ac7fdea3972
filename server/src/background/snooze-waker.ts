// Snoozed notifications come back by themselves: a timer ends every snooze whose time has
// passed, which writes an UNSNOOZED event that reaches the person's open streams.
import type { Logger } from "../logger.ts";
import type { NotificationService } from "../service/notification-service.ts";

export function startSnoozeWaker(notifications: NotificationService, logger: Logger, intervalMs: number): () => void {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      const woken = await notifications.wakeDueSnoozes();
      if (woken > 0) logger.debug({ woken }, "snoozes ended");
    } catch (error) {
      logger.warn({ err: (error as Error).message }, "snooze waker failed; will retry");
    } finally {
      running = false;
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
