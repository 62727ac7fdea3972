// Keeps terminal history within HERALD_HISTORY_LIMIT: a timer runs one bounded pruning pass per
// interval (a pass that found a full load of work runs again at the next tick, not at once).
import type { Logger } from "../logger.ts";
import type { HistoryService } from "../service/history-service.ts";
import { startPeriodic } from "./periodic.ts";

export function startHistoryPruner(history: HistoryService, logger: Logger, intervalMs: number): () => void {
  return startPeriodic(
    async () => {
      const pruned = await history.prune();
      if (pruned > 0) logger.info({ pruned }, "pruned terminal notifications beyond the history limit");
    },
    intervalMs,
    logger,
    "history pruning failed; will retry",
  );
}
