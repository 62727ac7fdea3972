// Retention work that runs without a request: records that live only as long as the server.
import type { Logger } from "../logger.ts";
import type { NotificationService } from "../service/notification-service.ts";

/**
 * UNTIL_SERVER_RESTART records end when the server that held them stops; the next start expires
 * what is left before taking traffic. With several instances on one database this treats the
 * deployment as the server (docs/decisions.md, "Retention").
 */
export async function expireServerLifetimeRecords(notifications: NotificationService, logger: Logger): Promise<void> {
  const expired = await notifications.expireServerLifetime();
  if (expired > 0) logger.info({ expired }, "expired UNTIL_SERVER_RESTART notifications from the previous run");
}
