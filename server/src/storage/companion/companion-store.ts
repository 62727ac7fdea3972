// What the companion reads and writes besides notifications: recorded engine events, the
// scanner's lease and the facts whose dates need extracting. The scans' selections are in scan-reads.ts.
import { isUniqueViolation } from "../connection/database.ts";
import { newRowId as newId } from "../sql/row-id.ts";
import * as run from "../sql/run.ts";
import type { Database } from "../connection/database.ts";

export interface RecordedEvent {
  id: string;
  type: string;
  listeners: string[];
  notificationIds: string[];
  bodyDigest: string | null;
}

export interface NewEvent {
  type: string;
  payload: string;
  engagementId: string | null;
  actorPersonId: string | null;
  occurredAt: Date;
  receivedAt: Date;
  idempotencyKey: string | null;
  producerId: string;
  bodyDigest: string;
}

export class CompanionStore {
  constructor(private readonly database: Database) {}

  // ---- emitted events ----------------------------------------------------------------------

  /** An event this producer key recorded under this idempotency key. */
  async findEvent(producerId: string, idempotencyKey: string): Promise<RecordedEvent | null> {
    const row = await run.first(
      this.database.db,
      "CompanionEvent",
      this.database.build.selectFrom("CompanionEvent").selectAll().where("producerId", "=", producerId).where("idempotencyKey", "=", idempotencyKey),
    );
    return row ? toRecorded(row) : null;
  }

  /** Records an event; null when another call already recorded the same idempotencyKey. */
  async recordEvent(event: NewEvent): Promise<RecordedEvent | null> {
    try {
      const values = { id: newId(), ...event, occurredAt: this.database.time(event.occurredAt), receivedAt: this.database.time(event.receivedAt) };
      return toRecorded(
        await run.only(
          this.database.db,
          "CompanionEvent",
          this.database.build.insertInto("CompanionEvent").values(values).returningAll(),
          "the event was not recorded",
        ),
      );
    } catch (error) {
      if (event.idempotencyKey !== null && isUniqueViolation(error)) return null;
      throw error;
    }
  }

  async completeEvent(id: string, listeners: string[], notificationIds: string[]): Promise<void> {
    const count = await run.execute(
      this.database.db,
      this.database.build
        .updateTable("CompanionEvent")
        .set({ listeners: JSON.stringify(listeners), notificationIds: JSON.stringify(notificationIds) })
        .where("id", "=", id),
    );
    touchedOne(count, `event ${id}`);
  }

  // ---- the scanner's lease -----------------------------------------------------------------

  /**
   * Claims the cycle that starts at `cycleStart`: true for exactly one caller per cycle, on
   * either provider (a conditional UPDATE of one row is atomic on both).
   */
  async claimCycle(name: string, cycleStart: Date, holder: string, now: Date): Promise<boolean> {
    const { build } = this.database;
    const time = (value: Date) => this.database.time(value);
    await run
      .execute(this.database.db, build.insertInto("ScannerLease").values({ name, cycleStart: time(new Date(0)), holder: "", claimedAt: time(now) }))
      .catch((error: unknown) => {
        if (!isUniqueViolation(error)) throw error;
      });
    const count = await run.execute(
      this.database.db,
      build
        .updateTable("ScannerLease")
        .set({ cycleStart: time(cycleStart), holder, claimedAt: time(now) })
        .where("name", "=", name)
        .where("cycleStart", "<", time(cycleStart)),
    );
    return count === 1;
  }

  // ---- the time-based scan -----------------------------------------------------------------

  /** Facts whose dates were extracted by an older extractor (or by none: rows from before it). */
  factsToExtract(version: number, limit: number) {
    return run.rows(
      this.database.db,
      "RememberedFact",
      this.database.build.selectFrom("RememberedFact").select(["id", "content", "createdAt"]).where("datesVersion", "<", version).limit(limit),
    );
  }

  async setFactDates(id: string, dateRules: string, hasDates: boolean, version: number): Promise<void> {
    const count = await run.execute(
      this.database.db,
      this.database.build.updateTable("RememberedFact").set({ dateRules, hasDates, datesVersion: version }).where("id", "=", id),
    );
    touchedOne(count, `fact ${id}`);
  }
}

/** An update of one row by id fails when the row is gone (deleted meanwhile). */
function touchedOne(count: number, what: string): void {
  if (count !== 1) throw new Error(`no ${what} to update`);
}

function toRecorded(row: { id: string; type: string; listeners: string; notificationIds: string; bodyDigest: string | null }): RecordedEvent {
  return {
    id: row.id,
    type: row.type,
    listeners: JSON.parse(row.listeners) as string[],
    notificationIds: JSON.parse(row.notificationIds) as string[],
    bodyDigest: row.bodyDigest,
  };
}
