// Terminal history beyond the limit: finds the scope targets holding too much of it and deletes
// the oldest records with their events, in bounded batches (docs/decisions.md, "History limit").
import type { Db } from "./database.ts";

/** Highest sequence number of a deleted event; cursors below it may point into a hole. */
const PRUNED_THROUGH = "events.pruned-through";
// Stored zero-padded so the text column orders like the number (a compare-and-raise in one statement).
const pad = (seq: number) => String(seq).padStart(16, "0");

export class HistoryStore {
  constructor(private readonly db: Db) {}

  /** Scope targets (targetKey) with more than `limit` terminal records. */
  async overfullTargets(limit: number, take: number): Promise<string[]> {
    const groups = await this.db.notification.groupBy({
      by: ["targetKey"],
      where: { activeKey: null },
      having: { targetKey: { _count: { gt: limit } } },
      orderBy: { targetKey: "asc" },
      take,
    });
    return groups.map((g) => g.targetKey);
  }

  /**
   * Up to `take` ids of a target's terminal records beyond its newest `limit`, oldest first,
   * whose last change is before `changedBefore` (their events are past the event retention).
   */
  async prunable(targetKey: string, limit: number, changedBefore: Date, take: number): Promise<string[]> {
    const boundary = await this.db.notification.findFirst({
      where: { targetKey, activeKey: null },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: limit,
      select: { createdAt: true, id: true },
    });
    if (!boundary) return [];
    const rows = await this.db.notification.findMany({
      where: {
        targetKey,
        activeKey: null,
        updatedAt: { lt: changedBefore },
        OR: [{ createdAt: { lt: boundary.createdAt } }, { createdAt: boundary.createdAt, id: { lte: boundary.id } }],
      },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take,
      select: { id: true },
    });
    return rows.map((r) => r.id);
  }

  /**
   * Deletes terminal records with their events and their settled action invocations in one
   * transaction; raises the pruned-through mark. A pending invocation stays: its producer has not
   * answered it yet and still replays it.
   */
  async delete(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    return this.db.$transaction(async (tx) => {
      const last = await tx.notificationEvent.aggregate({ where: { notificationId: { in: [...ids] } }, _max: { seq: true } });
      await tx.notificationEvent.deleteMany({ where: { notificationId: { in: [...ids] } } });
      await tx.actionInvocation.deleteMany({ where: { notificationId: { in: [...ids] }, state: { not: "PENDING" } } });
      // activeKey null: a record that is active is never pruned, whatever the caller found.
      const deleted = await tx.notification.deleteMany({ where: { id: { in: [...ids] }, activeKey: null } });
      const seq = last._max.seq;
      if (seq !== null) {
        await tx.serverSetting.upsert({ where: { key: PRUNED_THROUGH }, create: { key: PRUNED_THROUGH, value: pad(seq) }, update: {} });
        await tx.serverSetting.updateMany({ where: { key: PRUNED_THROUGH, value: { lt: pad(seq) } }, data: { value: pad(seq) } });
      }
      return deleted.count;
    });
  }

  /** The highest sequence number pruned from the event log (0: nothing was). */
  async prunedThrough(): Promise<number> {
    const row = await this.db.serverSetting.findUnique({ where: { key: PRUNED_THROUGH } });
    return row ? Number.parseInt(row.value, 10) : 0;
  }
}
