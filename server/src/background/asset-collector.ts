// Attachments no notification references any more are deleted: after their notification was
// revised without them or removed, or when an upload was never published. The grace period is
// measured by the injectable clock (AssetService.collect), so an upload awaiting its publish stays.
import type { Logger } from "../logger.ts";
import type { AssetService } from "../service/asset-service.ts";
import { startPeriodic } from "./periodic.ts";

export function startAssetCollector(assets: AssetService, logger: Logger, intervalMs: number): () => void {
  return startPeriodic(
    async () => {
      const removed = await assets.collect();
      if (removed > 0) logger.debug({ removed }, "unreferenced attachments collected");
    },
    intervalMs,
    logger,
    "attachment collector failed; will retry",
  );
}
