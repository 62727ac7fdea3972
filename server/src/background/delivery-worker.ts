// Sends the channel outbox off the request path: woken when a revision that queued deliveries
// commits (the bus), when a test send is queued (the bell), and otherwise every poll
// interval (delays, retries, holds coming due). One run at a time per instance; several instances
// share the outbox through leases (storage/channels/delivery-outbox.ts). Between batches it gives
// way to requests (yield-to-requests.ts).
import { performance } from "node:perf_hooks";
import type { EventBus } from "../events/bus.ts";
import type { Logger } from "../logger.ts";
import type { DeliveryBell } from "../service/channel-service.ts";
import type { DeliveryService } from "../service/delivery-service.ts";
import { startPeriodic } from "./periodic.ts";
import { RequestYield } from "./yield-to-requests.ts";

/** Finished deliveries are kept this long (Notification.deliveries, the settings page's recent list). */
const RETENTION_MS = 7 * 24 * 3600 * 1000;
const PRUNE_INTERVAL_MS = 3600 * 1000;

export function startDeliveryWorker(deliveries: DeliveryService, bus: EventBus, bell: DeliveryBell, logger: Logger, pollMs: number): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const yielding = new RequestYield();

  const wake = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          for (;;) {
            if (stopped) break;
            const started = performance.now();
            if ((await deliveries.run()) === 0) break;
            await yielding.after(performance.now() - started);
          }
        } catch (error) {
          logger.warn({ err: (error as Error).message }, "delivery worker failed; will retry");
        }
      } while (again && !stopped);
      running = null;
    })();
  };

  const unsubscribe = bus.subscribe((message) => {
    // A change that queued nothing wakes no one (most publishes, for people without channels);
    // an older sender does not say, and any new revision may have.
    if (message.kind === "event" && (message.queuedDeliveries ?? (message.event.type === "CREATED" || message.event.type === "UPDATED"))) wake();
    if (message.kind === "quiet" && !message.quietMode) {
      deliveries
        .releaseHeld(message.personId)
        .then(wake, (error: unknown) => logger.warn({ err: (error as Error).message }, "could not release held deliveries"));
    }
  });
  const unlisten = bell.listen(wake);
  const timer = setInterval(wake, pollMs);
  timer.unref();
  const stopPrune = startPeriodic(() => deliveries.prune(RETENTION_MS), PRUNE_INTERVAL_MS, logger, "delivery prune failed; will retry");
  wake();
  return async () => {
    stopped = true;
    clearInterval(timer);
    stopPrune();
    unsubscribe();
    unlisten();
    await running;
  };
}
