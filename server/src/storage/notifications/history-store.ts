import * as run from "../sql/run.ts";
import type { Database } from "../connection/database.ts";
// Terminal history beyond the limit: finds the scope targets holding too much of it and deletes
// the oldest records with their events, in bounded batches (docs/decisions.md, "History limit").

/** Highest sequence number of a deleted event; cursors below it may point into a hole. */
const PRUNED_THROUGH = "events.pruned-through";
// Stored zero-padded so the text column orders like the number (a compare-and-raise in one statement).
const pad = (seq: number) => String(seq).padStart(16, "0");

export class HistoryStore {
  constructor(private readonly database: Database) {}

  /** Scope targets (targetKey) with more than `limit` terminal records. */
  async overfullTargets(limit: number, take: number): Promise<string[]> {
    const groups = await run.rows(
      this.database.db,
      "Notification",
      this.database.build
        .selectFrom("Notification")
        .select("targetKey")
        .where("activeKey", "is", null)
        .groupBy("targetKey")
        .having((eb) => eb.fn.count("targetKey"), ">", limit)
        .orderBy("targetKey", "asc")
        .limit(take),
    );
    return groups.map((g) => g.targetKey);
  }

  /**
   * Up to `take` ids of a target's terminal records beyond its newest `limit`, oldest first,
   * whose last change is before `changedBefore` (their events are past the event retention).
   */
  async prunable(targetKey: string, limit: number, changedBefore: Date, take: number): Promise<string[]> {
    const { build } = this.database;
    const terminal = build.selectFrom("Notification").where("targetKey", "=", targetKey).where("activeKey", "is", null);
    const boundary = await run.first(
      this.database.db,
      "Notification",
      terminal.select(["createdAt", "id"]).orderBy("createdAt", "desc").orderBy("id", "desc").limit(1).offset(limit),
    );
    if (!boundary) return [];
    const at = this.database.time(boundary.createdAt);
    const rows = await run.rows(
      this.database.db,
      "Notification",
      terminal
        .select("id")
        .where("updatedAt", "<", this.database.time(changedBefore))
        .where((eb) => eb.or([eb("createdAt", "<", at), eb.and([eb("createdAt", "=", at), eb("id", "<=", boundary.id)])]))
        .orderBy("createdAt", "asc")
        .orderBy("id", "asc")
        .limit(take),
    );
    return rows.map((r) => r.id);
  }

  /**
   * Deletes terminal records with their events and their settled action invocations in one
   * transaction; raises the pruned-through mark. A pending invocation stays: its producer has not
   * answered it yet and still replays it.
   */
  async delete(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const { build } = this.database;
    return this.database.db.transaction(async (tx) => {
      const [last] = await run.raw(
        tx,
        build
          .selectFrom("NotificationEvent")
          .select((eb) => eb.fn.max("seq").as("seq"))
          .where("notificationId", "in", ids),
      );
      await run.execute(tx, build.deleteFrom("NotificationEvent").where("notificationId", "in", ids));
      await run.execute(tx, build.deleteFrom("ActionInvocation").where("notificationId", "in", ids).where("state", "!=", "PENDING"));
      // activeKey null: a record that is active is never pruned, whatever the caller found.
      const deleted = await run.execute(tx, build.deleteFrom("Notification").where("id", "in", ids).where("activeKey", "is", null));
      if (last?.seq !== null && last?.seq !== undefined) {
        const mark = pad(Number(last.seq));
        await run.execute(
          tx,
          build
            .insertInto("ServerSetting")
            .values({ key: PRUNED_THROUGH, value: mark })
            .onConflict((conflict) => conflict.column("key").doNothing()),
        );
        await run.execute(tx, build.updateTable("ServerSetting").set({ value: mark }).where("key", "=", PRUNED_THROUGH).where("value", "<", mark));
      }
      return deleted;
    });
  }

  /** The highest sequence number pruned from the event log (0: nothing was). */
  async prunedThrough(): Promise<number> {
    const row = await run.first(
      this.database.db,
      "ServerSetting",
      this.database.build.selectFrom("ServerSetting").select("value").where("key", "=", PRUNED_THROUGH),
    );
    return row ? Number.parseInt(row.value, 10) : 0;
  }
}
