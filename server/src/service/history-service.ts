// The terminal history limit (HERALD_HISTORY_LIMIT): per scope target, terminal records beyond
// the newest `limit` go, oldest first, with their events, once their last change is older than
// the event retention. Active records are never pruned. Rule and cursor promise:
// docs/decisions.md, "History limit".
import type { Clock } from "../domain/clock.ts";
import { ValidationError } from "../domain/errors.ts";
import type { HistoryStore } from "../storage/notifications/history-store.ts";

export interface HistoryOptions {
  limit: number;
  eventRetentionMs: number;
}

/** Records deleted per transaction, and targets looked at per pass: every step is bounded. */
const BATCH = 200;
const TARGETS_PER_PASS = 50;

export class HistoryService {
  constructor(
    private readonly store: HistoryStore,
    private readonly clock: Clock,
    private readonly options: HistoryOptions,
  ) {}

  /** One pass over at most TARGETS_PER_PASS targets and `maxBatches` batches; returns records pruned. */
  async prune(maxBatches = 25): Promise<number> {
    const { limit, eventRetentionMs } = this.options;
    const changedBefore = new Date(this.clock.now().getTime() - eventRetentionMs);
    let pruned = 0;
    let batches = 0;
    for (const target of await this.store.overfullTargets(limit, TARGETS_PER_PASS)) {
      while (batches < maxBatches) {
        const ids = await this.store.prunable(target, limit, changedBefore, BATCH);
        if (ids.length === 0) break;
        batches++;
        pruned += await this.store.delete(ids);
        if (ids.length < BATCH) break;
      }
      if (batches >= maxBatches) break;
    }
    return pruned;
  }

  /**
   * A cursor below the highest pruned event may have missed a change that is gone from the log:
   * it is refused, and the client reloads its snapshot (as for any refused cursor).
   */
  async assertResumable(seq: number | null): Promise<void> {
    if (seq === null) return;
    if (seq < (await this.store.prunedThrough())) {
      throw new ValidationError("after", "after: events after this cursor are past the event retention; reload the list and subscribe from a new cursor");
    }
  }
}
