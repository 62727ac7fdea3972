// Revocation reaches other instances on the bus; this is the net under it. A message lost to a
// Redis outage, or a `herald revoke` run without REDIS_URL, still ends the credential's streams
// within one interval, because every instance asks the store about the credentials it serves.
import type { Logger } from "../logger.ts";
import type { RealtimeService } from "../realtime/realtime-service.ts";
import { startPeriodic } from "./periodic.ts";

export function startRevocationSweep(realtime: RealtimeService, logger: Logger, intervalMs: number): () => void {
  return startPeriodic(() => realtime.endStreamsOfRevoked(), intervalMs, logger, "revocation check failed; will retry");
}
