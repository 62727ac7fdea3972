// This instance's heartbeat, and the sweep that ends the server-lifetime records of instances
// that stopped without a clean shutdown. Two loops: a slow sweep never delays a heartbeat.
import type { Logger } from "../logger.ts";
import type { ServerInstanceService } from "../service/server-instance-service.ts";
import { startPeriodic } from "./periodic.ts";

export function startInstanceHeartbeat(instance: ServerInstanceService, logger: Logger, intervalMs: number): () => void {
  const stopBeat = startPeriodic(() => instance.beat(), intervalMs, logger, "instance heartbeat failed; will retry");
  const stopSweep = startPeriodic(
    async () => logExpired(logger, await instance.expireEnded("periodic")),
    intervalMs,
    logger,
    "server-lifetime sweep failed; will retry",
  );
  return () => {
    stopBeat();
    stopSweep();
  };
}

/** Before this instance takes traffic: what instances that are gone (or stale) left behind ends. */
export async function expireLeftBehind(instance: ServerInstanceService, logger: Logger): Promise<void> {
  logExpired(logger, await instance.expireEnded("start"));
}

function logExpired(logger: Logger, expired: number): void {
  if (expired > 0) logger.info({ expired }, "expired UNTIL_SERVER_RESTART notifications of instances that have ended");
}
