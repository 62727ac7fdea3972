// What the companion reads and writes besides notifications: recorded engine events, the
// scanner's lease, and the selections of its two scans (dated facts, engagement activity).
import { type Db, isUniqueViolation } from "./database.ts";

export interface RecordedEvent {
  id: string;
  type: string;
  listeners: string[];
  notificationIds: string[];
}

export interface NewEvent {
  type: string;
  payload: string;
  engagementId: string | null;
  actorPersonId: string | null;
  occurredAt: Date;
  receivedAt: Date;
  idempotencyKey: string | null;
}

export interface DatedFact {
  id: string;
  personId: string;
  content: string;
  dateRules: string;
}

export interface EngagementToCheck {
  id: string;
  name: string;
  operatorPersonId: string;
  createdAt: Date;
}

export class CompanionStore {
  constructor(private readonly db: Db) {}

  // ---- emitted events ----------------------------------------------------------------------

  async findEvent(idempotencyKey: string): Promise<RecordedEvent | null> {
    const row = await this.db.companionEvent.findUnique({ where: { idempotencyKey } });
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

  /** One page of facts that mention dates, of persons not in quiet mode, in id order. */
  datedFacts(afterId: string | null, limit: number): Promise<DatedFact[]> {
    return this.db.rememberedFact.findMany({
      where: { hasDates: true, person: { quietMode: false }, ...(afterId ? { id: { gt: afterId } } : {}) },
      select: { id: true, personId: true, content: true, dateRules: true },
      orderBy: { id: "asc" },
      take: limit,
    });
  }

  /** The given dedup keys that already have a notification (so the scan skips their writes). */
  async firedAlready(dedupKeys: string[]): Promise<Set<string>> {
    if (dedupKeys.length === 0) return new Set();
    const rows = await this.db.notification.findMany({ where: { dedupKey: { in: dedupKeys } }, select: { dedupKey: true } });
    return new Set(rows.map((r) => r.dedupKey!));
  }

  // ---- the concern-based scan --------------------------------------------------------------

  /** One page of engagements whose operator is not in quiet mode, in id order. */
  engagements(afterId: string | null, limit: number): Promise<EngagementToCheck[]> {
    return this.db.engagement.findMany({
      where: { operator: { quietMode: false }, ...(afterId ? { id: { gt: afterId } } : {}) },
      select: { id: true, name: true, operatorPersonId: true, createdAt: true },
      orderBy: { id: "asc" },
      take: limit,
    });
  }

  /**
   * The latest activity of each engagement: events, new members, remembered facts and
   * notifications (except Herald's own time-based ones: a nudge about silence is not activity).
   * Engagements with none of these are absent; their creation is their last activity.
   */
  async lastActivity(engagementIds: string[]): Promise<Map<string, Date>> {
    const where = { engagementId: { in: engagementIds } };
    const [events, members, facts, notifications] = await Promise.all([
      this.db.companionEvent.groupBy({ by: ["engagementId"], where, _max: { receivedAt: true } }),
      this.db.engagementMember.groupBy({ by: ["engagementId"], where, _max: { createdAt: true } }),
      this.db.rememberedFact.groupBy({ by: ["engagementId"], where, _max: { createdAt: true } }),
      this.db.notification.groupBy({ by: ["engagementId"], where: { ...where, triggerType: { not: "TIME_BASED" } }, _max: { createdAt: true } }),
    ]);
    const latest = new Map<string, Date>();
    const note = (id: string | null, at: Date | null) => {
      if (!id || !at) return;
      const known = latest.get(id);
      if (!known || at > known) latest.set(id, at);
    };
    for (const row of events) note(row.engagementId, row._max.receivedAt);
    for (const row of members) note(row.engagementId, row._max.createdAt);
    for (const row of facts) note(row.engagementId, row._max.createdAt);
    for (const row of notifications) note(row.engagementId, row._max.createdAt);
    return latest;
  }
}

function toRecorded(row: { id: string; type: string; listeners: string; notificationIds: string }): RecordedEvent {
  return { id: row.id, type: row.type, listeners: JSON.parse(row.listeners) as string[], notificationIds: JSON.parse(row.notificationIds) as string[] };
}
