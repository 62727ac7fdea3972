// Background work that gives way to requests. Between two batches the worker pauses, and watches
// how busy the event loop is while it is away: when something else (requests, streams) kept the
// loop busy, the pauses grow until the background work takes at most a tenth of the loop; when
// the loop was idle, they shrink back to almost nothing. So a burst of publishes runs at nearly
// full speed while its channel deliveries wait in the outbox, and an idle server sends at once.
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";

/** At most this many times a batch's own time is spent paused (a tenth of the loop for the work). */
const MAX_FACTOR = 9;
/** The shortest pause: long enough to see whether anything else wants the loop. */
const MIN_PAUSE_MS = 2;
/** The loop counts as busy when others used more than this share of a pause. */
const BUSY = 0.5;

export class RequestYield {
  /** How many times a batch's time the next pause lasts (0: just a glance at the loop). */
  factor = 0;

  /** Pauses after a batch that took `workMs`; resolves when the next batch may start. */
  async after(workMs: number): Promise<void> {
    const before = performance.eventLoopUtilization();
    await sleep(Math.max(MIN_PAUSE_MS, workMs * this.factor));
    const others = performance.eventLoopUtilization(before).utilization;
    this.factor = others > BUSY ? Math.min(MAX_FACTOR, Math.max(1, this.factor * 2)) : this.factor < 0.5 ? 0 : this.factor / 2;
  }
}
