// Snoozed notifications come back by themselves: a timer ends every snooze whose time has
// passed, which writes an UNSNOOZED event that reaches the person's open streams.
import type { Logger } from "../logger.ts";
import type { NotificationService } from "../service/notification-service.ts";
import { startPeriodic } from "./periodic.ts";

export function startSnoozeWaker(notifications: NotificationService, logger: Logger, intervalMs: number): () => void {
  return startPeriodic(
    async () => {
      const woken = await notifications.wakeDueSnoozes();
      if (woken > 0) logger.debug({ woken }, "snoozes ended");
    },
    intervalMs,
    logger,
    "snooze waker failed; will retry",
  );
}
