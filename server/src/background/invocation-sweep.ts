// Keeps action invocations within HERALD_INVOCATION_RETENTION_HOURS: a timer runs one bounded
// sweep per interval, like the history pruner beside it.
import type { Logger } from "../logger.ts";
import type { InvocationService } from "../service/invocation-service.ts";
import { startPeriodic } from "./periodic.ts";

export function startInvocationSweep(invocations: InvocationService, logger: Logger, intervalMs: number): () => void {
  return startPeriodic(
    async () => {
      const removed = await invocations.sweep();
      if (removed > 0) logger.info({ removed }, "deleted action invocations past their retention");
    },
    intervalMs,
    logger,
    "action invocation sweep failed; will retry",
  );
}
