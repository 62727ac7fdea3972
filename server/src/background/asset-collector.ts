// Attachments no notification references any more are deleted: after their notification was
// revised without them or removed, or when an upload was never published. The grace period is
// measured by the injectable clock (AssetService.collect), so an upload awaiting its publish stays.
import type { Logger } from "../logger.ts";
import type { AssetService } from "../service/asset-service.ts";

export function startAssetCollector(assets: AssetService, logger: Logger, intervalMs: number): () => void {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      const removed = await assets.collect();
      if (removed > 0) logger.debug({ removed }, "unreferenced attachments collected");
    } catch (error) {
      logger.warn({ err: (error as Error).message }, "attachment collector failed; will retry");
    } finally {
      running = false;
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
