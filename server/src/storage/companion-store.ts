// What the companion reads and writes besides notifications: recorded engine events, the
// scanner's lease and the facts whose dates need extracting. The scans' selections are in scan-reads.ts.
import { type Db, isUniqueViolation } from "./database.ts";

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
  constructor(private readonly db: Db) {}

  // ---- emitted events ----------------------------------------------------------------------

  /** An event this producer key recorded under this idempotency key. */
  async findEvent(producerId: string, idempotencyKey: string): Promise<RecordedEvent | null> {
    const row = await this.db.companionEvent.findUnique({ where: { producerId_idempotencyKey: { producerId, idempotencyKey } } });
    return row ? toRecorded(row) : null;
  }

  /** Records an event; null when another call already recorded the same idempotencyKey. */
  async recordEvent(event: NewEvent): Promise<RecordedEvent | null> {
    try {
      return toRecorded(await this.db.companionEvent.create({ data: event }));
    } catch (error) {
      if (event.idempotencyKey !== null && isUniqueViolation(error)) return null;
      throw error;
    }
  }

  async completeEvent(id: string, listeners: string[], notificationIds: string[]): Promise<void> {
    await this.db.companionEvent.update({
      where: { id },
      data: { listeners: JSON.stringify(listeners), notificationIds: JSON.stringify(notificationIds) },
    });
  }

  // ---- the scanner's lease -----------------------------------------------------------------

  /**
   * Claims the cycle that starts at `cycleStart`: true for exactly one caller per cycle, on
   * either provider (a conditional UPDATE of one row is atomic on both).
   */
  async claimCycle(name: string, cycleStart: Date, holder: string, now: Date): Promise<boolean> {
    await this.db.scannerLease
      .create({ data: { name, cycleStart: new Date(0), holder: "", claimedAt: now } })
      .catch((error: unknown) => {
        if (!isUniqueViolation(error)) throw error;
      });
    const { count } = await this.db.scannerLease.updateMany({
      where: { name, cycleStart: { lt: cycleStart } },
      data: { cycleStart, holder, claimedAt: now },
    });
    return count === 1;
  }

  // ---- the time-based scan -----------------------------------------------------------------

  /** Facts whose dates were extracted by an older extractor (or by none: rows from before it). */
  factsToExtract(version: number, limit: number) {
    return this.db.rememberedFact.findMany({
      where: { datesVersion: { lt: version } },
      select: { id: true, content: true, createdAt: true },
      take: limit,
    });
  }

  async setFactDates(id: string, dateRules: string, hasDates: boolean, version: number): Promise<void> {
    await this.db.rememberedFact.update({ where: { id }, data: { dateRules, hasDates, datesVersion: version } });
  }
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
